"""Energy per press and per game, and battery life, for every board profile.

    python hardware/tools/power_budget.py                 # tables for every build
    python hardware/tools/power_budget.py badger2040      # one build
    python hardware/tools/power_budget.py --json          # the same numbers as JSON
    python hardware/tools/power_budget.py --write         # refresh the README's power section
    python hardware/tools/power_budget.py --check         # exit 1 if that section drifted

The profile says how the board spends a press (a power latch means every
press is a cold boot and ends with the board switching itself off; no latch
means it waits between presses in the RP2040's DORMANT state, RAM kept,
which is what the firmware does: firmware/presses.py) and how long its
panel takes;
hardware/power_figures.py holds the figures with their sources. Energies are
in millijoules (mW x s) at the board's input.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARDWARE = os.path.dirname(HERE)
sys.path.insert(0, os.path.dirname(HARDWARE))

from hardware import power_figures as F  # noqa: E402
from hardware import profiles  # noqa: E402

README = os.path.join(HARDWARE, "README.md")
WEEK_S = 7 * 24 * 3600


def v(group, key):
    return group[key]["value"]


def press_phases(profile):
    """[(phase, ms, mW)] of one ordinary press on this board."""
    active = v(F.MCU, "active_mw")
    panel = v(F.PANEL, "refresh_mw")
    update = ("panel update", profile.PANEL_UPDATE_MS, active + panel)
    if profile.PIN_POWER_LATCH is not None:
        return [
            ("cold boot", v(F.PRESS, "boot_ms"), active),
            ("restore + render", v(F.PRESS, "restore_ms"), active),
            update,
            ("halt", v(F.PRESS, "halt_ms"), active),
        ]
    return [
        ("wake from DORMANT", v(F.MCU, "wake_ms"), active),
        ("apply + render", v(F.PRESS, "awake_work_ms"), active),
        update,
    ]


def sleep_state(profile):
    """What the board does between presses, in words."""
    if profile.PIN_POWER_LATCH is not None:
        return "off (its power latch cut)"
    return "DORMANT (machine.lightsleep(), woken by the button)"


def budget(name, presses=None, games_per_week=None):
    """Every number of the budget for one build, as a dict (what --json prints)."""
    p = profiles.load(name)
    presses = presses or v(F.GAME, "presses_typical")
    games_per_week = games_per_week or v(F.GAME, "games_per_week")
    phases = press_phases(p)
    press_mj = sum(ms * mw for _n, ms, mw in phases) / 1000.0
    press_s = sum(ms for _n, ms, _mw in phases) / 1000.0
    fulls = v(F.GAME, "full_refreshes")
    full_extra_mj = fulls * (p.PANEL_FULL_UPDATE_MS - p.PANEL_UPDATE_MS) \
        * (v(F.MCU, "active_mw") + v(F.PANEL, "refresh_mw")) / 1000.0
    latch = p.PIN_POWER_LATCH is not None
    game_s = v(F.GAME, "minutes") * 60.0
    if latch:
        idle_game_mj = 0.0   # off between presses: counted in the weekly leak below
        off_mw = v(F.MCU, "badger_off_ua") / 1000.0 * 3.7
    else:
        idle_game_mj = max(game_s - presses * press_s, 0.0) * v(F.MCU, "pico_sleep_mw")
        off_mw = 0.0         # switched off between games
    game_mj = presses * press_mj + full_extra_mj + idle_game_mj
    week_off_mj = off_mw * (WEEK_S - games_per_week * game_s)

    batteries = {}
    for key, b in F.BATTERIES.items():
        usable = v(b, "usable_badger") if (latch and "usable_badger" in b) else v(b, "usable")
        energy_mj = v(b, "mah") * 3.6 * v(b, "volts") * usable * 1000.0
        factor = v(F.MCU, "low_voltage_factor") if b["low_voltage"] else 1.0
        leak_week_mj = v(b, "mah") * 3.6 * v(b, "volts") * 1000.0 \
            * v(b, "self_discharge_month") * 12 / 52
        week_mj = games_per_week * game_mj * factor + week_off_mj * factor + leak_week_mj
        left_on_mw = v(F.MCU, "pico_sleep_mw") * factor
        batteries[key] = {
            "label": b["label"],
            "usable_mj": round(energy_mj),
            "games": int(energy_mj // (game_mj * factor)),
            "days": int(energy_mj / week_mj * 7),
            "days_if_left_on": None if latch else round(energy_mj / left_on_mw / 86400.0, 1),
        }
    return {
        "profile": name,
        "power_latch": latch,
        "between_presses": sleep_state(p),
        "panel": p.DISPLAY_CONTROLLER,
        "press_phases": [{"phase": n, "ms": ms, "mw": round(mw, 1), "mj": round(ms * mw / 1000.0, 1)}
                         for n, ms, mw in phases],
        "press_mj": round(press_mj, 1),
        "presses_per_game": presses,
        "full_refresh_extra_mj": round(full_extra_mj, 1),
        "idle_in_game_mj": round(idle_game_mj, 1),
        "game_j": round(game_mj / 1000.0, 1),
        "games_per_week": games_per_week,
        "batteries": batteries,
    }


def figures():
    """Every figure with its kind and source, flat, for --json and the README."""
    out = []
    for group_name, group in (("mcu", F.MCU), ("panel", F.PANEL), ("press", F.PRESS),
                              ("game", F.GAME)):
        for key, f in group.items():
            out.append(dict(name="%s.%s" % (group_name, key), **f))
    for bkey, b in F.BATTERIES.items():
        for key, f in b.items():
            if isinstance(f, dict):
                out.append(dict(name="%s.%s" % (bkey, key), **f))
    return out


def markdown(names):
    """The README's power section: per-press table, per-game and battery life."""
    rows = [budget(n) for n in names]
    lines = ["Per press (mJ at the board's input):", "",
             "| build | between presses | phases (ms at mW) | press | game (J) |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        phases = "; ".join("%s %d ms at %.1f mW" % (ph["phase"], ph["ms"], ph["mw"])
                           for ph in r["press_phases"])
        lines.append("| %s | %s | %s | %.1f mJ | %.1f |" % (
            r["profile"], r["between_presses"], phases, r["press_mj"], r["game_j"]))
    keys = list(F.BATTERIES)
    lines += ["", "Battery life, %d presses a game, %d games a week (games per charge / days):" % (
        rows[0]["presses_per_game"], rows[0]["games_per_week"]), "",
        "| build | " + " | ".join(F.BATTERIES[k]["label"] for k in keys) + " |",
        "| --- |" + " --- |" * len(keys)]
    for r in rows:
        cells = []
        for k in keys:
            b = r["batteries"][k]
            cell = "%d games / %d days" % (b["games"], b["days"])
            if b["days_if_left_on"] is not None:
                cell += " (%.0f days if never switched off)" % b["days_if_left_on"]
            cells.append(cell)
        lines.append("| %s | %s |" % (r["profile"], " | ".join(cells)))
    lines += ["", "Where each figure comes from:", "", "| figure | value | kind | source |",
              "| --- | --- | --- | --- |"]
    for f in figures():
        lines.append("| %s | %s %s | %s | %s |" % (f["name"], f["value"], f["unit"], f["kind"],
                                                   f["source"].replace("|", "/")))
    return "\n".join(lines) + "\n"


