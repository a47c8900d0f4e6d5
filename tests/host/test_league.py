"""The league (issue 34): game nights from several boards, with aliases,
two presets, positive scoring and ties, imported with `pipkeeper import`;
the figures of `pipkeeper stats --json` recomputed here from the records,
by this file's own reading of them (the engine's report for each game's
scores, the rest counted here: who is who, places, wins, averages, best
and worst, rounds won and gone out, head to head, and the ratings through
openskill itself, in date then import order) — never by the league's code.
"""

import json
import os

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from pipkeeper.cli import main
from shared_engine import dgn, simulate
from shared_engine.report import report as engine_report

ZWNJ = "\u200c"
# Who is who, written out by hand: every spelling the nights use, and the
# person it is. "Anne" becomes Ann only by `players merge`.
MARYAM, MARYAM_ARABIC_YEH = "مریم" + ZWNJ + "السادات", "مريم" + ZWNJ + "السادات"
SIAN, SIAN_COMBINING = "Si\u00e2n", "Sia\u0302n"
GWEN, GWEN_COMBINING = "G\u0175en", "Gw\u0302en"
WHO = {"Ann": "Ann", "ANN": "Ann", "ann": "Ann", "Anne": "Ann", "Bob": "Bob", "bob": "Bob",
       "Cy": "Cy", "Dafydd": "Dafydd", SIAN: SIAN, SIAN_COMBINING: SIAN, MARYAM: MARYAM,
       MARYAM_ARABIC_YEH: MARYAM, GWEN: GWEN, GWEN_COMBINING: GWEN, "Gwyn": "Gwyn"}


def run(*args, ok=True):
    result = CliRunner().invoke(main, list(args), prog_name="pipkeeper")
    if ok:
        assert result.exit_code == 0, result.output
    return result


def sheet(players, rounds, date, event=None, game=None, options=()):
    """A chickenfoot game typed by hand: one tile a hand, the leader of
    each round plays it and is out; `rounds` is [(leader, pips per seat)]."""
    doubles = [9 - i for i in range(len(rounds))]
    tags = ['[Rules "chickenfoot"]', "[Players {}]".format(" ".join('"{}"'.format(p) for p in players)),
            '[Option "hand_size" "1"]', '[Option "rounds" "{}"]'.format(" ".join(map(str, doubles)))]
    tags += ['[Option "{}" "{}"]'.format(k, v) for k, v in options]
    tags += ['[Game "{}"]'.format(game)] if game else []
    tags += ['[Date "{}"]'.format(date)] + (['[Event "{}"]'.format(event)] if event else [])
    lines = []
    for d, (lead, pips) in zip(doubles, rounds):
        lines += ["round {0}-{0} lead {1}".format(d, lead), "{} play".format(lead),
                  "score " + " ".join(map(str, pips))]
    return "\n".join(tags + lines) + "\n"


def bots(rules, players, seed, date, options, event=None):
    """A game the engine's bots play (shared_engine/simulate.py), dated."""
    text = simulate.Simulation(rules, players, seed=seed, options=options).run().record()
    head, rest = text.split("\n", 1)
    extra = '[Date "{}"]\n'.format(date) + ('[Event "{}"]\n'.format(event) if event else "")
    return head + "\n" + extra + rest


CF = {"rounds": "9 8 7"}
MT = {"rounds": "12 11"}


