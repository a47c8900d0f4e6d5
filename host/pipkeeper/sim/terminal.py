"""The board's screen in a terminal of any size, and which key is which button.

At 150 columns and 36 lines or more the frame is drawn pixel for pixel in
braille (panel.to_terminal). Below that a picture cannot be read: the
board's 8-pixel font at half size is a smudge (80 x 24 leaves 1.9 board
pixels to a braille dot). There the screen is written as text instead: the
words the firmware drew on it (``Frame.words``, firmware/board_sim_words.py,
read back as text in the board's language by pipkeeper.sim.words),
each where it was drawn, scaled to the terminal, and in reverse video
where the board drew paper on ink (the highlighted row, the button
labels); Persian right to left (``words_lines``). A frame whose words did
not all come (the board had no heap to spare for one) is drawn as a
picture.

Around either, the keys: ``a`` ``b`` ``c`` under the labels of the three
buttons below the screen, ``u`` and ``d`` (or the arrow keys) beside the two
on its right, from the first screen on.
"""

from rich.text import Text

from pipkeeper import i18n
from pipkeeper.sim.panel import HEIGHT, WIDTH, to_terminal

# Where the buttons' labels are (firmware/screens/ui.py: _CX, and the UP
# and DOWN labels' lines): the keys are written beside them.
BUTTON_X = (49, 148, 247)
UP_Y = 2
DOWN_Y = HEIGHT - 13 - 10
KEYS = ("a", "b", "c")
SIDE = 4                    # columns right of the screen for the UP/DOWN keys
WORD_ROWS = 16              # lines of the screen written as text: 8 pixels each
PICTURE = (WIDTH // 2 + 2 + SIDE, HEIGHT // 4 + 4)   # what the picture needs


def words_lines(words, cols, rows=WORD_ROWS):
    """The words drawn on a frame (pipkeeper.sim.words: each text as its
    language writes it) as ``rows`` lines of ``cols`` cells: a list of
    rich Texts. A text goes where the board drew it, scaled; one written
    right to left (Persian) ends where the board's ended and reads from
    the right in any terminal: in visual order, its letters in their
    joined forms (python-bidi, arabic-reshaper), as a terminal shows text
    it does not reorder itself (``EXPLICIT_BIDI``)."""
    grid = [[" "] * cols for _ in range(rows)]
    inverse = [[False] * cols for _ in range(rows)]
    for item in words.get("t", ()):
        x, y, h, colour, s, end = item[:6]
        row = min(rows - 1, max(0, (y + h // 2) * rows // HEIGHT))
        if i18n.rtl(s):
            s = visual(s)
            col = min(cols, max(0, (end * cols + WIDTH // 2) // WIDTH)) - i18n.cells(s)
        else:
            col = x * cols // WIDTH
        for ch in _cells(s):
            if col >= cols:
                break
            if col >= 0:
                grid[row][col] = ch
                inverse[row][col] = colour == 0
            col += 1
    out = []
    for r in range(rows):
        t = Text()
        c = 0
        while c < cols:         # runs of one style
            e = c
            while e < cols and inverse[r][e] == inverse[r][c]:
                e += 1
            t.append("".join(grid[r][c:e]), style="reverse" if inverse[r][c] else None)
            c = e
        out.append(t)
    return out


# Asked of the terminal before a screen of words: lay each line out as it
# is written to it (ECMA-48's BDSM, mode 8, set: "explicit"). A terminal
# that orders bidirectional text itself (VTE) would otherwise reverse the
# right-to-left words again; one that does not ignores the request.
EXPLICIT_BIDI = "\x1b[8h"
IMPLICIT_BIDI = "\x1b[8l"


def visual(s):
    """A right-to-left text as a terminal draws it cell by cell: its
    letters in their joined (presentation) forms, in display order."""
    import arabic_reshaper
    from bidi import get_display
    return get_display(arabic_reshaper.reshape(s), base_dir="R")


def _cells(s):
    """``s`` as terminal cells: each character with the marks and format
    characters that follow it (a ZWNJ, a vowel sign: no cell of their
    own)."""
    import unicodedata
    out = []
    for c in s:
        if out and unicodedata.category(c) in ("Mn", "Me", "Cf"):
            out[-1] += c
        elif unicodedata.category(c) == "Cf":
            continue
        else:
            out.append(c)
            if unicodedata.east_asian_width(c) in ("W", "F"):
                out.append("")
    return out


def screen(frame, cols, rows):
    """The lines to draw for ``frame`` in a terminal of ``cols`` x
    ``rows``: the screen in a frame, the keys beside and under it."""
    at = None
    words = frame.words
    if (cols >= PICTURE[0] and rows >= PICTURE[1]) or not words or not words.get("whole", True):
        body = [Text(line) for line in to_terminal(frame.data, half=cols < PICTURE[0])]
        width = len(body[0])
    else:
        width = max(20, cols - 2 - SIDE)
        body = words_lines(words, width)
        at = _label_columns(words, width)
    up = UP_Y * len(body) // HEIGHT
    down = (DOWN_Y + 4) * len(body) // HEIGHT
    lines = [Text("+" + "-" * width + "+")]
    for i, line in enumerate(body):
        side = " ↑ u" if i == up else " ↓ d" if i == down else ""
        lines.append(Text("|") + line + Text("|" + side))
    lines.append(Text("+" + "-" * width + "+"))
    keys = [" "] * (width + 2)
    for i, (k, x) in enumerate(zip(KEYS, BUTTON_X)):
        keys[at[i] if at and at[i] is not None else 1 + x * width // WIDTH] = k
    lines.append(Text("".join(keys).rstrip(), style="bold"))
    return lines


def _label_columns(words, cols):
    """The column under the middle of each of A, B and C's labels as the
    text view writes them (None for a button without one): its words are
    narrower than the board's, so the keys go by the words."""
    out = [None, None, None]
    for item in words.get("t", ()):
        x, y, h, colour, s, end = item[:6]
        if y < HEIGHT - 13:
            continue
        n = i18n.cells(s)
        i = min(range(3), key=lambda b: abs(BUTTON_X[b] - (x + end) // 2))
        if i18n.rtl(s):
            first = min(cols, max(0, (end * cols + WIDTH // 2) // WIDTH)) - n
        else:
            first = x * cols // WIDTH
        out[i] = 1 + max(0, first) + max(0, n - 1) // 2
    return out
