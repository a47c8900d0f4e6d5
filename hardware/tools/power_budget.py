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

The latch builds have a second model, in the currents measured on a Badger
(``awake``): during a game night on battery the board keeps its latch and
sleeps between presses (SLEEP, machine.lightsleep(ms)), the set-up's presses
stay cold boots, and it switches off after the idle minutes; beside it the
model it replaces, a cold boot every press. Both in mA s from the battery,
and as days on a charge for one game night a week and one a day. The
break-even is the pause after which staying asleep has cost more charge
than the cold boot it saves.
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
        off_mw = v(F.BADGER, "off_ua") / 1000.0 * v(F.BADGER, "volts")
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
        "awake": awake_budget(p, presses) if latch else None,
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


def night_mas(profile, awake, presses=None):
    """mA s from the battery over one game night of a latch build: a cold
    boot every press (``awake`` False), or awake in the game: the set-up's
    presses cold boots, the others woken from SLEEP, asleep between them,
    and the idle minutes asleep once before the board switches off."""
    B, P = F.BADGER, F.PRESS
    presses = presses or v(F.GAME, "presses_typical")
    i_run = v(B, "awake_ma")
    i_update = i_run + v(F.PANEL, "refresh_mw") / v(B, "volts")
    update_s = profile.PANEL_UPDATE_MS / 1000.0
    cold_s = (v(P, "boot_ms") + v(P, "restore_ms") + v(P, "halt_ms")) / 1000.0
    warm_s = (v(F.MCU, "wake_ms") + v(P, "awake_work_ms")) / 1000.0
    cold = min(v(F.GAME, "setup_presses"), presses) if awake else presses
    warm = presses - cold
    full_extra = v(F.GAME, "full_refreshes") * (
        profile.PANEL_FULL_UPDATE_MS - profile.PANEL_UPDATE_MS) / 1000.0 * i_update
    work = (cold * cold_s + warm * warm_s) * i_run + presses * update_s * i_update + full_extra
    busy_s = cold * cold_s + warm * warm_s + presses * update_s
    between_s = max(v(F.GAME, "minutes") * 60.0 - busy_s, 0.0)
    if awake:
        between = (between_s + v(F.GAME, "idle_minutes") * 60.0) * v(B, "sleep_ma")
    else:
        between = between_s * v(B, "off_ua") / 1000.0
    return work + between


def days_on_a_charge(profile, awake, nights_per_week, battery, presses=None):
    """Days a charge lasts at ``nights_per_week`` game nights: the nights,
    the board off the rest of the week, the cell's own self-discharge."""
    b = F.BATTERIES[battery]
    usable = v(b, "usable_badger") if "usable_badger" in b else v(b, "usable")
    factor = v(F.MCU, "low_voltage_factor") if b["low_voltage"] else 1.0
    night_s = v(F.GAME, "minutes") * 60.0
    week = nights_per_week * night_mas(profile, awake, presses) * factor
    week += (WEEK_S - nights_per_week * night_s) * v(F.BADGER, "off_ua") / 1000.0 * factor
    week += v(b, "mah") * 3600.0 * v(b, "self_discharge_month") * 12 / 52
    return v(b, "mah") * 3600.0 * usable / week * 7


def break_even_s():
    """The pause after which a board asleep has drawn more than the cold
    boot that cutting its power would cost the next press."""
    P = F.PRESS
    cold_s = (v(P, "boot_ms") + v(P, "restore_ms") + v(P, "halt_ms")) / 1000.0
    warm_s = (v(F.MCU, "wake_ms") + v(P, "awake_work_ms")) / 1000.0
    return (cold_s - warm_s) * v(F.BADGER, "awake_ma") / v(F.BADGER, "sleep_ma")


def awake_budget(profile, presses=None):
    """The latch build's two models: mAh a game night, days on a charge."""
    out = {"night_mah": {}, "days": {}, "break_even_s": round(break_even_s(), 1),
           "idle_minutes": v(F.GAME, "idle_minutes")}
    for model, awake in (("cold_boot_every_press", False), ("awake_in_a_game", True)):
        out["night_mah"][model] = round(night_mas(profile, awake, presses) / 3600.0, 2)
        out["days"][model] = {
            key: {"one_night_a_week": int(days_on_a_charge(profile, awake, 1, key, presses)),
                  "one_night_a_day": int(days_on_a_charge(profile, awake, 7, key, presses))}
            for key in F.BATTERIES}
    return out


