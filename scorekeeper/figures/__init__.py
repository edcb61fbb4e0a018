"""Figures derived from the hands: statistics, kept summaries, ratings, chances,
charts, and teams balanced by rating.

They read the store; they never change a game (nothing here imports ``table``).
"""
