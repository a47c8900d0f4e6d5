"""The screens in every language: golden frames of every screen (as the
flows make them, tests/firmware/i18n_views.py) drawn by the firmware on the
unix port in each of the six languages, at the longest names allowed, one
in each script; every text of the catalogue fits its place; Persian as the
shaping engine itself lays it out.

Set PIPKEEPER_UPDATE_GOLDEN=1 to rewrite the goldens
(tests/firmware/golden/i18n/<lang>-<screen>.png), then look at them."""

import json
import os
import subprocess

import pytest

import i18n_views
from pipkeeper import i18n
from pipkeeper.i18n import render

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "i18n")
VIEW_NAMES = ("setup-rules", "setup-players", "setup-options", "dealer", "dealer-hunt", "dealer-foot", "dealer-redeal", "turn",
              "turn-refused", "menu", "menu-end", "picker", "picker-level", "turn-foot", "score",
              "score-refused", "sheet", "end", "qr", "sheet-fix-round", "sheet-fix-player", "fix",
              "fix-refused", "sheet-fixed", "sheet-scrolled", "history", "history-sheet", "error",
              # issues 31 and 32: the house rules, score entry's fields and mending keys
              "setup-house", "setup-house-own", "setup-options-house", "dealer-house", "score-field",
              "score-more", "end-house", "score-8", "history-sheet-house")


@pytest.fixture(scope="module")
def drawn(tmp_path_factory, mpy_tree):
    from pipkeeper.paths import micropython_binary
    d = tmp_path_factory.mktemp("i18n")
    vj = d / "views.json"
    i18n_views.write(d / "board", vj)
    names = d / "names.bin"
    names.write_bytes(render.names([n for n in i18n_views.NAMES if not render.drawable(n)]))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.join(HERE, "mp_i18n.py"),
                        str(vj), str(d), mpy_tree, str(names)] + list(i18n.LANGS),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    cuts = [line.split(" ", 3)[1:] for line in r.stdout.splitlines() if line.startswith("CUT ")]
    frames = {(lang, n): (d / ("%s-%s.bin" % (lang, n))).read_bytes()
              for lang in i18n.LANGS for n in VIEW_NAMES}
    return frames, cuts