def text_report(r):
    out = ["%s (%s panel, %s; between presses: %s)" % (
        r["profile"], r["panel"],
        "power latch: every press is a cold boot" if r["power_latch"] else "no latch",
        r["between_presses"])]
    for ph in r["press_phases"]:
        out.append("  %-24s %5d ms at %6.1f mW = %7.1f mJ" % (ph["phase"], ph["ms"], ph["mw"], ph["mj"]))
    out.append("  %-24s %30.1f mJ" % ("one press", r["press_mj"]))
    out.append("  one game: %d presses + full refreshes %.0f mJ + idle %.0f mJ = %.1f J"
               % (r["presses_per_game"], r["full_refresh_extra_mj"], r["idle_in_game_mj"], r["game_j"]))
    for b in r["batteries"].values():
        line = "  %-18s %4d games, %4d days at %d games a week" % (
            b["label"], b["games"], b["days"], r["games_per_week"])
        if b["days_if_left_on"] is not None:
            line += " (%.0f days if never switched off)" % b["days_if_left_on"]
        out.append(line)
    return "\n".join(out)


def readme_with_section(text, names):
    begin, end = "<!-- BEGIN power -->", "<!-- END power -->"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _old, tail = rest.split(end, 1)
        text = head + begin + "\n" + markdown(names) + end + tail
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="profiles (default: all)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--presses", type=int, help="presses per game (default %d)"
                    % v(F.GAME, "presses_typical"))
    ap.add_argument("--games-per-week", type=float, help="default %d" % v(F.GAME, "games_per_week"))
    ap.add_argument("--write", action="store_true", help="refresh the README's power section")
    ap.add_argument("--check", action="store_true", help="exit 1 if the README's section drifted")
    args = ap.parse_args(argv)
    names = args.names or list(profiles.NAMES)
    for n in names:
        if n not in profiles.NAMES:
            print("power_budget.py: unknown profile %r (known: %s)" % (n, ", ".join(profiles.NAMES)),
                  file=sys.stderr)
            return 2
    if args.write or args.check:
        old = open(README, encoding="utf-8").read()
        new = readme_with_section(old, list(profiles.NAMES))
        if args.check:
            if new != old:
                print("power_budget.py: the README's power section is out of date; "
                      "run hardware/tools/power_budget.py --write", file=sys.stderr)
                return 1
            return 0
        with open(README, "w", encoding="utf-8", newline="\n") as f:
            f.write(new)
        return 0
    reports = [budget(n, args.presses, args.games_per_week) for n in names]
    if args.json:
        print(json.dumps({"builds": reports, "figures": figures()}, indent=2))
    else:
        print("\n\n".join(text_report(r) for r in reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
