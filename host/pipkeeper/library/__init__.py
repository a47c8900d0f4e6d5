"""The library of games: the SQLite store, the tables derived from each record,
stats, export and the score sheet.
"""
