"""The languages' packs (render.files()) made once, then read from a cache.

Rendering every word of every language with Pillow takes seconds (2.4 s of
the 2.7 s a `pipkeeper flash` with nothing to copy took on the virtual
board, profiled with cProfile; each `pipkeeper sim` paid it again), and its
result changes only with what it is made from: this package's code and
catalogues, the engine's message slots, the firmware's modules whose
messages the board writes as text (``<lang>.txt``: render.TEXT_SOURCES),
the font, and Pillow's shaping. Those are the key; a changed one renders
afresh.
"""

import hashlib
import os
from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.files import write_atomically

INDEX = "index.txt"       # written last: a folder without it is not whole


def _inputs():
    """The files the packs are made from, in a fixed order."""
    here = Path(__file__).resolve().parent
    files = sorted(here.rglob("*.py"))
    from shared_engine import messages
    from pipkeeper.i18n import render, sources
    files.append(Path(messages.__file__).resolve())
    files += [sources.ROOT / f for f in render.TEXT_SOURCES]
    files.append(Path(render.font_path()))
    return files


def key():
    """A digest of everything the packs depend on."""
    import PIL
    from PIL import features
    h = hashlib.sha256()
    h.update(("pillow %s raqm %s\n" % (PIL.__version__, features.version("raqm"))).encode())
    for p in _inputs():
        h.update(p.name.encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def files(cache):
    """{file name: bytes} as render.files() makes them, from the folder
    ``cache`` when it holds them for this key (else made and kept there)."""
    from pipkeeper.i18n import render
    folder = os.path.join(str(cache), "i18n-packs", key())
    index = os.path.join(folder, INDEX)
    try:
        with open(index, encoding="utf-8") as f:
            names = f.read().split()
        out = {}
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                out[name] = f.read()
        return out
    except OSError:
        pass
    out = render.files()
    try:
        os.makedirs(folder, exist_ok=True)
        for name, data in out.items():
            write_atomically(os.path.join(folder, name), data)
        write_atomically(index, "\n".join(sorted(out)) + "\n")
    except (OSError, PipkeeperError):    # a cache that cannot be written costs time, not the flash
        pass
    return out
