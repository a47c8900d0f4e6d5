# Runs on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_screens.py VIEWS_JSON OUT_DIR MPY_TREE
# Draws each {"name", "screen", "view"} of VIEWS_JSON with the firmware's own
# screen module and writes the 4,736-byte frame to OUT_DIR/<name>.bin.
# mp_layout.py imports ``prepare`` from here.
import sys
import json
import framebuf


def decoded(x):
    """A message written {"m": [...]} (tests/firmware/i18n_views.encode)
    back to its tuple, bytes written {"utf8": "..."} back to bytes; lists
    stay lists (a menu row [label, value])."""
    if isinstance(x, dict):
        if len(x) == 1 and "m" in x:
            return tuple(decoded(y) for y in x["m"])
        if len(x) == 1 and "utf8" in x:
            return x["utf8"].encode()
        return {k: decoded(y) for k, y in x.items()}
    if isinstance(x, list):
        return [decoded(y) for y in x]
    return x


def prepare(screen, v):
    """A view read from JSON as the flows make it: tuples where they use
    tuples (messages written {"m": [...]})."""
    v = decoded(v)
    for k in ("labels", "groups"):
        if k in v and v[k] is not None:
            v[k] = [tuple(x) if isinstance(x, list) else x for x in v[k]]
            if k == "labels":
                v[k] = tuple(v[k])
    for k in ("hands", "entered", "totals"):
        if k in v and v[k] and isinstance(v[k][0], list):
            v[k] = [tuple(x) for x in v[k]]
    if "rows" in v and v["rows"] and isinstance(v["rows"][0], list):
        v["rows"] = [(x[0], x[1]) if isinstance(x, list) else x for x in v["rows"]]
    return v


def main():
    sys.path.insert(0, sys.argv[3])
    views = json.loads(open(sys.argv[1]).read())
    buf = bytearray(4736)
    fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
    for item in views:
        mod = __import__("firmware.screens." + item["screen"], None, None, ("x",))
        mod.draw(prepare(item["screen"], item["view"]), fb)
        with open(sys.argv[2] + "/" + item["name"] + ".bin", "wb") as f:
            f.write(buf)
    print("ok", len(views))


if __name__ == "__main__":
    main()
