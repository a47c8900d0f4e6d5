"""`pipkeeper test`: running the test suites and reading their counts, here
and on a connected board.
"""