def nights(tmp_path):
    """Three nights on two simulated boards and a folder of sheets typed by
    hand. Returns the folders in import order and, per folder, its files
    in the order import takes them (sorted names)."""
    a, b, sheets = tmp_path / "boardA", tmp_path / "boardB", tmp_path / "sheets"
    for folder in (a / "games", b / "games", sheets):
        folder.mkdir(parents=True)
    (a / ".sim-board-id").write_text("00112233445566aa\n")
    (b / ".sim-board-id").write_text("8899aabbccddeeff\n")
    files = {
        a: {
            "0001.dgn": bots("chickenfoot", ["Ann", "Bob", "Cy", MARYAM], 11, "2026-11-05", CF, "Thursday club"),
            "0002.dgn": bots("chickenfoot", ["Dafydd", SIAN, "Ann"], 12, "2026-11-05", CF, "Thursday club"),
            "0003.dgn": bots("chickenfoot", ["Bob", "Cy", "Ann", GWEN, "Dafydd", SIAN, MARYAM, "Gwyn"], 13,
                             "2026-11-12", CF),
            "0004.dgn": bots("chickenfoot", ["Ann", "Bob"], 14, "2026-11-19", CF, "Thursday club"),
            # still in play: never counted
            "0005.dgn": bots("chickenfoot", ["Ann", "Bob", "Cy"], 15, "2026-11-19", CF).split("score")[0]
            .rsplit("\n", 2)[0] + "\n",
        },
        b: {
            "0001.dgn": bots("mexican-train", [SIAN_COMBINING, "bob", GWEN_COMBINING], 21, "2026-11-05", MT),
            "0002.dgn": bots("mexican-train", ["ANN", "Cy", "Dafydd", MARYAM_ARABIC_YEH], 22, "2026-11-12",
                             dict(MT, positive_scoring="yes")),
            "0003.dgn": bots("mexican-train", ["Bob", GWEN, "Cy"], 23, "2026-11-19", MT, "Thursday club"),
        },
        sheets: {
            # a shared win: Ann and Bob level on 4, lowest
            "a-shared.dgn": sheet(["Ann", "Bob", "Cy"], [(1, (0, 4, 6)), (2, (4, 0, 5))], "2026-11-05"),
            # level on 5, the tie-break (most rounds won) makes Ann the winner
            "a-tiebreak.dgn": sheet(["Ann", "Bob", "Cy"], [(1, (0, 3, 4)), (2, (5, 0, 6)), (1, (0, 2, 7))],
                                    "2026-11-05", options=[("tie_break", "most_rounds_won,lowest_nonzero_round")]),
            # level behind the winner: Bob and Cy on 10
            "b-level.dgn": sheet(["Anne", "Bob", "Cy"], [(3, (4, 6, 0)), (1, (0, 4, 10))], "2026-11-12",
                                 "Thursday club"),
            # a game of 2 and one of 8 (every seat out once, all level but one)
            "c-two.dgn": sheet([MARYAM_ARABIC_YEH, "Dafydd"], [(2, (7, 0)), (1, (0, 2))], "2026-11-12"),
            "d-eight.dgn": sheet(["Ann", "Bob", "Cy", "Dafydd", SIAN, GWEN, MARYAM, "Gwyn"],
                                 [(1, (0, 3, 3, 3, 3, 3, 3, 3)), (2, (2, 0, 3, 3, 3, 3, 3, 1))],
                                 "2026-11-19"),
            # the engine rejects it (seat 2 plays out of turn): flagged, never counted
            "e-flagged.dgn": sheet(["Ann", "Bob"], [(1, (0, 4))], "2026-11-19").replace("1 play", "2 play"),
        },
    }
    # the same game reaching the library from two places: counted once
    files[sheets]["f-copy.dgn"] = files[a]["0002.dgn"]
    for folder, named in files.items():
        target = folder / "games" if folder in (a, b) else folder
        for name, text in named.items():
            (target / name).write_text(text, encoding="utf-8")
    return [a, b, sheets], files


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("league")
    folders, files = nights(tmp_path)
    db = str(tmp_path / "lib.sqlite3")
    result = run("import", *map(str, folders), "--db", db, ok=False)
    assert result.exit_code == 0, result.output
    assert "1 flagged" in result.stdout
    run("players", "merge", "Anne", "Ann", "--db", db)
    return db, folders, files


# -- the independent reading -------------------------------------------------------------

