"""What people type and read, as plain helpers: names on one line, digits of any script.

They import nothing of the app, so every other package may use them.
"""
