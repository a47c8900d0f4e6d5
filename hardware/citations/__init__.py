"""Where each value of a board profile comes from: ``hardware/citations/<name>.py``
holds ``SOURCES`` for ``hardware/profiles/<name>.py`` (a citation per pin and
per panel figure), checked by hardware/contract.py.

Kept apart from the profiles: the board imports its profile on every press,
and there the citations' strings cost some 7 KB of heap and the time to
intern their names. Laptop-side only (flash copies hardware/profiles/, not
this folder).
"""


def of(profile):
    """The citations of ``profile`` (a profile module): its SOURCES dict."""
    return __import__("hardware.citations." + profile.NAME, None, None, ("x",)).SOURCES
