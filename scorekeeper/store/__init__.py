"""The store: the database's tables and migrations, clubs' rosters, a game read back
and replayed from its hands, who sat where, and the stamp that proves kept figures current.

It imports the rules engine and ``text`` only.
"""
