"""Everything needed to build a pipkeeper scorer: board profiles (pins), wiring,
bill of materials, enclosure and power budget.

Only `hardware.profiles` is meant for the board; the rest (tools, figures) is
laptop-side documentation that happens to be executable.
"""