def awake_words(a, presses=None):
    """The break-even in words, against the idle time-out and a game night."""
    presses = presses or v(F.GAME, "presses_typical")
    every_s = v(F.GAME, "minutes") * 60.0 / presses
    cold, warm = a["night_mah"]["cold_boot_every_press"], a["night_mah"]["awake_in_a_game"]
    s = ("A cold boot costs a press %.0f mA s more than a press woken from SLEEP; asleep, "
         "the board draws that in %.1f s: the break-even. " % (
             break_even_s() * v(F.BADGER, "sleep_ma"), a["break_even_s"]))
    if a["idle_minutes"] * 60 < a["break_even_s"]:
        s += "The idle time-out (%d min) is under it: staying up never costs more. " % a["idle_minutes"]
    else:
        s += ("The idle time-out (%d min) is over it: a pause longer than %.0f s costs more "
              "asleep than the cold boot it saves. " % (a["idle_minutes"], a["break_even_s"]))
    if abs(warm - cold) < 0.05 * cold:
        how = "comes out even"
    else:
        how = "costs %s awake" % ("less" if warm < cold else "more")
    return s + ("A game night of %d presses in %d minutes (one every %.1f s) %s: %.1f mAh "
                "awake against %.1f with a cold boot every press; awake, a press costs about "
                "%.1f s of work before the panel instead of %.1f." % (
                    presses, v(F.GAME, "minutes"), every_s, how, warm, cold,
                    (v(F.MCU, "wake_ms") + v(F.PRESS, "awake_work_ms")) / 1000.0,
                    (v(F.PRESS, "boot_ms") + v(F.PRESS, "restore_ms")) / 1000.0))


def figures():
    """Every figure with its kind and source, flat, for --json and the README."""
    out = []
    for group_name, group in (("mcu", F.MCU), ("badger", F.BADGER), ("panel", F.PANEL),
                              ("press", F.PRESS), ("game", F.GAME)):
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
    awake = [r for r in rows if r["awake"]]
    if awake:
        a = awake[0]["awake"]
        lines += ["", "The latch builds on battery, in the currents measured on a Badger 2040: "
                  "a cold boot every press, or awake in a game (asleep between presses, "
                  "off after %d idle minutes and on the screens that wait for no one). "
                  "mAh a game night (%d presses, %d minutes); days on a charge for one "
                  "game night a week / one a day:" % (
                      a["idle_minutes"], rows[0]["presses_per_game"], v(F.GAME, "minutes")), "",
                  "| build | model | mAh a night | " + " | ".join(
                      F.BATTERIES[k]["label"] for k in keys) + " |",
                  "| --- | --- | --- |" + " --- |" * len(keys)]
        for r in awake:
            for model, words in (("cold_boot_every_press", "a cold boot every press"),
                                 ("awake_in_a_game", "awake in a game")):
                d = r["awake"]["days"][model]
                lines.append("| %s | %s | %.1f | %s |" % (
                    r["profile"], words, r["awake"]["night_mah"][model], " | ".join(
                        "%d / %d days" % (d[k]["one_night_a_week"], d[k]["one_night_a_day"])
                        for k in keys)))
        lines += ["", awake_words(a, rows[0]["presses_per_game"])]
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
    a = r["awake"]
    if a:
        out.append("  on battery, mAh a game night / days on a charge at 1 night a week, 1 a day:")
        for model, words in (("cold_boot_every_press", "a cold boot every press"),
                             ("awake_in_a_game", "awake in a game")):
            d = a["days"][model]
            out.append("    %-24s %5.1f mAh  %s" % (words, a["night_mah"][model], "  ".join(
                "%s %d/%d" % (F.BATTERIES[k]["label"], d[k]["one_night_a_week"],
                              d[k]["one_night_a_day"]) for k in d)))
        out.append("  " + awake_words(a, r["presses_per_game"]))
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
