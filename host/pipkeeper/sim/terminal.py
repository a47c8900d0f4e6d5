"""The board's screen in a terminal of any size, and which key is which button.

At 150 columns and 36 lines or more the frame is drawn pixel for pixel in
braille (panel.to_terminal). Below that a picture cannot be read: the
board's 8-pixel font at half size is a smudge (80 x 24 leaves 1.9 board
pixels to a braille dot). There the screen is written as text instead: the
words the firmware drew on it (``Frame.words``, firmware/board_sim.py's
_Words), each where it was drawn, scaled to the terminal, and in reverse
video where the board drew paper on ink (the highlighted row, the button
labels). Messages are put in the board's language (pipkeeper.i18n.say).

Around either, the keys: ``a`` ``b`` ``c`` under the labels of the three
buttons below the screen, ``u`` and ``d`` (or the arrow keys) beside the two
on its right, from the first screen on.
"""

from rich.text import Text

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
    """The words drawn on a frame as ``rows`` lines of ``cols`` cells:
    a list of rich Texts."""
    from pipkeeper import i18n
    lang = words.get("lang") or "en"
    grid = [[" "] * cols for _ in range(rows)]
    inverse = [[False] * cols for _ in range(rows)]
    for x, y, h, colour, s in words.get("t", ()):
        if not isinstance(s, str):
            try:
                s = i18n.say(lang, s)
            except (KeyError, IndexError, TypeError, ValueError):
                s = str(s)
        row = min(rows - 1, max(0, (y + h // 2) * rows // HEIGHT))
        col = max(0, x * cols // WIDTH)
        for i, ch in enumerate(s):
            if col + i >= cols:
                break
            grid[row][col + i] = ch
            inverse[row][col + i] = colour == 0
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


def screen(frame, cols, rows):
    """The lines to draw for ``frame`` in a terminal of ``cols`` x
    ``rows``: the screen in a frame, the keys beside and under it."""
    at = None
    if (cols >= PICTURE[0] and rows >= PICTURE[1]) or not frame.words:
        body = [Text(line) for line in to_terminal(frame.data, half=cols < PICTURE[0])]
    else:
        body = words_lines(frame.words, max(20, cols - 2 - SIDE))
        at = _label_columns(frame.words, len(body[0]))
    width = len(body[0])
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
    for x, y, h, colour, s in words.get("t", ()):
        if y < HEIGHT - 13:
            continue
        n = len(s) if isinstance(s, str) else len(str(s[0]))
        i = min(range(3), key=lambda b: abs(BUTTON_X[b] - (x + 4 * n)))
        out[i] = 1 + x * cols // WIDTH + max(0, n - 1) // 2
    return out
