"""The library as CSV, JSON or one self-contained HTML page.

CSV is one row per player per scored round (what a spreadsheet pivots on),
a corrected score (a `fix` line) with the original beside it; JSON is every
game's report (a corrected round's `corrected` seats and `original`
scores, FORMAT.md) plus its record text and the player statistics;
HTML is for people: the statistics, then each game's score sheet with its
score-progression chart drawn as inline SVG (no scripts, no downloads).
Every name in the HTML comes from a board or a person, so every piece of
text goes through `html.escape`; nothing is inserted raw.
"""

import csv
import io
import json
from html import escape

from pipkeeper.errors import PipkeeperError
from pipkeeper.library import pages

FORMATS = ("csv", "json", "html")


def export(library, fmt, filters=None, league=False, min_games=0):
    """The export as text: the games ``filters`` takes (all by default);
    ``league``: the league page instead (HTML only)."""
    from pipkeeper.library.league import Filters, League, chosen
    filters = filters or Filters()
    if league:
        if fmt != "html":
            raise PipkeeperError("--league is a page: use --format html (`pipkeeper stats --json` "
                                 "or --csv has the league's figures)")
        from pipkeeper.library.league_page import to_html as league_html
        return league_html(League.of(library, filters), min_games)
    ids = set(chosen(library, filters))
    if fmt == "csv":
        return to_csv(library, ids)
    if fmt == "json":
        return to_json(library, ids, League.of(library, filters))
    if fmt == "html":
        return to_html(library, ids, League.of(library, filters))
    raise PipkeeperError("unknown format {!r} (choose {})".format(fmt, ", ".join(FORMATS)))


def to_csv(library, ids=None):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["game", "game_id", "date", "rules", "round", "double", "seat", "player",
                "score", "total", "went_out", "won_game", "corrected", "original_score"])
    for g, rep in _only(library.reports(), ids):
        totals = [0] * len(rep["players"])
        for n, rnd in enumerate(rep["rounds"], 1):
            for s, name in enumerate(rep["players"]):
                totals[s] += rnd["scores"][s]
                w.writerow([g["id"], g["game_id"] or "", g["date"] or "", rep["rules"], n,
                            rnd["double"], s + 1, csv_safe(name), rnd["scores"][s], totals[s],
                            1 if rnd.get("out") == s + 1 else 0,
                            1 if rep["over"] and (s + 1) in rep["winners"] else 0]
                           + _original(rnd, s))
    return out.getvalue()


def _original(rnd, s):
    """[corrected, original_score] of seat s's cell: 1 and the score line's
    score where a `fix` corrected the seat; 0 and the original where the
    correction of another seat changed this one's (positive scoring's
    share); 0 and blank otherwise."""
    seat_fixed = (s + 1) in (rnd.get("corrected") or ())
    original = rnd.get("original")
    was = original["scores"][s] if original else None
    if seat_fixed:
        return [1, was]
    if was is not None and was != rnd["scores"][s]:
        return [0, was]
    return [0, ""]


def csv_safe(text):
    """Keep a spreadsheet from reading a player's name as a formula."""
    text = str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _only(games, ids):
    """The games (dicts, or (dict, report) pairs) whose number is in ``ids``
    (all when None)."""
    if ids is None:
        return games
    return [g for g in games if (g[0] if isinstance(g, tuple) else g)["id"] in ids]


def to_json(library, ids=None, league=None):
    games = []
    for g in _only(library.games(), ids):
        rec = library.record(g["id"])
        item = dict(g)
        item["report"] = rec["report"]
        item["dgn"] = rec["dgn"].decode("utf-8", "replace")
        games.append(item)
    league = league or _league(library)
    return json.dumps({"games": games, "players": league.standings(), "counted": league.counted()},
                      ensure_ascii=False, indent=1) + "\n"


def _league(library):
    from pipkeeper.library.league import League
    return League.of(library)


# -- HTML -----------------------------------------------------------------------

# What the marks of a score sheet mean, under the first sheet.
LEGEND = ("<p class=\"note legend-marks\"><b>*</b> went out of that round (scored 0); "
          "<b>~</b> a score corrected by a <code>fix</code> line (the original on hover).</p>")