def counted_games(folders, files):
    """The finished, accepted, distinct games in league order (date, then
    import order), each with the engine's report: this file's own choice
    of what counts, as the docs state it."""
    out, seen = [], set()
    order = 0
    for folder in folders:
        for name in sorted(files[folder]):
            text = files[folder][name]
            order += 1
            if text in seen:
                continue
            seen.add(text)
            try:
                rep = engine_report(dgn.replay(text))
            except dgn.RecordError:
                continue
            if not rep["over"]:
                continue
            date = [line for line in text.splitlines() if line.startswith("[Date")][0][7:17]
            event = [line[8:-2] for line in text.splitlines() if line.startswith("[Event")]
            out.append({"date": date, "order": order, "rep": rep, "where": (folder, name),
                        "event": event[0] if event else None,
                        "positive": rep["options"]["positive_scoring"] == "yes"})
    return sorted(out, key=lambda g: (g["date"], g["order"]))


def expected(games):
    """Every figure of every player, counted here."""
    model = PlackettLuce()
    ratings, table = {}, {}
    for g in games:
        rep = g["rep"]
        sign = -1 if g["positive"] else 1
        who = [WHO[p] for p in rep["players"]]
        keys = [(sign * t, 0 if s + 1 in rep["winners"] else 1) for s, t in enumerate(rep["totals"])]
        places = [1 + sum(other < k for other in keys) for k in keys]
        g["who"], g["places"] = who, places
        rated = model.rate([[ratings.setdefault(p, model.rating())] for p in who], ranks=places)
        for s, p in enumerate(who):
            ratings[p] = rated[s][0]
            row = table.setdefault(p, {"games": 0, "wins": 0, "shared": 0, "totals": [], "scores": [],
                                       "rounds_won": 0, "out": 0, "best": None, "worst": None})
            row["games"] += 1
            if places[s] == 1:
                row["wins"] += 1
                row["shared"] += places.count(1) > 1
            row["totals"].append(rep["totals"][s])
            for rnd in rep["rounds"]:
                row["scores"].append(rnd["scores"][s])
                best_score = (max if g["positive"] else min)(rnd["scores"])
                row["rounds_won"] += rnd["scores"][s] == best_score
                row["out"] += rnd["out"] == s + 1
            # the best finish on a scale of first (0) to last (1), then the best total
            mine = ((places[s] - 1) / (len(who) - 1), sign * rep["totals"][s])
            if row["best"] is None or mine < row["best"][0]:
                row["best"] = (mine, rep["totals"][s], g["where"])
            if row["worst"] is None or mine > row["worst"][0]:
                row["worst"] = (mine, rep["totals"][s], g["where"])
    for p, row in table.items():
        r = ratings[p]
        row.update(mu=r.mu, sigma=r.sigma, ordinal=r.mu - 3 * r.sigma)
    return table


def close(a, b):
    return abs(a - b) < 1e-3


def check_league(got, games, ids):
    want = expected(games)
    players = {WHO[p["player"]]: p for p in got["players"]}
    assert set(players) == set(want)
    for p, w in want.items():
        g = players[p]
        assert (g["games"], g["wins"], g["shared_wins"]) == (w["games"], w["wins"], w["shared"]), p
        assert close(g["win_percent"], 100.0 * w["wins"] / w["games"])
        assert close(g["average_total"], sum(w["totals"]) / len(w["totals"]))
        assert close(g["average_round_score"], sum(w["scores"]) / len(w["scores"]))
        assert (g["rounds_won"], g["rounds_out"], g["rounds"]) == (w["rounds_won"], w["out"], len(w["scores"])), p
        assert (g["best_game"]["total"], g["best_game"]["game"]) == (w["best"][1], ids[w["best"][2]]), p
        assert (g["worst_game"]["total"], g["worst_game"]["game"]) == (w["worst"][1], ids[w["worst"][2]]), p
        assert close(g["mu"], w["mu"]) and close(g["sigma"], w["sigma"]) and close(g["rating"], w["ordinal"]), p
        assert len(g["history"]) == w["games"]
    ranked = [WHO[p["player"]] for p in got["players"]]
    assert ranked == sorted(want, key=lambda p: (-round(want[p]["ordinal"], 4), -want[p]["games"], p))
    assert [g["game"] for g in got["games"]] == [ids[g["where"]] for g in games]


