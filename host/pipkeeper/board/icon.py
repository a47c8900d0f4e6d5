"""The scorer's icon in Badger OS's launcher: a 52x52 JPEG drawn with
Pillow (a domino with a chicken foot), made at flash time so no binary
sits in the repository."""

import io

SIZE = 52


def badger_os_icon():
    """The icon's JPEG bytes (the launcher decodes JPEG icons only)."""
    from PIL import Image, ImageDraw

    img = Image.new("L", (SIZE, SIZE), 255)
    d = ImageDraw.Draw(img)
    # A domino standing up: a three on top, a chicken foot (a stem and
    # three toes) below.
    d.rounded_rectangle((12, 2, 40, 50), radius=5, outline=0, width=3, fill=255)
    d.line((14, 26, 38, 26), fill=0, width=2)
    for x, y in ((19, 9), (26, 14), (33, 19)):
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=0)
    cx, cy = 26, 38
    for dx, dy in ((-8, 8), (0, 9), (8, 8)):
        d.line((cx, cy - 6, cx + dx, cy + dy - 6), fill=0, width=3)
    d.line((cx, cy - 9, cx, cy - 4), fill=0, width=3)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=90)
    return out.getvalue()