def test_the_views_are_every_screen():
    from screens_views import VIEWS
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        got = i18n_views.views(d)
    assert tuple(n for n, _, _ in got) == VIEW_NAMES
    assert {s for _, s, _ in got} >= {v["screen"] for v in VIEWS}


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("name", VIEW_NAMES)
def test_golden(drawn, lang, name):
    from pipkeeper.sim.panel import save_png
    from test_screens import _frame_of_png
    path = os.path.join(GOLDEN, "%s-%s.png" % (lang, name))
    got = drawn[0][(lang, name)]
    if os.environ.get("PIPKEEPER_UPDATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        save_png(got, path, scale=2)
    assert os.path.exists(path), "no golden %s: run with PIPKEEPER_UPDATE_GOLDEN=1" % path
    assert _frame_of_png(path) == got, "%s differs from its golden frame" % path


def test_the_languages_differ(drawn):
    frames = drawn[0]
    for name in ("dealer", "turn", "menu"):
        assert len({frames[(lang, name)] for lang in i18n.LANGS}) == len(i18n.LANGS), name


def test_every_text_fits_its_place_at_the_longest_names(drawn):
    """firmware.lang.fit cut no word of the catalogue in any screen (a
    name may be cut with a dot, as in English)."""
    assert drawn[1] == [], "texts cut to fit: %s" % drawn[1]


# Persian lines, drawn by the board from its fragments, and by raqm whole.
PERSIAN_NAME = "فاطمه زهرایی"
PERSIAN_LINES = [
    ("Each player draws {n}", 12),
    ("{name} leads", PERSIAN_NAME),
    ("After round {k} of {n}", 3, 10),
    ("{seat} cannot pass: they must draw first ({tiles} may be drawn)", "زهرا", ("{n} tiles", 5)),
    ("Satisfy {tile} on {train}", ("the double",), ("{name}'s train", PERSIAN_NAME)),
    ("Nobody holds it: draw in turn. {name} draws: found it?", "زهرا"),
]


def _rows(frame, w=296, h=20):
    return [[(frame[y * 37 + (x >> 3)] >> (7 - (x & 7))) & 1 for x in range(w)] for y in range(h)]


def _pieces(rows):
    """The ink's runs of columns (a column with no ink splits them), each
    as its columns' bits, with the gap before it."""
    w = len(rows[0])
    cols = [tuple(r[x] for r in rows) for x in range(w)]
    out = []
    gap = 0
    cur = []
    for c in cols:
        if any(c):
            cur.append(c)
        else:
            if cur:
                out.append((gap, tuple(cur)))
                cur = []
                gap = 0
            gap += 1
    if cur:
        out.append((gap, tuple(cur)))
    return out


def _raqm_rows(s):
    img, _ = render.image(s, 1, rtl=True)
    px = img.load()
    w, h = img.size
    return [[1 if x < w and y < h and px[x, y] else 0 for x in range(296)] for y in range(20)]


@pytest.fixture(scope="module")
def persian_lines(tmp_path_factory, mpy_tree):
    from pipkeeper.paths import micropython_binary
    d = tmp_path_factory.mktemp("fa")
    (d / "lines.json").write_text(json.dumps([i18n_views.encode(m) for m in PERSIAN_LINES],
                                             ensure_ascii=False))
    names = d / "names.bin"
    names.write_bytes(render.names([PERSIAN_NAME, "زهرا"]))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K",
                        os.path.join(HERE, "mp_i18n_lines.py"), str(d / "lines.json"), str(d),
                        mpy_tree, str(names), "fa"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    places = [json.loads(line) for line in r.stdout.splitlines()[:-1]]
    return [((d / ("line-%d.bin" % i)).read_bytes(), places[i]) for i in range(len(PERSIAN_LINES))]


def _rows(frame, w=296, h=20):
    return [[(frame[y * 37 + (x >> 3)] >> (7 - (x & 7))) & 1 for x in range(w)] for y in range(h)]


def _raqm_rows(s, w=400):
    img, _ = render.image(s, 1, rtl=True)
    px = img.load()
    iw, ih = img.size
    return [[1 if x < iw and y < ih and px[x, y] else 0 for x in range(w)] for y in range(20)]


def _found(board, ref, x, w, near):
    """Where the board's columns x..x+w are in ``ref``: the offset (within
    ``near`` columns, a row up or down) at which each inked pixel of either
    has one in the other within a pixel, but for one in twenty (raqm places
    glyphs at fractions of a pixel: a letter can come out a column wider in
    a sentence than alone), or None."""
    h = len(board)

    def ink(img, cx, cy):
        return 0 <= cy < h and 0 <= cx < len(img[0]) and img[cy][cx]

    def near_ink(img, cx, cy):
        return any(ink(img, cx + a, cy + b) for a in (-1, 0, 1) for b in (-1, 0, 1))

    mine = [(cx, cy) for cy in range(h) for cx in range(x, x + w) if board[cy][cx]]
    for dx in sorted(range(-near, near + 1), key=abs):
        for dy in (0, -1, 1):
            theirs = [(cx, cy) for cy in range(h) for cx in range(x + dx, x + dx + w)
                      if ink(ref, cx, cy + dy)]
            miss = sum(1 for cx, cy in mine if not near_ink(ref, cx + dx, cy + dy))
            miss += sum(1 for cx, cy in theirs if not near_ink(board, cx - dx, cy))
            if miss * 20 <= len(mine) + len(theirs):
                return dx
    return None


def _runs(rows, x, w):
    """The runs of inked columns in x..x+w: (x, width)."""
    out = []
    start = None
    for c in range(x, x + w + 1):
        ink = c < x + w and any(r[c] for r in rows)
        if ink and start is None:
            start = c
        elif not ink and start is not None:
            out.append((start, c - start))
            start = None
    return out


@pytest.mark.parametrize("i", range(len(PERSIAN_LINES)))
def test_persian_is_drawn_as_the_shaping_engine_lays_it_out(persian_lines, i):
    """The board's line, built from fragments right to left, against raqm's
    rendering of the whole sentence at once: each word (and name, and
    number) the board drew is there in raqm's line, pixel for pixel (joined
    letter forms, Persian digits), in the same order from the right, within
    a few pixels of where the board put it (each word's width is rounded on
    its own); the board's line is as long as raqm's to 3 pixels."""
    frame, places = persian_lines[i]
    whole = i18n.say("fa", PERSIAN_LINES[i])
    board = _rows(frame)
    ref = _raqm_rows(whole)
    shifts = []
    for x, w in places:
        if x < 0 or x + w > 296:
            continue                       # off the screen's edge
        for px, pw in _runs(board, x, w):
            dx = _found(board, ref, px, pw, 4)
            assert dx is not None, (whole, x, w, px, pw)
            shifts.append(dx)
    assert len(shifts) >= 2
    assert abs(render.image(whole, 1, True)[1] - (places[0][0] + places[0][1] - min(p[0] for p in places))) <= 3


def test_the_check_would_see_unshaped_letters():
    """Letters drawn one by one (Pillow's basic layout: no shaping, left to
    right) are not found in raqm's line: the comparison above can fail."""
    from PIL import Image, ImageDraw, ImageFont
    whole = i18n.say("fa", PERSIAN_LINES[1])
    f = ImageFont.truetype(render.font_path(), 15, layout_engine=ImageFont.Layout.BASIC)
    img = Image.new("1", (296, 20), 0)
    ImageDraw.Draw(img).text((0, 14), whole, font=f, fill=1, anchor="ls")
    px = img.load()
    basic = [[1 if px[x, y] else 0 for x in range(296)] for y in range(20)]
    ref = _raqm_rows(whole)
    assert _found(basic, ref, 0, 60, 4) is None


# The turn screen's big name is drawn over its header (row 6): a name's
# accent over a capital crosses the rule there (issue 32's report: left open).
_OVER_THE_HEADER = ("turn", "turn-refused", "turn-foot")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_text_touches_a_rule(drawn, lang):
    """Issue 32, item 9: Persian headers and DOWN's "more"/"next" sat on
    their rule lines, their dots and descenders merged into them; item 4:
    the end screen's big winner's name crossed the header's rule with its
    accents (Swedish, Irish). Where a text's ink is on the row above the
    header's rule (row 10, the header's width) or above the bar's rule
    under DOWN's label, the rule leaves a pixel of paper either side."""
    from test_screens import _ink
    touching = []
    for name in VIEW_NAMES:
        f = drawn[0][(lang, name)]
        for y, x0, x1 in ((10, 0, 246), (115 - 1, 296 - 56, 296 - 14)):
            if y == 10 and (name in _OVER_THE_HEADER or name in ("error", "qr")):   # (no header)
                continue
            xs = [x for x in range(x0, x1) if _ink(f, x, y - 1)
                  and (_ink(f, x - 1, y) or _ink(f, x, y) or _ink(f, x + 1, y))]
            if xs:
                touching.append("%s, the rule at row %d, columns %s" % (name, y, xs[:6]))
    assert not touching, "\n".join(touching)


def test_the_sheets_round_labels_have_the_languages_digits(drawn):
    """The score sheet drew its rounds' labels ("9-9") with framebuf's own
    font: ASCII digits in Persian, among the cells' Persian digits. Its
    first row's label (left of the rule, row 25) differs from English's."""
    from test_screens import _ink
    frames = drawn[0]

    def label(lang):
        f = frames[(lang, "sheet")]
        return [[_ink(f, x, y) for x in range(24)] for y in range(24, 34)]
    assert label("fa") != label("en")
    assert label("cy") == label("en")