def where_ids(db, folders):
    """(folder, file) -> the library's game number, from `games --json`."""
    keys = {folders[0]: "sim-00112233445566aa", folders[1]: "sim-8899aabbccddeeff",
            folders[2]: "file:" + os.path.abspath(folders[2])}
    by_key = {(g["board"], g["file"]): g["id"] for g in json.loads(run("games", "--json", "--db", db).stdout)}
    return {(folder, name): rid for folder in folders for (board, name), rid in by_key.items()
            if board == keys[folder]}


# -- the tests ---------------------------------------------------------------------------

def test_the_league_is_what_the_records_say(league):
    db, folders, files = league
    got = json.loads(run("stats", "--json", "--db", db).stdout)
    games = counted_games(folders, files)
    assert len(games) == 12
    check_league(got, games, where_ids(db, folders))
    # what was left out, and why
    assert got["left_out"] == {"in_play": 1, "flagged": 1, "no_rounds": 0, "filtered": 0, "unrated": []}
    assert got["model"]["name"] == "Plackett-Luce" and got["model"]["mu"] == 25.0
    # the fixed points the nights were typed for: a shared win, level places
    shared = [g for g in got["games"] if sorted(g["places"]) == [1, 1, 3]]
    assert len(shared) == 1 and shared[0]["winners"] == ["Ann", "Bob"]
    broken = [g for g in got["games"] if g["totals"] == [5, 5, 17]]
    assert broken[0]["places"] == [1, 2, 3] and broken[0]["winners"] == ["Ann"]
    level = [g for g in got["games"] if g["totals"] == [4, 10, 10]]
    assert level[0]["places"] == [1, 2, 2] and level[0]["players"][0] == "Ann"      # "Anne", merged
    positive = [g for g in games if g["positive"]][0]
    mine = [g for g in got["games"] if g["game"] == where_ids(db, folders)[positive["where"]]][0]
    assert mine["places"][mine["totals"].index(max(mine["totals"]))] == 1         # highest first


def test_filters_make_another_league(league):
    db, folders, files = league
    ids = where_ids(db, folders)
    games = counted_games(folders, files)
    for args, keep in (
            (["--rules", "mexican-train"], lambda g: g["rep"]["rules"] == "mexican-train"),
            (["--since", "2026-11-12", "--until", "2026-11-12"], lambda g: g["date"] == "2026-11-12"),
            (["--event", "thursday CLUB"], lambda g: g["event"] == "Thursday club"),
            (["--player", "G\u0174EN"], lambda g: GWEN in [WHO[p] for p in g["rep"]["players"]])):
        got = json.loads(run("stats", "--json", "--db", db, *args).stdout)
        chosen = [g for g in games if keep(g)]
        assert 0 < len(chosen) < len(games), args
        check_league(got, chosen, ids)
        assert got["left_out"]["filtered"] > 0
    got = json.loads(run("stats", "--json", "--db", db, "--min-games", "6").stdout)
    want = expected(counted_games(folders, files))
    assert {WHO[p["player"]] for p in got["players"]} == {p for p, w in want.items() if w["games"] >= 6}


def test_head_to_head(league):
    db, folders, files = league
    games = counted_games(folders, files)
    expected(games)
    both = [g for g in games if "Ann" in g["who"] and "Bob" in g["who"]]
    ahead = sum(g["places"][g["who"].index("Ann")] < g["places"][g["who"].index("Bob")] for g in both)
    behind = sum(g["places"][g["who"].index("Bob")] < g["places"][g["who"].index("Ann")] for g in both)
    margin = sum((-1 if g["positive"] else 1) * (g["rep"]["totals"][g["who"].index("Bob")]
                                                 - g["rep"]["totals"][g["who"].index("Ann")]) for g in both)
    got = json.loads(run("stats", "--vs", "anne", "BOB", "--json", "--db", db).stdout)
    assert (got["games"], got["ahead"], got["level"]) == (len(both), [ahead, behind], len(both) - ahead - behind)
    assert close(got["margin"], margin / len(both))
    text = run("stats", "--vs", "Ann", "Bob", "--db", db).stdout.splitlines()
    assert text[0] == "Ann vs Bob: {} games together".format(len(both))
    assert text[1] == "Ann finished ahead in {}, Bob in {}, level in {}".format(
        ahead, behind, len(both) - ahead - behind)
    result = run("stats", "--vs", "Ann", "Zed", "--db", db, ok=False)
    assert result.exit_code == 1 and result.stderr.startswith("pipkeeper: no player 'Zed'")


