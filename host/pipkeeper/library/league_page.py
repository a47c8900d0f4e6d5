"""The league as one HTML page: `pipkeeper export --format html --league`.

The table (`stats`'s columns); each player's rating (the ordinal, μ − 3σ)
game by game as an inline SVG line chart; the head-to-head grid (how often
the row's player finished ahead of the column's); each player's best night
(the date their rating rose most). No script and nothing fetched: the page
reads the same from a file with the network off.
"""

from html import escape

from pipkeeper.library import pages


def to_html(league, min_games=0):
    standings = league.standings(min_games)
    body = ["<h1>League</h1>"]
    chosen = _filters_line(league.filters)
    if chosen:
        body.append("<p class=\"note\">{}</p>".format(escape(chosen)))
    body.append("<section><h2>Table</h2>")
    body.append(pages.standings_table(standings, league.counted()))
    body.append("<p class=\"note\">rating: openskill's Plackett–Luce model over each game's "
                "standing, shown as μ − 3σ; a shared win is a win.</p></section>")
    if standings:
        body.append("<section><h2>Ratings game by game</h2>")
        body.append(_chart(league, standings))
        body.append("</section><section><h2>Head to head</h2>")
        body.append(_grid(league, [s["player"] for s in standings]))
        body.append("</section><section><h2>Best nights</h2>")
        body.append(_nights(league, {s["player"] for s in standings}))
        body.append("</section>")
    return pages.page("pipkeeper: league", body)


def _filters_line(filters):
    f = filters.as_dict()
    said = []
    if f["since"] or f["until"]:
        said.append("from {} to {}".format(f["since"] or "the first game", f["until"] or "the last"))
    if f["rules"]:
        said.append("rules: " + f["rules"])
    if f["event"]:
        said.append("event: " + f["event"])
    if f["players"]:
        said.append("games with " + ", ".join(f["players"]))
    if f["games"]:
        said.append("games " + ", ".join(str(g) for g in f["games"]))
    return "; ".join(said)


def _chart(league, standings, width=720, height=300, pad=44):
    """Each player's ordinal after each league game they played, from 0
    before their first; x is the league's game order, labelled by night."""
    n = len(league.games)
    index = {g["id"]: i + 1 for i, g in enumerate(league.games)}
    series = []
    for s in standings:
        points = []
        for h in s["history"]:
            if not points:
                points.append((index[h["game"]] - 1, 0.0))
            points.append((index[h["game"]], h["ordinal"]))
        series.append((s, points))
    values = [v for _s, pts in series for _x, v in pts] + [0.0]
    top, low = max(values), min(values)
    span = (top - low) or 1.0

    def xy(x, v):
        return "{:.1f},{:.1f}".format(pad + (width - 2 * pad) * x / max(n, 1),
                                      height - pad - (height - 2 * pad) * (v - low) / span)

    out = ['<svg role="img" aria-label="ratings over the games" width="{0}" height="{1}" '
           'viewBox="0 0 {0} {1}" xmlns="http://www.w3.org/2000/svg">'.format(width, height)]
    zero = xy(0, 0.0).split(",")[1]
    out.append('<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#bbb" stroke-dasharray="3 3"/>'.format(
        pad, zero, width - pad))
    out.append('<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#999"/>'.format(pad, pad, height - pad))
    for v in sorted({top, low, 0.0}):
        out.append('<text x="{}" y="{}" font-size="11" text-anchor="end">{:.1f}</text>'.format(
            pad - 4, float(xy(0, v).split(",")[1]) + 4, v))
    nights = []
    for i, g in enumerate(league.games):
        if not nights or nights[-1][1] != g["date"]:
            nights.append((i + 1, g["date"]))
    step = max(1, -(-len(nights) // 8))
    for x, date in nights[::step]:
        px = xy(x, low).split(",")[0]
        out.append('<text x="{}" y="{}" font-size="10" text-anchor="middle">{}</text>'.format(
            px, height - pad + 14, escape(date.isoformat())))
    for i, (s, points) in enumerate(series):
        out.append('<polyline fill="none" stroke="{}" stroke-width="2"{} points="{}"><title>{}: {:.1f}'
                   '</title></polyline>'.format(pages.colour(i), pages.stroke(i),
                                                " ".join(xy(x, v) for x, v in points),
                                                escape(str(s["player"])), s["rating"]))
    out.append("</svg>")
    out.append('<div class="legend">{}</div>'.format("".join(
        '<span style="color:{}">&#9632; {}</span>'.format(pages.colour(i), pages.name(s["player"]))
        for i, (s, _points) in enumerate(series))))
    return "".join(out)


def _grid(league, names):
    """Rows against columns: "3–1" is the row's player ahead in 3 of their
    games together, the column's in 1."""
    pairs = league.grid(names)
    out = ['<div class="wide"><table class="grid"><tr><th></th>{}</tr>'.format("".join(
        "<th>{}</th>".format(pages.name(b)) for b in names))]
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append('<td class="self">—</td>')
                continue
            ahead, behind, together = pairs[(a, b)]
            if not together:
                cells.append("<td>·</td>")
                continue
            about = "{} finished ahead of {} in {} of {} games together, behind in {}".format(
                a, b, ahead, together, behind)
            cells.append('<td title="{}">{}–{}</td>'.format(escape(about), ahead, behind))
        out.append("<tr><th>{}</th>{}</tr>".format(pages.name(a), "".join(cells)))
    out.append('</table></div><p class="note">a cell: how often the row\'s player finished ahead of the '
               'column\'s, then behind, in their games together.</p>')
    return "".join(out)


def _nights(league, shown):
    out = ["<table><tr><th>player</th><th>night</th><th>games</th><th>wins</th><th>rating rise</th></tr>"]
    for night in league.best_nights():
        if night["player"] not in shown:
            continue
        out.append("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.1f}</td></tr>".format(
            pages.name(night["player"]), escape(night["date"]), night["games"], night["wins"],
            night["rise"]))
    out.append("</table>")
    return "".join(out)
