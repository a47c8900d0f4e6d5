"""What the library's two HTML pages share (the games, `export --format
html`, and the league, `--league`): the page around them, its style, the
players' colours and names, the league's table.

Every name comes from a board or a person, so every piece of text goes
through `html.escape`; nothing is inserted raw. The pages are whole in
one file: no script, no font, no style sheet fetched from anywhere.
"""

from html import escape

from pipkeeper.library.league import TABLE, cell

# Line colours for up to 12 players (then again, dashed: `stroke`).
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22", "#393b79", "#637939")

STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:75em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{padding:.2em .7em;text-align:right;border-bottom:1px solid #ddd}
td:first-child,th:first-child{text-align:left}.out{font-weight:bold}.flag{color:#b00}
.fixed{text-decoration:underline dotted;cursor:help}.fixed::after{content:"~"}
section{margin-bottom:2.5em}svg{background:#fafafa;border:1px solid #eee}.legend span{margin-right:1em}
.note{color:#555;font-size:.9em}.grid td{text-align:center}.grid th{text-align:center}.self{color:#bbb}
.league td,.grid td{white-space:nowrap}.wide{overflow-x:auto}"""


def page(title, body):
    """The whole page: ``body`` is a list of HTML pieces already escaped."""
    return "".join(["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
                    "<title>{}</title><style>".format(escape(title)), STYLE, "</style></head><body>"]
                   + body + ["</body></html>\n"])


def name(player):
    """A player's name in the page: escaped, and isolated (``<bdi>``) so that
    a name written right to left (Persian) keeps its own order and leaves
    the sentence around it alone."""
    return "<bdi>{}</bdi>".format(escape(str(player)))


def colour(i):
    return COLOURS[i % len(COLOURS)]


def stroke(i):
    """The dash pattern of the i-th player's line: solid for the first 12."""
    return "" if i < len(COLOURS) else ' stroke-dasharray="6 3"'


def standings_table(standings, counted):
    """The league's table (the terminal's columns, and the chicken feet
    started), and the line saying what it counted."""
    if not standings:
        return "<p class=\"note\">{}</p>".format(escape(counted))
    heads = [label for _key, label in TABLE] + ["chicken feet started"]
    rows = ["<div class=\"wide\"><table class=\"league\"><tr>{}</tr>".format("".join(
        "<th>{}</th>".format(escape(h)) for h in heads))]
    for s in standings:
        cells = [name(s["player"])] + [escape(cell(s, key)) for key, _label in TABLE[1:]]
        cells.append(str(s["feet_started"]))
        rows.append("<tr>{}</tr>".format("".join("<td>{}</td>".format(c) for c in cells)))
    rows.append("</table></div><p class=\"note\">{}</p>".format(escape(counted)))
    return "".join(rows)
