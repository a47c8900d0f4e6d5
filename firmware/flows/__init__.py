"""The button flows, one module per group of screens (see firmware/core.py):
each has ``view(ctx, ui, kind)`` and ``press(ctx, ui, kind, button)``."""


def screens(table, default):
    """``view`` and ``press`` for a module with several screens: ``table``
    maps a screen kind to its ``(view(ctx, ui), press(ctx, ui, button))``
    pair; any other kind is ``default``'s (the screen the module falls back
    on when the ui names none of its own)."""

    def view(ctx, ui, k):
        return table.get(k, default)[0](ctx, ui)

    def press(ctx, ui, k, button):
        return table.get(k, default)[1](ctx, ui, button)

    return view, press
