"""The league: every player's record over the library's finished games, and
a rating from them.

What counts (docs/PRODUCT.md, "The league"):

- a game the engine accepts and that is over (its last round scored, or
  stopped with `end` after a scored round). A game still in play, a record
  the engine rejects (FLAGGED), and a game stopped before any round was
  scored are left out and counted as such; duplicates are never listed. A
  game in which two seats are one player (after `players merge`, or two
  seats written alike) is left out of the league and named;
- the players as `players.Players` resolves their names (aliases joined);
- the games in order: by date (the record's [Date], else the day the
  library first had it), then by the order the library took them in
  (first synced, then its number). The rating is a history, so its order
  matters and is the same on every run.

A player's best game is their best finish (first 0, last 1, whatever the
table's size: a win over 2 and a win over 8 are both first), among equal
finishes the best total (lowest; highest under positive scoring); the
worst game the other way round. The first such game counts on a tie.

The standing of a game: lowest total first (highest under the
`positive_scoring` house rule); among equal totals the game's winners (the
tie-break decided) ahead of the others, who stay level. A shared win is
a win for each.

The rating: openskill's Plackett–Luce model over each game's standing,
ties allowed, from μ = 25, σ = 25/3; shown as the ordinal μ − 3σ, the
skill the model is fairly sure a player has (a newcomer starts at 0).
"""

import datetime
import re

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.players import Players

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DIGITS = 4   # the JSON's floats: enough to recompute, short enough to read


class Filters:
    """Which games a league (or an export) takes: dates inclusive
    (datetime.date), a preset, an [Event] (compared as names are), players
    (each must have sat at the game), game numbers."""

    def __init__(self, since=None, until=None, rules=None, event=None, players=(), games=()):
        self.since = since
        self.until = until
        self.rules = rules
        self.event = event
        self.players = tuple(players or ())
        self.games = tuple(games or ())

    def as_dict(self):
        return {"since": self.since.isoformat() if self.since else None,
                "until": self.until.isoformat() if self.until else None,
                "rules": self.rules, "event": self.event, "players": list(self.players),
                "games": list(self.games)}


def game_date(row):
    """A record's date for the league: its [Date] tag when that is a date
    (YYYY-MM-DD), else the day the library first had it (local time)."""
    text = row.get("date")
    if text and _DATE.match(text):
        try:
            return datetime.date.fromisoformat(text)
        except ValueError:
            pass
    return datetime.date.fromtimestamp(row["first_synced"])


def positive(report):
    return (report.get("options") or {}).get("positive_scoring") == "yes"


def standing(report):
    """Each seat's place (1 = first, equal places level): lowest total
    first (highest under positive scoring), the winners ahead of the
    others they are level with."""
    sign = -1 if positive(report) else 1
    winners = set(report["winners"] or ())
    keys = [(sign * t, 0 if s + 1 in winners else 1) for s, t in enumerate(report["totals"])]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def _chooser(filters, players):
    """A test of one `Library.played()` row: does ``filters`` take it?"""
    wanted = [players.find(p) for p in filters.players]
    event = fold_event(filters.event)

    def takes(row):
        rep = row["report"]
        date = game_date(row)
        if filters.games and row["id"] not in filters.games:
            return False
        if (filters.since and date < filters.since) or (filters.until and date > filters.until):
            return False
        if filters.rules and (rep or {}).get("rules") != filters.rules:
            return False
        if event is not None and fold_event(row["event"]) != event:
            return False
        if wanted:
            who = [players.player(n) for n in (rep or {}).get("players") or ()]
            return all(w in who for w in wanted)
        return True

    return takes


def chosen(library, filters):
    """The numbers of the listed games (any state) ``filters`` takes: what
    an export holds."""
    takes = _chooser(filters, Players.of(library))
    return [row["id"] for row in library.played() if takes(row)]


def select(library, filters, players=None):
    """(games, left_out, players): the finished games the filters take, in
    league order, as dicts; what was left out and why; the Players."""
    players = players or Players.of(library)
    left = {"in_play": 0, "flagged": 0, "no_rounds": 0, "filtered": 0, "unrated": []}
    takes = _chooser(filters, players)
    games = []
    for row in library.played():
        rep = row["report"]
        if not takes(row):
            left["filtered"] += 1
            continue
        if rep is None:
            left["flagged"] += 1
            continue
        if not rep["over"]:
            left["in_play"] += 1
            continue
        if not rep["rounds"]:
            left["no_rounds"] += 1
            continue
        who = [players.player(n) for n in rep["players"]]
        if len(set(who)) != len(who):
            twice = sorted({players.name(p) for p in who if who.count(p) > 1})
            left["unrated"].append({"game": row["id"], "reason": "{} holds two seats".format(
                ", ".join(twice))})
            continue
        date = game_date(row)
        games.append({"id": row["id"], "date": date, "event": row["event"], "rules": rep["rules"],
                      "positive": positive(rep), "players": who,
                      "names": [players.name(p) for p in who], "written": list(rep["players"]),
                      "totals": list(rep["totals"]), "winners": list(rep["winners"]),
                      "rounds": rep["rounds"], "places": standing(rep), "feet": row["feet"],
                      "order": (date, row["first_synced"], row["id"])})
    games.sort(key=lambda g: g["order"])
    return games, left, players


