"""pipkeeper's shared engine: the rules of the Chicken Foot family and the
game record (DGN), in plain Python that runs unchanged on MicroPython and
CPython.

Modules, one concern each:
- ``tiles``: tile numbering and sets (small ints, no objects per tile).
- ``presets``: the four rule presets and their options, looked up by name.
- ``engine``: the game state and the reducer that applies one event.
- ``dgn``: the record reader and writer; it imports the engine, never the
  reverse, and is the only module that knows text.
- ``report``: the ``replay --json`` report built from a game.
- ``messages``: what the engine says to players, as templates with named
  slots (the board draws them in its language); ``fill`` below gives their
  English.

Nothing is imported here, so the board pays only for what a press needs.
"""

VERSION = "0.1.0"


# Here, not in messages.py: the board fills a message's English for every
# frame, and each module it loads costs entries in its table of names.
def fill(m):
    """The English text of message ``m`` (shared_engine/messages.py; a
    string is its own text)."""
    if isinstance(m, str):
        return m
    t = m[0]
    if len(m) == 1:
        return t            # no values: the template itself, nothing allocated
    out = []
    k = 1
    i = 0
    j = t.find("{")
    while j >= 0:
        e = t.find("}", j)
        out.append(t[i:j])
        v = m[k]
        k += 1
        if isinstance(v, int):
            v = ("seat %d" if t.startswith("seat", j + 1) else "%d") % v
        elif not isinstance(v, str):
            v = fill(v)
        out.append(v)
        i = e + 1
        j = t.find("{", i)
    out.append(t[i:])
    return "".join(out)
