"""Files in and out: the JSON reader, game files, club backups and CSV downloads.
"""