def to_html(library, ids=None, league=None):
    league = league or _league(library)
    parts = ["<h1>Games</h1>", "<h2>Players</h2>", pages.standings_table(league.standings(), league.counted())]
    reports = _only(library.reports(), ids)
    flagged = [g for g in _only(library.games(), ids) if g["status"] == "rejected"]
    if reports:
        parts.append(LEGEND)
    for g, rep in reports:
        parts.append(_game_section(g, rep))
    if flagged:
        parts.append("<h2>Flagged records</h2><ul>")
        for g in flagged:
            parts.append("<li class=\"flag\">#{} {}: {}</li>".format(
                g["id"], escape(g["game_id"] or g["file"]), escape(g["error"] or "")))
        parts.append("</ul>")
    if not reports and not flagged:
        parts.append("<p>No games yet.</p>")
    return pages.page("pipkeeper: games", parts)


def _game_section(g, rep):
    names = [pages.name(p) for p in rep["players"]]
    title = "#{} {} — {}".format(g["id"], escape(rep["rules"]), ", ".join(names))
    about = [escape(x) for x in (g["event"], g["date"], g["game_id"]) if x]
    out = ["<section><h2>{}</h2>".format(title)]
    if about:
        out.append("<p>{}</p>".format(" · ".join(about)))
    out.append("<table><tr><th>round</th>{}</tr>".format("".join("<th>{}</th>".format(n) for n in names)))
    for rnd in rep["rounds"]:
        cells = []
        for s, score in enumerate(rnd["scores"]):
            corrected, was = _original(rnd, s)
            if rnd.get("out") == s + 1:
                cells.append("<td class=\"out\">{}*</td>".format(int(score)))
            elif corrected:
                # the original on hover; the mark says there is one
                cells.append("<td class=\"fixed\" title=\"corrected; was {}\">{}</td>".format(
                    int(was), int(score)))
            else:
                cells.append("<td>{}</td>".format(int(score)))
        out.append("<tr><td>{0}-{0}</td>{1}</tr>".format(int(rnd["double"]), "".join(cells)))
    out.append("<tr><th>total</th>{}</tr></table>".format(
        "".join("<th>{}</th>".format(int(t)) for t in rep["totals"])))
    if rep["over"] and rep["winners"]:
        won = ", ".join(names[s - 1] for s in rep["winners"] if 1 <= s <= len(names))
        how = " ({})".format(escape(rep["tie_break"])) if rep.get("tie_break") else ""
        out.append("<p>Winner: {}{}</p>".format(won, how))
    elif not rep["over"]:
        out.append("<p>In play.</p>")
    out.append(_chart(rep, names, [escape(str(p)) for p in rep["players"]]))
    out.append("</section>")
    return "".join(out)


def _chart(rep, names, titles, width=560, height=220, pad=36):
    """Running totals per player after each round, as an SVG line chart
    (``titles``: the names as plain text, for the lines' tooltips)."""
    rounds = rep["rounds"]
    if not rounds:
        return ""
    n = len(names)
    series = [[0] for _ in range(n)]
    for rnd in rounds:
        for s in range(n):
            series[s].append(series[s][-1] + rnd["scores"][s])
    top = max(max(v) for v in series) or 1
    low = min(0, min(min(v) for v in series))
    span = (top - low) or 1
    steps = len(rounds)

    def xy(i, v):
        x = pad + (width - 2 * pad) * i / steps
        y = height - pad - (height - 2 * pad) * (v - low) / span
        return "{:.1f},{:.1f}".format(x, y)

    out = ['<svg role="img" aria-label="score progression" width="{0}" height="{1}" '
           'viewBox="0 0 {0} {1}" xmlns="http://www.w3.org/2000/svg">'.format(width, height)]
    out.append('<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#999"/>'.format(
        pad, height - pad, width - pad))
    out.append('<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#999"/>'.format(pad, pad, height - pad))
    out.append('<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>'.format(pad - 4, pad + 4, top))
    out.append('<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>'.format(
        pad - 4, height - pad + 4, low))
    for i, rnd in enumerate(rounds, 1):
        x, _ = xy(i, low).split(",")
        out.append('<text x="{}" y="{}" font-size="10" text-anchor="middle">{}</text>'.format(
            x, height - pad + 14, int(rnd["double"])))
    for s in range(n):
        colour = pages.colour(s)
        points = " ".join(xy(i, v) for i, v in enumerate(series[s]))
        out.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title></polyline>'
                   .format(colour, points, titles[s]))
    out.append("</svg>")
    legend = "".join('<span style="color:{}">&#9632; {}</span>'.format(pages.colour(s), names[s])
                     for s in range(n))
    out.append('<div class="legend">{}</div>'.format(legend))
    return "".join(out)
