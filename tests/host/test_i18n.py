"""The catalogues: every message the board can show is in the English
source, every language has every message, and no template drops or
invents a slot."""

import pytest

from pipkeeper import i18n
from pipkeeper.i18n import sources


def test_the_english_catalogue_is_the_messages_in_the_sources():
    found = sources.found()
    listed = set(i18n.english())
    assert not set(found) - listed, "messages missing from catalogue/en.py: %s" % sorted(
        "%s (%s)" % (m, found[m]) for m in set(found) - listed)
    assert not listed - set(found), "catalogue/en.py lists messages no source shows: %s" % sorted(
        listed - set(found))


def test_the_packs_leave_out_the_messages_only_written_as_text():
    """The QR codes' text (render.WRITTEN) has messages no screen draws:
    the packs hold no bitmaps for exactly those, and ``<lang>.txt`` holds
    them as text."""
    from pipkeeper.i18n import render
    drawn = sources.found(skip=(render.WRITTEN,))
    written = sources.found(files=(render.WRITTEN,))
    assert set(render.WRITTEN_ONLY) == {k for k in written if k not in drawn}
    for k in render.WRITTEN_ONLY:
        assert ("\n%s\t" % k).encode() in render.texts("fa")
    with_all = render._Writer(True, "fa")
    for english, template in i18n.templates("fa").items():
        with_all.entry(english, render.tokens(template, english))
    assert len(render.pack("fa")) < len(with_all.pack(digits=True))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_catalogue_lacks_a_key_or_drops_a_slot(lang):
    assert i18n.problems(lang) == []


def test_a_dropped_invented_or_missing_slot_is_found(monkeypatch):
    from pipkeeper.i18n.catalogue import cy
    bad = dict(cy.MESSAGES)
    bad["{name} leads"] = "sy'n dechrau"                 # dropped
    bad["Yard {n}"] = "Iard ieir {k}"                   # invented instead
    del bad["Menu"]
    bad["Not a message"] = "Dim"
    monkeypatch.setattr(cy, "MESSAGES", bad)
    found = "\n".join(i18n.problems("cy"))
    for m in ("{name} leads", "Yard {n}", "missing 'Menu'", "'Not a message' is not an English"):
        assert m in found


def test_the_firmware_offers_the_same_languages():
    from firmware.flows import setup
    assert setup.LANGS == i18n.LANGS
    assert setup.ENDONYMS == tuple(i18n.ENDONYMS[k] for k in i18n.LANGS)


def test_a_message_is_found_in_each_of_its_forms(tmp_path):
    (tmp_path / "firmware" / "flows").mkdir(parents=True)
    (tmp_path / "firmware" / "screens").mkdir()
    (tmp_path / "shared_engine").mkdir()
    for f in sources.FILES:
        if f.endswith(".py"):
            (tmp_path / f).write_text("")
    (tmp_path / "firmware" / "flows" / "x.py").write_text(
        'a = ("Menu",)\nb = ("{name} leads", n)\nc = labels("Play", "-1" if v else "back")\n'
        'raise IllegalEvent("the game is over")\nd = ("Rules", [x])\n'
        'e = ("win: {why}" if k else "wins: {why}", w)\nf = plural(n, "1 game", "{n} games")\n')
    got = set(sources.found(tmp_path)) - set(sources.DYNAMIC)
    assert got == {"Menu", "{name} leads", "Play", "-1", "back", "the game is over",
                   "win: {why}", "wins: {why}", "1 game", "{n} games"}


# Player names in every script, off the board.
NAMES = ["Wolfgang Ali", "Gwenllian Ŵy", "Áine Ní Bhrí", "Örjan Åström", "Батцэцэг Бат", "فاطمه\u200cزهرایی"]
RECORD = ('[Rules "chickenfoot"]\n[Players %s]\n[Option "rounds" "9"]\n[Tracking "quick"]\n'
          '[Lang "fa"]\nround 9-9 lead 1\nscore 12 0 7 30 4 9\n'
          % " ".join('"%s"' % n for n in NAMES))


def test_the_sheet_keeps_columns_straight_with_names_in_any_script():
    from shared_engine import dgn
    from pipkeeper.library.sheet import format_sheet
    text = format_sheet(_report(dgn.replay(RECORD)))
    table = [line for line in text.splitlines() if line.startswith(("round", "9-9", "total"))]
    assert len(table) == 3
    ends = [[i for i in range(len(line)) if line[i:i + 2] == "  " and line[i + 2:i + 3] != " "]
            for line in table]
    widths = {i18n.cells(line) for line in table}
    assert len(widths) == 1, table              # every row as wide, in terminal cells
    for n in NAMES:
        assert n in table[0]
    assert "\u2068" not in text and "\u2069" not in text   # plain text: no invisible marks (issue 32)
    assert ends


