"""What happens at the card table: recording, undoing and correcting hands, the draft
of the hand being entered and what other phones see of it, seating and evenings.
"""
