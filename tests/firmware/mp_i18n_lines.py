# Runs on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_i18n_lines.py MESSAGES_JSON OUT_DIR MPY_TREE NAMES_BIN LANG
# Draws each message of MESSAGES_JSON ({"m": [...]} a message, as in
# mp_i18n.py) alone at the top left of a blank frame, in the mid font, in
# LANG; writes OUT_DIR/line-<i>.bin, and prints each line's tokens'
# places, [[x, width], ...], one line of JSON per message.
import sys
import json
import framebuf
sys.path.insert(0, sys.argv[3])
from firmware import text
from firmware import lang


def decode(x):
    if isinstance(x, dict):
        return tuple(decode(v) for v in x["m"])
    if isinstance(x, list):
        return [decode(v) for v in x]
    return x


buf = bytearray(4736)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
text.use(sys.argv[5], sys.argv[4])
mid = text.font("mid")
for i, m in enumerate(json.loads(open(sys.argv[1]).read())):
    fb.fill(0)
    lang.POS = []
    text.draw(fb, decode(m), 0, 0, mid)
    print(json.dumps(lang.POS))
    with open(sys.argv[2] + "/line-%d.bin" % i, "wb") as f:
        f.write(buf)
print("ok")
