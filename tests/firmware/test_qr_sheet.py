"""The final sheet to a phone (issue 34): the board's QR codes read back by
a real decoder (zxing-cpp) give the game's result as text, in the board's
language, for games of 2 to 8 players.

The text a code must hold is made here again from the record alone (the
replay's totals and winners, the catalogue's templates through
pipkeeper.i18n.say, the record's options against the preset's), not by the
board's code; the decoded pages, headers "pipkeeper <game> <date> k/n"
taken off, must give its lines.

- every player count and language on CPython: the flow's text in the
  language's words as the board reads them (``<lang>.txt``), each page
  encoded, drawn and decoded;
- the real firmware on the simulated board (`pipkeeper sim --script
  --frames`, the unix port's 160 KB heap): a finished game on its flash,
  C on the end screen, DOWN through the pages; its PNG frames decoded (a
  sample: each player count once, the six languages among them, Persian
  with the largest sheet, Mexican Train's 13 rounds for 8 players in 12
  codes); the first code of each language is a golden frame
  (tests/firmware/golden/qr/, looked at). The largest sheet is read back on
  the emulated RP2040 too (tests/device/test_qr_on_board.py);
- paging, and History's way to the codes.
"""

import os
import subprocess
import sys

import pytest

from pipkeeper import i18n
from pipkeeper.bench import qrgame

zxingcpp = pytest.importorskip("zxingcpp")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "qr")

TITLES = {"chickenfoot": "Chicken Foot", "chickenfoot-cross": "Chicken Foot Cross",
          "chicken-scratch": "Chicken Scratch", "mexican-train": "Mexican Train"}
# (rules, players, options): short games but for the largest sheet
GAMES = {2: ("chicken-scratch", {"rounds": "6 5"}), 3: ("chickenfoot", {"rounds": "9 8"}),
         4: ("chickenfoot-cross", {"rounds": "9 8 7"}), 5: ("chickenfoot", {"rounds": "9 8"}),
         6: ("mexican-train", {"rounds": "12 11"}), 7: ("chickenfoot", {"rounds": "9"}),
         8: ("mexican-train", {"rounds": "12 11 10 9 8 7"}), "largest": ("mexican-train", {})}


def expected(dgn_text, lang):
    """(header, lines) of the record's final sheet in ``lang``, made from
    the record and the catalogue only."""
    from shared_engine import dgn
    from shared_engine.presets import PRESETS, OPTION_NAMES
    rec = dgn.read(dgn_text)
    g = dgn.replay(dgn_text)

    def say(*m):
        return i18n.say(lang, m)

    def num(n):
        return i18n.localized(str(n), lang)

    rounds = ("1 round",) if len(g.results) == 1 else ("{n} rounds", len(g.results))
    lines = [say("{rules}, {rounds}, stopped" if g.stopped else "{rules}, {rounds}",
                 (TITLES[g.rules.name],), rounds)]
    opts = {v[0]: v[1] for k, v in rec.tags if k == "Option"}
    house = ["%s=%s" % (k, opts[k]) for k in OPTION_NAMES
             if k in opts and opts[k] != PRESETS[g.rules.name].get(k)]
    if house:
        # (the options as the record writes them: not in the language's digits)
        t = i18n.localized(i18n.templates(lang)["House rules: {rules}"], lang)
        lines.append(t.replace("{rules}", "; ".join(house)))
    seats, how = g.winners()
    best = (lambda s: -g.totals[s]) if g.rules.positive else (lambda s: g.totals[s])
    order = sorted(range(g.n), key=lambda s: (s + 1 not in seats, best(s), s))
    for i, s in enumerate(order):
        rank = i + 1
        while rank > 1 and (order[rank - 2] + 1 in seats) == (s + 1 in seats) and \
                best(order[rank - 2]) == best(s):
            rank -= 1
        lines.append("%s. %s %s" % (num(rank), g.players[s], num(g.totals[s])))
    if how is None:
        why = ("highest total",) if g.rules.positive else ("lowest total",)
    elif how == "shared":
        why = ("tied totals",)
    else:
        why = ("tie-break, {how}", (how,))
    names = [g.players[s - 1] for s in seats]
    if not names:
        lines.append(say("the game was stopped"))
    elif len(names) == 1:
        lines.append(say("{name} wins: {why}", names[0], why))
    else:
        lines.append(say("{names} win: {why}", " & ".join(names), why))
    lines.append(say("Rounds") + ": " + " ".join(num(r[0]) for r in g.results))
    for s in order:
        lines.append(g.players[s] + ": " + " ".join(num(r[1][s]) for r in g.results))
    header = " ".join(["pipkeeper"] + [rec.tag(t)[0] for t in ("Game", "Date") if rec.tag(t)])
    return header, lines


