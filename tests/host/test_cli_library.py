"""`games`, `stats` and `show` as people and programs read them: plain,
stable text through a pipe (golden), tables drawn by rich on a terminal,
`--json` with each game's totals and per-round scores; and the transfer
progress bar, drawn only on a terminal."""

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardkit import write_games
from pipkeeper import progress
from pipkeeper.cli import main
from pipkeeper.library.store import Library

DATA = Path(__file__).resolve().parent.parent / "data"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

GAMES = """\
#  game                from   rules              players           rounds  state    winner
1  b1c2-0007           board  chickenfoot-cross  Ann, Bob, Cy      4       over     Ann
2  format_example.dgn  board  chickenfoot        Ann, Bob, Cy, Di  0       in play
3  illegal_turn.dgn    board  chickenfoot        Ann, Bob, Cy, Di          FLAGGED
4  sim-3               board  chickenfoot        P1, P2, P3, P4    10      over     P3
5  sim-4               board  chickenfoot        P1, P2, P3, P4    10      over     P1
"""

STATS = """\
player  rating       μ ± σ  games  wins  win %  avg total  avg round  best  worst  rounds won  went out
P2         3.9  27.9 ± 8.0      2     0      0      259.0       25.9   208    310           6         0
P1         3.3  27.4 ± 8.0      2     1     50      246.5       24.6   157    336           4         2
Ann        3.3  27.9 ± 8.2      1     1    100       26.0        6.5    26     26           2         0
Bob        1.5  25.7 ± 8.1      1     0      0       26.0        6.5    26     26           1         0
P3        -0.9  23.1 ± 8.0      2     1     50      256.0       25.6   249    263           8         1
P4        -2.2  21.4 ± 7.9      2     0      0      317.0       31.7   249    385           4         2
Cy        -2.8  21.4 ± 8.1      1     0      0       67.0       16.8    67     67           1         0
3 finished games counted; left out: 1 in play, 1 flagged
"""


@pytest.fixture
def db(tmp_path):
    """The records of tests/data (one of them rejected) and two simulated games."""
    path = tmp_path / "lib.sqlite3"
    sims = tmp_path / "g"
    sims.mkdir()
    with Library(path) as lib:
        for name in ("paper_sheet_tiebreak.dgn", "format_example.dgn", "illegal_turn.dgn"):
            lib.store("b1", name, (DATA / name).read_bytes())
        for name, data in write_games(sims, 2, seed=3).items():
            lib.store("b2", name, data)
    return str(path)


