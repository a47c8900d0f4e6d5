# Runs on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_screens.py VIEWS_JSON OUT_DIR MPY_TREE
# Draws each {"name", "screen", "view"} of VIEWS_JSON with the firmware's own
# screen module and writes the 4,736-byte frame to OUT_DIR/<name>.bin.
import sys
import json
import framebuf
sys.path.insert(0, sys.argv[3])
views = json.loads(open(sys.argv[1]).read())
buf = bytearray(4736)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
for item in views:
    mod = __import__("firmware.screens." + item["screen"], None, None, ("x",))
    v = item["view"]
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
    mod.draw(v, fb)
    with open(sys.argv[2] + "/" + item["name"] + ".bin", "wb") as f:
        f.write(buf)
print("ok", len(views))
