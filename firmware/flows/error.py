"""The error screen: any press dismisses it and the app carries on.

ui keys: "s": "err", "m": the message, "w": where (optional).
"""


def view(ctx, ui, k):
    return "error", {"message": ui.get("m"), "where": ui.get("w"),
                     "labels": (("OK",), None, None, None, None)}


def press(ctx, ui, k, button):
    return {}, None