def check_pages(texts, header, lines, lang):
    """The decoded ``texts`` (one a page, in order) are the sheet's pages:
    each headed by ``header`` (and " k/n" when several), their lines in
    order giving ``lines`` (a line too long for a page cut at spaces)."""
    n = len(texts)
    body = []
    for k, t in enumerate(texts):
        first, _, rest = t.partition("\n")
        want = header if n == 1 else "%s %s/%s" % (header, i18n.localized(str(k + 1), lang),
                                                   i18n.localized(str(n), lang))
        assert first == want
        assert len(t.encode()) <= 133
        body += rest.split("\n")
    got = iter(body)
    for line in lines:
        piece = next(got)
        while piece != line:
            assert line.startswith(piece + " "), (piece, line)
            line = line[len(piece) + 1:]
            piece = next(got)
    assert next(got, None) is None


def decode_picture(img):
    got = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(got) <= 1
    return got[0].text if got else None


def _record(tmp_path, n, lang, seed=1, which=None):
    rules, options = GAMES[which or n]
    qrgame.write(tmp_path / "flash", rules, n, lang, seed, options)
    return (tmp_path / "flash" / "games" / "0001.dgn").read_text(encoding="utf-8")


# -- every player count in every language, the board's text on CPython --------------

@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_player_count_reads_back_in_each_language(tmp_path, lang):
    from shared_engine import dgn
    from firmware.flows import sheet_text as flow
    from firmware import qr
    from pipkeeper.i18n import render
    from test_qr import picture
    w = flow.Words(render.texts(lang)) if lang != "en" else flow.Words()
    for n in list(range(2, 9)) + ["largest"]:
        text = _record(tmp_path / str(n), 8 if n == "largest" else n, lang, which=n)
        g = dgn.replay(text)
        assert g.over
        header, lines = expected(text, lang)
        pages = flow.pages(header.encode(), flow.sheet_lines(g, w), w)
        read = []
        for p in pages:
            size, m = qr.encode(p)
            read.append(decode_picture(picture(size, m)))
        check_pages(read, header, lines, lang)


def test_paging_fills_codes_of_version_6_at_most():
    from firmware.flows import sheet_text as flow
    from firmware import qr
    from firmware.flows import qr as qr_flow
    assert flow.PAGE == qr.capacity(qr.VERSIONS, qr.L, True)
    assert qr_flow.MODULES == qr.size_of(qr.VERSIONS) ** 2
    w = flow.Words()
    lines = ["Line %d " % i + "x" * (i % 50) for i in range(40)] + ["y " * 120]
    pages = flow.pages(b"pipkeeper ab12-0001", [x.encode() for x in lines], w)
    assert len(pages) > 5
    for k, p in enumerate(pages):
        assert len(p) <= flow.PAGE
        assert p.startswith(b"pipkeeper ab12-0001 %d/%d\n" % (k + 1, len(pages)))
        assert qr.choose(p) is not None
    check_pages([p.decode() for p in pages], "pipkeeper ab12-0001", lines, "en")
    assert flow.pages(b"pipkeeper", [b"short"], w) == [b"pipkeeper\nshort"]
    # a word longer than a page is cut between two characters, never in one
    long = flow._cut(("ф" * 100).encode(), 133)
    assert [len(x) for x in long] == [132, 68] and b"".join(long).decode() == "ф" * 100


def test_history_shows_a_finished_games_codes(tmp_path):
    from firmware import core
    from firmware.storage import Storage
    text = _record(tmp_path, 3, "en")
    st = Storage(str(tmp_path / "flash"))
    st.set_current("")
    ctx = core.Ctx(store=st)
    ui = {"s": "hist", "c": 0, "g": "0001.dgn"}
    name, v = core.view(ctx, ui)
    assert v["labels"][1] == ("QR code",)
    ui, act = core.step(ctx, ui, "B")
    assert (ui, act) == ({"s": "qr", "g": "0001.dgn", "c": 0}, None)
    name, v = core.view(ctx, ui)
    assert name == "qr"
    header, lines = expected(text, "en")
    texts = [v["text"].decode()]
    while v["page"]:
        ui, _ = core.step(ctx, ui, "DOWN")
        v = core.view(ctx, ui)[1]
        if v["text"].decode() == texts[0]:
            break
        texts.append(v["text"].decode())
    check_pages(texts, header, lines, "en")
    assert core.step(ctx, ui, "C")[0] == {"s": "hist", "c": 0, "g": "0001.dgn"}


