"""The button flows, one module per group of screens (see firmware/core.py):
each has ``view(ctx, ui, kind)`` and ``press(ctx, ui, kind, button)``."""
