"""The scorer's own MicroPython image: upstream MicroPython for the RP2040
with the scorer frozen in (`pipkeeper firmware`).

Why: on the stock image every battery press is a cold boot that loads some
60 KB of ``.mpy`` bytecode from LittleFS into the heap and interns some 700
names, each a linear search among the names interned so far. Frozen into
the image, the modules' bytecode runs in place from flash and their names
sit in the image's sorted pool: the late cold boot took 217 ms instead of
495 ms, and drew in 49 KB of heap instead of 108 KB (docs/PERFORMANCE.md).

- ``recipe/``: the project's own board definition (``PIPKEEPER/``: the
  RP2040 with 2 MB of flash, the filesystem where upstream's RPI_PICO keeps
  it, and the manifest of what is frozen).
- ``build.py``: stages the frozen tree for one build (hardware/profiles/),
  checks the toolchain and the MicroPython source tree, runs the rp2 port's
  build, and caches the image by the hash of everything that went in.
- which scorer an image holds (version, the hash of its frozen sources,
  the build), read from the image file or from a board, is
  board/image_identity.py: the board layer reads it, and this package
  sits above that layer.
"""
