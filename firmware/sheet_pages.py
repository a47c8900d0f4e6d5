"""The score sheet's pages: how many of its rounds show at once, and which
first. For the sheet screen (firmware/screens/sheet.py) and the flows that
page through it (flows/rounds.py: C; flows/history.py: UP and DOWN).

A module of its own, loaded only where the sheet is: firmware/core.py is
loaded by every cold boot, and each name a loaded module holds is interned
by every press. These 4 names in core pushed a press on the fix screen (a
cold boot) past the 620 names that MicroPython's table holds in its first
five blocks, and the sixth, of 640 entries (7 KB on the unix port), found
no room in one piece: "MemoryError: ... allocating 640 bytes" (issue 32).
Not in the screen's module: the flows run on CPython too, where the screens'
framebuf is not.
"""

# The rounds shown at once: the sheet's room, 8 rows; the flows page by as many.
ROWS = 8


def first_row(rows, top=None, cursor=None):
    """The first of the ``ROWS`` rounds shown: ``top`` (None: the last
    ones), moved so that the cursor's row is in view."""
    if top is None:
        top = len(rows) - ROWS
    if cursor:
        if cursor[0] < top:
            top = cursor[0]
        elif cursor[0] >= top + ROWS:
            top = cursor[0] - ROWS + 1
    return max(0, min(top, len(rows) - ROWS))
