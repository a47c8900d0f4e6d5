"""Code that runs on the board, not here.

`pklink.py` is the board's half of the link (sync, flash, roster). `flash`
installs it as /lib/pklink.mpy; a board without it (or with an older one)
gets its text pasted into the raw REPL at the start of each session
instead, so every command works on a bare MicroPython board too.
"""

import os

# Must equal V in pklink.py.
HELPER_VERSION = 6

HERE = os.path.dirname(os.path.abspath(__file__))


def source(name="pklink"):
    with open(os.path.join(HERE, name + ".py"), encoding="utf-8") as f:
        return f.read()


def compact(text):
    """The source without comment lines and indentation runs of blanks: fewer
    bytes to paste over a slow link. Docstrings are not used in pklink."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        out.append(" " * (indent // 4) + stripped)
    return "\n".join(out) + "\n"
