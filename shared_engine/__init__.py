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

Nothing is imported here, so the board pays only for what a press needs.
"""

VERSION = "0.1.0"