def fold_event(text):
    from pipkeeper.library.names import fold
    return None if text is None else fold(text)


def _model():
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:  # pragma: no cover (a dependency of pipkeeper)
        raise PipkeeperError("the league's ratings need the openskill package ({})".format(exc))
    return PlackettLuce()


def model_version():
    try:
        from importlib.metadata import version
        return version("openskill")
    except Exception:  # pragma: no cover
        return None


class League:
    """The league over `games` (from `select`): per player figures and
    rating history, head-to-head, nights."""

    def __init__(self, games, left_out, players, filters=None):
        self.games = games
        self.left_out = left_out
        self.players = players
        self.filters = filters or Filters()
        self.rows = {}
        self._rate()

    @classmethod
    def of(cls, library, filters=None):
        filters = filters or Filters()
        games, left, players = select(library, filters)
        return cls(games, left, players, filters)

    def _row(self, player):
        if player not in self.rows:
            self.rows[player] = {
                "player": self.players.name(player), "games": 0, "wins": 0, "shared_wins": 0,
                "rounds": 0, "points": 0, "total_sum": 0, "rounds_won": 0, "rounds_out": 0,
                "feet_started": 0, "best": None, "worst": None, "history": []}
        return self.rows[player]

    def _rate(self):
        model = _model()
        ratings = {}
        for g in self.games:
            sign = -1 if g["positive"] else 1
            teams = []
            for s, p in enumerate(g["players"]):
                if p not in ratings:
                    ratings[p] = model.rating(name=p)
                teams.append([ratings[p]])
            rated = model.rate(teams, ranks=list(g["places"]))
            shared = len(g["winners"]) > 1
            for s, p in enumerate(g["players"]):
                r = rated[s][0]
                ratings[p] = r
                row = self._row(p)
                row["games"] += 1
                if s + 1 in g["winners"]:
                    row["wins"] += 1
                    row["shared_wins"] += 1 if shared else 0
                total = g["totals"][s]
                row["total_sum"] += total
                for rnd in g["rounds"]:
                    row["rounds"] += 1
                    row["points"] += rnd["scores"][s]
                    row["rounds_won"] += 1 if s + 1 in (rnd.get("winners") or ()) else 0
                    row["rounds_out"] += 1 if rnd.get("out") == s + 1 else 0
                row["feet_started"] += g["feet"][s] if s < len(g["feet"]) else 0
                mark = {"game": g["id"], "total": total, "date": g["date"].isoformat(),
                        "place": g["places"][s], "players": len(g["players"])}
                # best: the best finish (first 0, last 1, whatever the
                # table's size), then the best total; worst the other way
                finish = ((g["places"][s] - 1) / (len(g["players"]) - 1), sign * total)
                if row["best"] is None or finish < row["best"][0]:
                    row["best"] = (finish, mark)
                if row["worst"] is None or finish > row["worst"][0]:
                    row["worst"] = (finish, mark)
                row["history"].append({"game": g["id"], "date": g["date"].isoformat(),
                                       "place": g["places"][s], "ordinal": _r(r.ordinal()),
                                       "mu": _r(r.mu), "sigma": _r(r.sigma)})

    # -- what the commands print ---------------------------------------------------------
    def standings(self, min_games=0):
        """One dict per player with at least ``min_games`` games, by rating
        (the ordinal, highest first; then more games, then the name)."""
        out = []
        for p, row in self.rows.items():
            if row["games"] < min_games:
                continue
            last = row["history"][-1]
            out.append({
                "player": row["player"],
                "rating": last["ordinal"], "mu": last["mu"], "sigma": last["sigma"],
                "games": row["games"], "wins": row["wins"], "shared_wins": row["shared_wins"],
                "win_percent": _r(100.0 * row["wins"] / row["games"]),
                "average_total": _r(row["total_sum"] / row["games"]),
                "average_round_score": _r(row["points"] / row["rounds"]) if row["rounds"] else None,
                "rounds": row["rounds"],
                "best_game": row["best"][1], "worst_game": row["worst"][1],
                "rounds_won": row["rounds_won"], "rounds_out": row["rounds_out"],
                "feet_started": row["feet_started"],
                "history": list(row["history"]),
            })
        out.sort(key=lambda r: (-r["rating"], -r["games"], r["player"]))
        return out

    def games_played(self):
        return [{"game": g["id"], "date": g["date"].isoformat(), "event": g["event"], "rules": g["rules"],
                 "players": g["names"], "totals": g["totals"], "places": g["places"],
                 "winners": [g["names"][s - 1] for s in g["winners"]]} for g in self.games]

    def head_to_head(self, a, b):
        """A's and B's games together: how often each finished ahead, and
        by how many points a game on average (a positive `margin`: A ahead)."""
        pa, pb = self.players.find(a), self.players.find(b)
        if pa == pb:
            raise PipkeeperError("{} and {} are one player".format(a, b))
        return self._pair(pa, pb)

    def _pair(self, pa, pb):
        together = ahead = behind = 0
        margin = 0
        games = []
        for g in self.games:
            if pa not in g["players"] or pb not in g["players"]:
                continue
            sa, sb = g["players"].index(pa), g["players"].index(pb)
            sign = -1 if g["positive"] else 1
            together += 1
            ahead += g["places"][sa] < g["places"][sb]
            behind += g["places"][sb] < g["places"][sa]
            margin += sign * (g["totals"][sb] - g["totals"][sa])
            games.append({"game": g["id"], "date": g["date"].isoformat(),
                          "totals": [g["totals"][sa], g["totals"][sb]],
                          "places": [g["places"][sa], g["places"][sb]]})
        return {"players": [self.players.name(pa), self.players.name(pb)], "games": together,
                "ahead": [ahead, behind], "level": together - ahead - behind,
                "margin": _r(margin / together) if together else None, "per_game": games}

    def grid(self, players):
        """{(A, B): (A ahead, B ahead, games)} for every pair of the rows' players."""
        keys = {self.rows[p]["player"]: p for p in self.rows}
        out = {}
        for a in players:
            for b in players:
                if a != b:
                    pair = self._pair(keys[a], keys[b])
                    out[(a, b)] = (pair["ahead"][0], pair["ahead"][1], pair["games"])
        return out

    def best_nights(self):
        """Per player, the night (a date) their rating rose most: the rise
        of the ordinal over that night's games, the games and the wins."""
        out = []
        for p, row in self.rows.items():
            nights = {}
            before = 0.0
            for h in row["history"]:
                night = nights.setdefault(h["date"], {"start": before, "games": 0, "wins": 0})
                night["games"] += 1
                night["wins"] += h["place"] == 1
                night["end"] = h["ordinal"]
                before = h["ordinal"]
            date, best = max(nights.items(), key=lambda kv: (kv[1]["end"] - kv[1]["start"], kv[0]))
            out.append({"player": row["player"], "date": date, "games": best["games"],
                        "wins": best["wins"], "rise": _r(best["end"] - best["start"])})
        out.sort(key=lambda n: (-n["rise"], n["player"]))
        return out

    def empty(self):
        """Whether the library had no game at all for the league to look at."""
        left = self.left_out
        return not (self.games or left["in_play"] or left["flagged"] or left["no_rounds"]
                    or left["unrated"] or left["filtered"])

    def counted(self):
        """What the league counted and what it left out, in one line."""
        left = self.left_out
        n = len(self.games)
        said = ["{} {}".format(count, what) for count, what in (
            (left["in_play"], "in play"), (left["flagged"], "flagged"),
            (left["no_rounds"], "stopped before a scored round")) if count]
        said += ["game {} ({})".format(u["game"], u["reason"]) for u in left["unrated"]]
        line = "{} finished game{} counted".format(n, "" if n == 1 else "s")
        if said:
            line += "; left out: " + ", ".join(said)
        if left["filtered"]:
            line += "; {} not chosen".format(left["filtered"])
        return line

    def as_dict(self, min_games=0):
        return {"filters": self.filters.as_dict(), "min_games": min_games,
                "model": {"name": "Plackett-Luce", "package": "openskill", "version": model_version(),
                          "rating": "ordinal = mu - 3 sigma", "mu": 25.0, "sigma": _r(25.0 / 3)},
                "players": self.standings(min_games), "games": self.games_played(),
                "left_out": self.left_out}


# The league's table, in the terminal and in the HTML page: (key, header).
# Narrow enough for 80 columns with names of up to 8 letters: μ and σ share
# a column, the win % is whole.
TABLE = (("player", "player"), ("rating", "rating"), ("mu_sigma", "μ ± σ"),
         ("games", "games"), ("wins", "wins"), ("win_percent", "win %"),
         ("average_total", "avg total"), ("average_round_score", "avg round"),
         ("best", "best"), ("worst", "worst"), ("rounds_won", "rounds won"),
         ("rounds_out", "went out"))


def cell(row, key):
    """A standings row's figure as the table shows it: one decimal for a
    float (the win % whole), the total of the best and worst game."""
    if key in ("best", "worst"):
        return str(row[key + "_game"]["total"])
    if key == "mu_sigma":
        return "{:.1f} ± {:.1f}".format(row["mu"], row["sigma"])
    value = row[key]
    if value is None:
        return ""
    if key == "win_percent":
        return "{:.0f}".format(value)
    return "{:.1f}".format(value) if isinstance(value, float) else str(value)


def _r(x):
    return round(float(x), DIGITS)