def run(*args, terminal=False, columns=100):
    # rich's own switch: TTY_COMPATIBLE=1 draws for a terminal through a pipe
    env = {"TTY_COMPATIBLE": "1", "COLUMNS": str(columns)} if terminal else {"TTY_COMPATIBLE": None}
    result = CliRunner().invoke(main, list(args), prog_name="pipkeeper", env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


# -- plain text: what scripts and pipes get ---------------------------------------

def test_games_and_stats_plain_text_is_unchanged(db):
    assert run("games", "--db", db) == GAMES
    assert run("stats", "--db", db) == STATS


def test_show_plain_text_is_the_replay_sheet(db):
    shown = run("show", "1", "--db", db)
    assert shown == run("replay", str(DATA / "paper_sheet_tiebreak.dgn"))
    assert "\x1b" not in shown and "─" not in shown
    assert "total   26    26   67" in shown


def test_plain_columns_are_measured_by_their_width_on_screen(tmp_path):
    """A wide name (two cells a character) keeps the columns straight."""
    path = str(tmp_path / "lib.sqlite3")
    text = (DATA / "paper_sheet_tiebreak.dgn").read_text().replace('"Ann"', '"安娜"')
    with Library(path) as lib:
        lib.store("b1", "wide.dgn", text.encode("utf-8"))
    lines = run("stats", "--db", path).splitlines()
    assert lines[0].startswith("player  rating       μ ± σ  games")
    assert lines[1].startswith("安娜       3.3  27.9 ± 8.2      1")
    assert lines[2].startswith("Bob        1.5  25.7 ± 8.1      1")


# -- a terminal: rich draws ---------------------------------------------------------

def test_games_on_a_terminal_is_a_drawn_table(db):
    out = run("games", "--db", db, terminal=True)
    assert "\x1b[" in out                        # styled
    plain = ANSI.sub("", out)
    assert re.search(r"^─{40,}$", plain, re.M)   # the rule under the header
    assert "FLAGGED" in plain and "\x1b[1;31mFLAGGED" in out
    for g in ("b1c2-0007", "format_example.dgn", "illegal_turn.dgn", "sim-3", "sim-4"):
        assert g in plain


def test_a_narrow_terminal_wraps_names_but_hides_no_column(db):
    plain = ANSI.sub("", run("games", "--db", db, terminal=True, columns=50))
    header = plain.splitlines()[0].split()
    assert header == ["#", "game", "from", "rules", "players", "rounds", "state", "winner"]
    assert "format_example.dgn" in plain         # an id is never cut


def test_stats_on_a_terminal(db):
    plain = ANSI.sub("", run("stats", "--db", db, terminal=True, columns=120))
    lines = [line.rstrip() for line in plain.splitlines()]
    assert lines[0].split() == ["player", "rating", "μ", "±", "σ", "games", "wins", "win", "%", "avg",
                                "total", "avg", "round", "best", "worst", "rounds", "won", "went", "out"]
    assert set(lines[1]) == {"─"}
    assert lines[2].split() == ["P2", "3.9", "27.9", "±", "8.0", "2", "0", "0", "259.0", "25.9", "208",
                                "310", "6", "0"]
    assert lines[-1] == "3 finished games counted; left out: 1 in play, 1 flagged"


def test_show_on_a_terminal_has_the_totals_as_footer_and_marks_who_went_out(db):
    plain = ANSI.sub("", run("show", "4", "--db", db, terminal=True))
    lines = [line.rstrip() for line in plain.splitlines()]
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"─"}]
    assert len(rules) == 2                        # under the header, above the totals
    assert lines[rules[0] - 1].split() == ["round", "P1", "P2", "P3", "P4"]
    assert lines[rules[1] + 1].split() == ["total", "336", "310", "249", "385"]
    assert lines[rules[0] + 6].split() == ["4-4", "11", "0", "*0", "6"]
    assert "* went out" in lines and "winner: P3" in lines


# -- --json: programs ------------------------------------------------------------------

def test_games_json_has_totals_and_round_scores(db):
    games = json.loads(run("games", "--json", "--db", db))
    paper = games[0]
    assert paper["totals"] == [26, 26, 67]
    assert paper["round_scores"] == [
        {"double": 9, "scores": [0, 2, 55], "out": None},
        {"double": 8, "scores": [20, 0, 3], "out": None},
        {"double": 7, "scores": [6, 10, 0], "out": None},
        {"double": 6, "scores": [0, 14, 9], "out": None},
    ]
    assert (games[1]["totals"], games[1]["round_scores"]) == ([0, 0, 0, 0], [])
    assert (games[2]["totals"], games[2]["round_scores"]) == (None, None)   # FLAGGED
    # the keys it had stay, and the totals add up the rounds
    for key in ("id", "game_id", "file", "status", "rules", "players", "rounds", "over", "winners"):
        assert key in paper
    for g in games[3:]:
        assert len(g["round_scores"]) == g["rounds"]
        assert g["totals"] == [sum(r["scores"][s] for r in g["round_scores"]) for s in range(4)]
    assert json.loads(run("games", "--json", "--db", db, terminal=True)) == games


# -- the progress bar ---------------------------------------------------------------------

class Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_draws_bytes_and_label_on_a_terminal(monkeypatch):
    monkeypatch.delenv("PIPKEEPER_PROGRESS", raising=False)
    stream = Tty()
    with progress.Progress(0, "sync", stream=stream) as bar:
        bar.total = 4096
        bar.note("0001.dgn")
        bar.advance(1024)
        bar.advance(3072)
    out = ANSI.sub("", stream.getvalue())
    assert "0001.dgn" in out
    assert "4.0/4.0 KiB" in out