def test_history_pages_its_sheet_and_the_codes_come_back_to_that_page(tmp_path):
    """Both of History's sheet keys (issue 32's paging, issue 34's codes):
    UP pages to earlier rounds with B still offering the codes, and C from
    the codes goes back to the page left."""
    from firmware import core
    from firmware.storage import Storage
    _record(tmp_path, 8, "en", which="largest")
    st = Storage(str(tmp_path / "flash"))
    st.set_current("")
    ctx = core.Ctx(store=st)
    ui = {"s": "hist", "c": 0, "g": "0001.dgn"}
    v = core.view(ctx, ui)[1]
    assert v["labels"][3] == ("earlier",) and v["labels"][1] == ("QR code",)
    ui = core.step(ctx, ui, "UP")[0]
    top = core.view(ctx, ui)[1]["top"]
    assert top < v["top"] and ui["t"] == top
    assert core.view(ctx, ui)[1]["labels"][1] == ("QR code",)
    codes = core.step(ctx, ui, "B")[0]
    assert codes["s"] == "qr" and codes["t"] == top
    assert core.view(ctx, codes)[0] == "qr"
    back = core.step(ctx, codes, "C")[0]
    assert back == {"s": "hist", "c": 0, "g": "0001.dgn", "t": top}
    assert core.view(ctx, back)[1]["top"] == top


def test_a_game_in_progress_offers_no_codes_in_history(tmp_path):
    from firmware import core
    from firmware.storage import Storage
    from shared_engine import dgn
    st = Storage(str(tmp_path))
    st.ensure_dirs()
    st.new_game(lambda n: dgn.write([("Rules", ["chickenfoot"]), ("Players", ["Ann", "Bob"])],
                                    [(1, 9, 1, ())]))
    ui = {"s": "hist", "c": 0, "g": st.list_games()[-1]}
    assert core.view(core.Ctx(store=st), ui)[1]["labels"][1] is None
    assert core.step(core.Ctx(store=st), ui, "B")[0] == ui


# -- the real firmware's frames on the simulated board -------------------------------

# (players, language, the game: GAMES[players], or "largest")
SIM_SAMPLE = [(2, "en", None), (3, "cy", None), (4, "ga", None), (5, "sv", None), (6, "mn", None),
              (7, "en", None), (8, "fa", "largest")]


def sim_codes(tmp_path, presses):
    """Run the sim with ``presses`` from its flash; the decoded text of
    each frame (None where a frame holds no code) and the frames' paths."""
    script = tmp_path / "script.txt"
    script.write_text("\n".join(presses) + "\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host"), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-m", "pipkeeper", "sim", "--dir", str(tmp_path / "flash"),
                        "--script", str(script), "-q", "--frames", str(tmp_path / "frames")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "flash" / "log.txt").exists(), (tmp_path / "flash" / "log.txt").read_text()
    from PIL import Image
    paths = sorted((tmp_path / "frames").iterdir())
    return [decode_picture(Image.open(p)) for p in paths], paths


def pages_of(codes):
    """The pages shown from the first code on, until the first comes again."""
    first = next(i for i, c in enumerate(codes) if c)
    out = [codes[first]]
    for c in codes[first + 1:]:
        if c == out[0]:
            break
        out.append(c)
    return out


@pytest.mark.parametrize("n,lang,which", SIM_SAMPLE)
def test_the_sims_frames_read_back(tmp_path, n, lang, which):
    from pipkeeper.sim.panel import save_png
    from test_screens import _frame_of_png
    text = _record(tmp_path, n, lang, which=which)
    header, lines = expected(text, lang)
    codes, paths = sim_codes(tmp_path, ["C"] + ["DOWN"] * 12)
    assert codes[0] is None                    # the end screen
    pages = pages_of(codes)
    check_pages(pages, header, lines, lang)
    assert all(c for c in codes[1:])           # every frame after C holds a code
    if lang == "fa" or n == 2 or lang not in [x[1] for x in SIM_SAMPLE[:SIM_SAMPLE.index((n, lang, which))]]:
        golden = os.path.join(GOLDEN, "%s-%s.png" % (lang, which or "%dp" % n))
        got = _frame_of_png(str(paths[1]))
        if os.environ.get("PIPKEEPER_UPDATE_GOLDEN"):
            os.makedirs(GOLDEN, exist_ok=True)
            save_png(got, golden, scale=2)
        assert _frame_of_png(golden) == got, "%s differs from its golden frame" % golden
