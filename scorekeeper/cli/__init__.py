"""Command-line commands: ``flask --app scorekeeper <command>``.
"""