def test_progress_is_silent_through_a_pipe_and_when_told(monkeypatch):
    monkeypatch.delenv("PIPKEEPER_PROGRESS", raising=False)
    piped = io.StringIO()
    with progress.Progress(100, "flash", stream=piped) as bar:
        bar.advance(100)
    assert piped.getvalue() == ""
    monkeypatch.setenv("PIPKEEPER_PROGRESS", "0")
    tty = Tty()
    with progress.Progress(100, "flash", stream=tty) as bar:
        bar.advance(100)
    assert tty.getvalue() == ""
    monkeypatch.setenv("PIPKEEPER_PROGRESS", "1")
    forced = io.StringIO()
    with progress.Progress(100, "flash", stream=forced) as bar:
        bar.advance(100)
    assert "flash" in forced.getvalue()


def test_lines_printed_meanwhile_stay_off_the_bar(monkeypatch, capsys):
    """flash prints a line per file while the bar runs: on the bar's
    terminal above it, each on a line of its own; into a pipe as they are."""
    monkeypatch.delenv("PIPKEEPER_PROGRESS", raising=False)
    stream = Tty()
    with progress.Progress(2048, "flash", stream=stream) as bar:
        bar.note("/main.py")
        bar.advance(1024)
        bar.echo("   1.0 KB  /main.py")
        bar.advance(1024)
    assert capsys.readouterr().out == "   1.0 KB  /main.py\n"     # stdout is a pipe here
    assert "/main.py  " not in ANSI.sub("", stream.getvalue())
    screen = Tty()
    monkeypatch.setattr("sys.stdout", screen)
    with progress.Progress(2048, "flash", stream=screen) as bar:
        bar.advance(1024)
        bar.echo("   1.0 KB  /main.py")
        bar.advance(1024)
    lines = [line.strip() for line in re.split(r"[\r\n]", ANSI.sub("", screen.getvalue()))]
    assert "1.0 KB  /main.py" in lines
    assert re.match(r"flash\s.*2\.0/2\.0 KiB", [x for x in lines if x][-1])


# -- shell completion of a game's number (issue 32.20) -----------------------------------------