def test_a_persian_name_is_isolated_on_a_terminal_only(tmp_path):
    """Piped, `replay` wrapped a Persian name in U+2068/U+2069, invisible
    marks a script then had in its data (issue 32, item 17); on a
    terminal, which may order text both ways, they keep the row's columns
    in place."""
    from click.testing import CliRunner
    from pipkeeper.cli import main
    path = tmp_path / "fa.dgn"
    path.write_text(RECORD, encoding="utf-8")
    piped = CliRunner().invoke(main, ["replay", str(path)], env={"TTY_COMPATIBLE": None})
    assert piped.exit_code == 0 and NAMES[5] in piped.stdout
    assert "\u2068" not in piped.stdout and "\u2069" not in piped.stdout
    drawn = CliRunner().invoke(main, ["replay", str(path)], env={"TTY_COMPATIBLE": "1", "COLUMNS": "200"})
    assert drawn.exit_code == 0 and "\u2068" + NAMES[5] + "\u2069" in drawn.stdout


def test_cells_counts_what_a_terminal_shows():
    assert i18n.cells("فاطمه\u200cزهرایی") == 11        # the ZWNJ takes no cell
    assert i18n.cells("\u2068Ann\u2069") == 3
    assert i18n.cells("東京") == 4


def test_the_html_isolates_every_name():
    from shared_engine import dgn
    from pipkeeper.library import export
    rep = _report(dgn.replay(RECORD))
    html = export._game_section({"id": 1, "event": None, "date": None, "game_id": "x"}, rep)
    for n in NAMES:
        assert "<bdi>%s</bdi>" % n in html
    assert "<title>%s</title>" % NAMES[5] in html        # the chart's tooltips: plain text


def test_a_record_keeps_its_language_tag():
    from shared_engine import dgn
    rec = dgn.read(RECORD)
    assert rec.tag("Lang") == ["fa"] and rec.tag("Tracking") == ["quick"]
    again = "".join(dgn.lines(list(reversed(rec.tags)), [ev for _, ev in rec.events]))
    assert again.splitlines()[:5] == RECORD.splitlines()[:5]     # Rules, Players, Option, Tracking, Lang
    assert dgn.replay(RECORD).totals == dgn.replay(RECORD.replace('[Lang "fa"]\n', "")).totals


def test_the_roster_pushes_bitmaps_of_the_names_its_fonts_cannot_draw():
    import struct
    from pipkeeper.board import roster
    from pipkeeper.i18n import render
    data = roster.names_file(NAMES + ["Ann", "Bob"])
    assert data[:4] == render.MAGIC
    (n,) = struct.unpack_from("<H", data, 8)
    assert n == 5                 # all but the ASCII ones: Wolfgang Ali, Ann, Bob
    keys = {struct.unpack_from("<I", data, render.HEADER + 8 * i)[0] for i in range(n)}
    assert keys == {render.key_hash(s) for s in NAMES[1:]}


def _report(game):
    from shared_engine.report import report
    return report(game)


def test_an_accent_over_a_small_letter_is_drawn_whole_at_the_small_size():
    """The circumflex of "Siân" rises a row above the small size's line
    top: cut there, it kept only its two feet and read as a diaeresis
    ("Siän"). Its fragment keeps that row (a top of -1), and differs from
    the diaeresis's."""
    import struct
    from pipkeeper.i18n import render

    def rows(s):
        f = render.fragment(s, 0, False)
        w, top, n = struct.unpack_from("<HbB", f)
        return top, n, f[4:]
    a_top, a_rows, _ = rows("a")
    c_top, c_rows, c_bits = rows("â")
    d_top, d_rows, d_bits = rows("ä")
    assert c_top < d_top and c_rows == d_rows + 1 == a_rows + 3
    assert c_bits != d_bits


def test_a_word_at_the_small_size_has_no_gap_that_reads_as_a_space():
    """Welsh "mwy" (more, DOWN's label) was drawn "mw y": at 10 pixels
    FreeType's hinting left "w" and "y" two columns apart, next to the one
    column between the other letters (issue 32). No run of two or more
    paper columns within a word of the catalogue's small labels."""
    import struct
    from pipkeeper.i18n import render

    for word in ("mwy", "nesaf", "yn", "cyntaf", "dadwn"):
        f = render.fragment(word, 0, False)
        w, top, n = struct.unpack_from("<HbB", f)
        stride = (w + 7) // 8
        bits = f[4:]
        inked = [any(bits[r * stride + (x >> 3)] & (0x80 >> (x & 7)) for r in range(n))
                 for x in range(w)]
        cols = "".join("#" if i else "." for i in inked).strip(".")
        assert ".." not in cols, (word, cols)
