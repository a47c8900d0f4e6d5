# Runs on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_i18n.py VIEWS_JSON OUT_DIR MPY_TREE NAMES_BIN LANG...
# Draws each view of VIEWS_JSON (one JSON line a view) (tests/firmware/i18n_views.py: a message is
# {"m": [...]}) with the firmware's own screens in each LANG, the names from
# NAMES_BIN, and writes OUT_DIR/<lang>-<name>.bin; prints a line
# "CUT lang name [message, width]" for each text of the catalogue that
# firmware.lang.fit had to cut, then "ok".
import sys
import json
import framebuf
sys.path.insert(0, sys.argv[3])
from firmware import text
from firmware import lang as langmod


def decode(x):
    if isinstance(x, dict):
        if "m" in x and len(x) == 1:
            return tuple(decode(v) for v in x["m"])
        if "utf8" in x and len(x) == 1:
            return x["utf8"].encode()
        return {k: decode(v) for k, v in x.items()}
    if isinstance(x, list):
        return [decode(v) for v in x]
    return x


def views():
    """The views of VIEWS_JSON (a JSON line each), one at a time: all of
    them at once and their fragments left no block large enough for a
    bitmap in the board's 160 KB heap."""
    with open(sys.argv[1]) as f:
        for line in f:
            if line.strip():
                yield decode(json.loads(line))


buf = bytearray(4736)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
for lang in sys.argv[5:]:
    text.use(lang, sys.argv[4])
    for item in views():
        langmod.CUT = []
        mod = __import__("firmware.screens." + item["screen"], None, None, ("x",))
        mod.draw(item["view"], fb)
        text.release()
        with open(sys.argv[2] + "/" + lang + "-" + item["name"] + ".bin", "wb") as f:
            f.write(buf)
        for c in langmod.CUT:
            print("CUT", lang, item["name"], json.dumps(c))
print("ok")