def complete(line, db, shell="bash"):
    """What `pipkeeper` answers the shell for the word being typed at the end of `line`."""
    words = line.split(" ")
    env = {"_PIPKEEPER_COMPLETE": "{}_complete".format(shell), "COMP_WORDS": line,
           "COMP_CWORD": str(len(words) - 1), "PIPKEEPER_DB": db}
    result = CliRunner().invoke(main, [], prog_name="pipkeeper", env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_show_forget_and_export_complete_the_games_numbers(db):
    listed = ["plain,{}".format(n) for n in (1, 2, 3, 4, 5)]
    assert complete("pipkeeper show ", db).split() == listed
    assert complete("pipkeeper forget ", db).split() == listed
    assert complete("pipkeeper export --game ", db).split() == listed
    assert complete("pipkeeper show 4", db).split() == ["plain,4"]
    # zsh shows each number's [Game] id and players beside it
    assert complete("pipkeeper show 1", db, shell="zsh").splitlines() == [
        "plain", "1", "b1c2-0007 Ann, Bob, Cy"]
    # no library: nothing offered, nothing said
    assert complete("pipkeeper show ", db + ".missing").strip() == ""


# -- issue 32, item 16: 80 columns, 8 players, long names ------------------------------

LONG = ["Konstantinos", "Maximiliane", "Bartholomew", "Guinevere", "مریم\u200cالسادات", "Anastasia",
        "Christopher", "Wilhelmina"]


@pytest.fixture
def eight(tmp_path):
    """An 8-player game of long names (one Persian) beside the records of
    tests/data: long file names, the longest rules' name."""
    from shared_engine import simulate
    record = simulate.simulate("chickenfoot", 8, seed=5).record()
    players = re.search(r"^\[Players .*\]$", record, re.M).group(0)
    record = record.replace(players, "[Players {}]".format(" ".join('"%s"' % n for n in LONG)))
    path = tmp_path / "lib.sqlite3"
    with Library(path) as lib:
        for name in ("paper_sheet_tiebreak.dgn", "format_example.dgn", "illegal_turn.dgn"):
            lib.store("b1", name, (DATA / name).read_bytes())
        lib.store("b2", "0001.dgn", record.encode("utf-8"))
    return str(path)


def _drawn_lines(out):
    from rich.cells import cell_len
    lines = ANSI.sub("", out).splitlines()
    widest = max(cell_len(line) for line in lines)
    return lines, widest


def test_show_fits_80_columns_with_8_players_and_long_names(eight):
    """The sheet was 105 columns wide: the names that head the columns are
    cut short with an ellipsis (the title line names them whole), the
    scores and totals whole; a Persian name keeps its isolates."""
    from pipkeeper.library.store import Library as Lib
    with Lib(eight, read_only=True) as lib:
        totals = lib.record(4)["report"]["totals"]
    lines, widest = _drawn_lines(run("show", "4", "--db", eight, terminal=True, columns=80))
    assert widest <= 80, "\n".join(lines)
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"─"}]
    header = lines[rules[0] - 1].split()
    assert header[0] == "round" and len(header) == 9, header
    for name, cell in zip(LONG, header[1:]):
        bare = cell.strip("\u2068\u2069")
        assert bare == name or (bare.endswith("\u2026") and name.startswith(bare[:-1]) and len(bare) >= 4), \
            (name, cell)
    assert [int(t) for t in lines[rules[1] + 1].split()[1:]] == totals
    for line in lines:
        assert line.count("\u2068") == line.count("\u2069"), line
    assert any(n in " ".join(lines[:3]) for n in LONG)                  # whole in the title


def test_games_fits_80_columns_with_8_players_and_long_names(eight):
    lines, widest = _drawn_lines(run("games", "--db", eight, terminal=True, columns=80))
    assert widest <= 80, "\n".join(lines)
    text = "\n".join(lines)
    for game in ("b1c2-0007", "format_example.dgn", "illegal_turn.dgn"):
        assert game in text                                          # an id is never cut
    assert "chickenfoot-cross" in text
    assert lines[0].split() == ["#", "game", "from", "rules", "players", "rounds", "state", "winner"]


def test_a_name_cut_short_keeps_its_marks():
    from rich.cells import cell_len
    from pipkeeper.library.tables import abbreviated
    assert abbreviated("Konstantinos", 12) == "Konstantinos"
    assert abbreviated("Konstantinos", 7) == "Konsta\u2026"
    assert abbreviated("Konstantinos,", 7) == "Konst\u2026,"                 # a list's comma stays
    cut = abbreviated("\u2068مریم\u200cالسادات\u2069", 5)
    assert cut == "\u2068مریم\u2026\u2069" and cell_len(cut) == 5         # no joiner left dangling
    assert abbreviated("東京タワー", 5) == "東京\u2026"                      # wide letters: 2 cells each


def test_stats_fits_80_columns_with_8_players_and_long_names(eight):
    """The league's table was 84 columns wide at 80 and wrapped "29.0 ± 8.2"
    over two lines: now its two-word headers take two lines (and the names
    are cut short, or the columns closer, as the other tables fit), and
    every figure stays whole on its line."""
    lines, widest = _drawn_lines(run("stats", "--db", eight, terminal=True, columns=80))
    assert widest <= 80, "\n".join(lines)
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"─"}]
    body = [line for line in lines[rules[0] + 1:] if line.strip()][:8]
    assert len(body) == 8, lines
    for line in body:
        assert re.search(r"\d+\.\d ± \d+\.\d", line), line            # mu ± sigma on one line
    assert "rating" in lines[rules[0] - 1]
    # through a pipe the header is one line, as before
    assert run("stats", "--db", eight).splitlines()[0].split()[:3] == ["player", "rating", "μ"]