def test_csv_and_the_table_say_the_same(league):
    db, _folders, _files = league
    got = json.loads(run("stats", "--json", "--db", db).stdout)
    rows = run("stats", "--csv", "--db", db).stdout.splitlines()
    assert rows[0].startswith("player,rating,mu,sigma,games,wins,shared_wins,win_percent")
    assert [r.split(",")[0] for r in rows[1:]] == [p["player"] for p in got["players"]]
    table = run("stats", "--db", db).stdout.splitlines()
    assert table[0].split()[:3] == ["player", "rating", "μ"]
    assert table[-1] == "12 finished games counted; left out: 1 in play, 1 flagged"
    assert [line.split()[0] for line in table[1:-1]][:3] == [p["player"] for p in got["players"]][:3]


def test_a_game_in_play_is_not_counted(tmp_path):
    """Issue 32.17: `stats` counted games still in progress."""
    db = str(tmp_path / "lib.sqlite3")
    (tmp_path / "g").mkdir()
    over = sheet(["Ann", "Bob"], [(1, (0, 4)), (2, (3, 0))], "2026-11-05")
    (tmp_path / "g" / "over.dgn").write_text(over)
    (tmp_path / "g" / "open.dgn").write_text(over.replace("score 3 0\n", ""))
    run("import", str(tmp_path / "g"), "--db", db)
    got = json.loads(run("stats", "--json", "--db", db).stdout)
    assert [p["games"] for p in got["players"]] == [1, 1]
    assert got["left_out"]["in_play"] == 1


def test_a_game_where_one_player_holds_two_seats_is_named_not_rated(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "twice.dgn").write_text(sheet(["Ann", "ANN", "Bob"], [(1, (0, 4, 5))], "2026-11-05"))
    run("import", str(tmp_path / "g"), "--db", db)
    got = json.loads(run("stats", "--json", "--db", db).stdout)
    assert got["players"] == [] and got["left_out"]["unrated"] == [{"game": 1, "reason": "Ann holds two seats"}]
    assert run("stats", "--db", db).stdout == ("no finished game to rank: 0 finished games counted; "
                                               "left out: game 1 (Ann holds two seats)\n")


def test_games_of_two_and_of_eight_move_the_rating_as_the_docs_say():
    """docs/PRODUCT.md quotes these: newcomers' μ and σ after a game of 2
    and one of 8 (each place its own), from μ 25, σ 25/3; a level game of
    2 moves nobody."""
    model = PlackettLuce()
    two = model.rate([[model.rating()] for _ in range(2)], ranks=[1, 2])
    eight = model.rate([[model.rating()] for _ in range(8)], ranks=list(range(1, 9)))
    assert round(two[0][0].mu - 25, 1) == 2.6 and round(two[1][0].mu - 25, 1) == -2.6
    assert round(two[0][0].sigma, 2) == round(two[1][0].sigma, 2) == 8.07
    assert [round(r[0].mu - 25, 1) for r in eight] == [2.3, 1.9, 1.5, 1.0, 0.3, -0.6, -1.9, -4.5]
    assert round(eight[0][0].sigma, 2) == 8.32 and round(eight[7][0].sigma, 2) == 8.18
    level = model.rate([[model.rating()] for _ in range(2)], ranks=[1, 1])
    assert [round(r[0].mu, 6) for r in level] == [25.0, 25.0]
