"""The league as a page (issue 34): `pipkeeper export --format html
--league`, read in headless Chromium as a person's browser reads it. Its
text (the DOM Chromium built) says what `stats --json` says, hostile names
stay text, nothing is fetched, and the screenshot shows the chart drawn.
The games page's marks have their legend (issue 32.17)."""

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from pipkeeper.cli import main
from test_league import WHO, nights, sheet

EVIL = "<img src=x onerror=alert(1)>"


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


needs_chromium = pytest.mark.skipif(
    chromium() is None, reason="needs Chromium (Debian package `chromium`; .ci/run installs it)")


def run(*args):
    result = CliRunner().invoke(main, list(args), prog_name="pipkeeper")
    assert result.exit_code == 0, result.output
    return result.stdout


def browse(page, tmp_path, *what):
    """Chromium headless on the page, with the flags a sandboxed CI needs."""
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run", "--hide-scrollbars", "--user-data-dir={}".format(tmp_path / "chromium-profile"),
         *what, page.as_uri()], capture_output=True, text=True, timeout=120)


class Tables(HTMLParser):
    """The text of each table's cells, and every element and attribute seen."""

    def __init__(self):
        HTMLParser.__init__(self)
        self.tables, self.tags, self.attrs = [], [], []
        self._cell = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [name for name, _value in attrs]
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, text):
        if self._cell is not None:
            self._cell.append(text)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("page")
    folders, _files = nights(tmp_path)
    (folders[2] / "g-evil.dgn").write_text(
        sheet([EVIL, "Bob&Co", "Ann"], [(1, (0, 4, 5)), (2, (3, 0, 2))], "2026-11-19"), encoding="utf-8")
    db = str(tmp_path / "lib.sqlite3")
    CliRunner().invoke(main, ["import", *map(str, folders), "--db", db])
    run("players", "merge", "Anne", "Ann", "--db", db)
    return tmp_path, db


def figures(p):
    """A player's row as the page should print it, from `stats --json`."""
    return [p["player"], "{:.1f}".format(p["rating"]), "{:.1f} ± {:.1f}".format(p["mu"], p["sigma"]),
            str(p["games"]), str(p["wins"]), "{:.0f}".format(p["win_percent"]),
            "{:.1f}".format(p["average_total"]), "{:.1f}".format(p["average_round_score"]),
            str(p["best_game"]["total"]), str(p["worst_game"]["total"]), str(p["rounds_won"]),
            str(p["rounds_out"]), str(p["feet_started"])]


@needs_chromium
def test_the_league_page_in_chromium(library):
    tmp_path, db = library
    page = tmp_path / "league.html"
    run("export", "--format", "html", "--league", "-o", str(page), "--db", db)
    dom = browse(page, tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    seen = Tables()
    seen.feed(dom.stdout)
    league = json.loads(run("stats", "--json", "--db", db))
    # the table: every figure as stats --json has it, in its order
    table, grid, nights_table = seen.tables
    assert table[0][:3] == ["player", "rating", "μ ± σ"]
    assert table[1:] == [figures(p) for p in league["players"]]
    assert [r[0] for r in table[1:]].count(EVIL) == 1          # the name is text, whole
    # the head-to-head grid: the row's player ahead of the column's, then behind
    names = [p["player"] for p in league["players"]]
    assert grid[0][1:] == names and [r[0] for r in grid[1:]] == names
    vs = json.loads(run("stats", "--vs", "Ann", "Bob", "--json", "--db", db))
    cell = grid[1 + names.index("Ann")][1 + names.index("Bob")]
    assert cell == "{}–{}".format(*vs["ahead"])
    assert {r[0] for r in nights_table[1:]} == set(names)
    # no element or attribute came from a name; nothing to fetch
    assert "img" not in seen.tags and "script" not in seen.tags and "onerror" not in seen.attrs
    assert "src" not in seen.attrs and "href" not in seen.attrs
    assert "12 finished games counted" not in dom.stdout     # the evil sheet is a 13th
    assert "13 finished games counted; left out: 1 in play, 1 flagged" in dom.stdout

    shot = tmp_path / "league.png"
    drawn = browse(page, tmp_path, "--window-size=1300,2300", "--screenshot={}".format(shot))
    assert drawn.returncode == 0 and shot.is_file(), drawn.stderr[-2000:]
    from PIL import Image
    image = Image.open(shot).convert("RGB")
    assert image.size == (1300, 2300)
    colours = {rgb for _count, rgb in image.getcolors(maxcolors=1 << 21)}
    # the first three players' lines of the chart, in their colours
    for hexa in ("#1f77b4", "#d62728", "#2ca02c"):
        rgb = tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in colours, hexa
    keep = os.environ.get("PIPKEEPER_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


def test_the_league_page_escapes_and_fetches_nothing(library):
    """Without a browser too: the page as text."""
    _tmp_path, db = library
    text = run("export", "--format", "html", "--league", "--db", db)
    assert EVIL not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "Bob&amp;Co" in text and "Bob&Co" not in text
    assert "<script" not in text and "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert text.count("<polyline") == len(json.loads(run("stats", "--json", "--db", db))["players"])


def test_the_league_page_takes_the_filters(library):
    _tmp_path, db = library
    text = run("export", "--league", "--rules", "mexican-train", "--min-games", "2", "--db", db)
    got = json.loads(run("stats", "--json", "--rules", "mexican-train", "--min-games", "2", "--db", db))
    assert "rules: mexican-train" in text
    assert text.count("<polyline") == len(got["players"]) > 0
    result = CliRunner().invoke(main, ["export", "--league", "--format", "csv", "--db", db])
    assert result.exit_code == 1 and "--league is a page: use --format html" in result.stderr


def test_the_games_page_has_a_legend_for_its_marks(library):
    """Issue 32.17: the sheets mark who went out with * (and a corrected
    score with ~), and nothing said what they mean."""
    _tmp_path, db = library
    text = run("export", "--format", "html", "--db", db)
    assert "<b>*</b> went out of that round" in text and "<b>~</b> a score corrected" in text
    assert text.index("legend-marks") < text.index("<section>")


def test_export_filters_choose_the_games(library):
    _tmp_path, db = library
    games = json.loads(run("games", "--json", "--db", db))
    mine = [g["id"] for g in games if any(WHO.get(p) == "Dafydd" for p in g["players"])]
    got = json.loads(run("export", "--format", "json", "--player", "dafydd", "--db", db))
    assert [g["id"] for g in got["games"]] == mine
    rows = run("export", "--format", "csv", "--game", str(mine[0]), "--db", db).splitlines()
    assert {r.split(",")[0] for r in rows[1:]} == {str(mine[0])}
    dated = json.loads(run("export", "--format", "json", "--since", "2026-11-19", "--db", db))
    assert dated["games"] and all(g["date"] >= "2026-11-19" for g in dated["games"])
    html = run("export", "--format", "html", "--until", "2026-11-05", "--rules", "chickenfoot", "--db", db)
    assert html.count("<section>") == len([g for g in games if g["date"] <= "2026-11-05"
                                           and g["rules"] == "chickenfoot" and g["status"] == "ok"])
