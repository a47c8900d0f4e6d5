"""Messages for players: a template with named slots and its values.

A message is a tuple ``(template, value, ...)``: the template is English,
the key of the catalogues (host/pipkeeper/i18n/), with a ``{slot}`` for
each value, in order. A value is a number, a string (a name, a tile) or a
message of its own. The board draws a message through its language's
catalogue, where the slots may stand in another order; everywhere else
``fill`` gives the English text.

A slot whose name starts with ``seat`` holds a 1-based seat number, shown
as "seat 3" here; the board puts the player's name in its place
(firmware/core.py, ``Ctx.words``).

``fill`` (in shared_engine/__init__.py: the board needs it for every
frame) gives a message's English; here is what else there is, a
template's slots and a refusal's message, loaded only where the laptop or
the board's set-up needs them (on the board every name of a loaded module
is interned, on every press, and its table of names is tight).
"""


def slots(t):
    """The slot names of template ``t``, in order."""
    out = []
    i = t.find("{")
    while i >= 0:
        j = t.find("}", i)
        out.append(t[i + 1:j])
        i = t.find("{", j)
    return out


def message(e):
    """The message of a refusal ``e``: its template and values, or its
    plain text as a message of no values."""
    a = e.args
    if len(a) == 1:
        return (a[0],) if isinstance(a[0], str) else a[0]
    return a
