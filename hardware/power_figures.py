"""The numbers behind the power budget, each with where it came from.

Laptop-side only (hardware/tools/power_budget.py reads it with the profiles);
nothing here goes to the board. Every figure carries a `kind`:

- "vendor": a manufacturer's datasheet, spec page or own code;
- "measured": somebody's published measurement (named);
- "budget": this project's own timing budget (/work/shared/PERFORMANCE.md);
- "assumed": our estimate where no published figure was found; replace it
  with a measurement when a board is on the bench.

Power is taken at the board's input (what the battery sees), so regulator
losses are inside the figures rather than modelled apart.
"""


def fig(value, unit, kind, source):
    return {"value": value, "unit": unit, "kind": kind, "source": source}


# --- the microcontroller board ------------------------------------------------
MCU = {
    "active_mw": fig(
        130.0, "mW", "measured",
        "A bare Pico running MicroPython draws about 26 mA at 5 V (x 5 V = 130 mW): "
        "forums.pimoroni.com/t/pico-rgb-keypad-min-power-draw/25317. Used for the "
        "Badgers too: same RP2040 at the same clock."),
    "low_voltage_factor": fig(
        1.39, "x", "measured",
        "Same thread: 82 mA idle at 2.2 V from two cells = 180 mW, 1.39 x the 5 V "
        "figure (the converter works harder at low input). Applied to 2xAAA."),
    "pico_sleep_mw": fig(
        4.5, "mW", "measured",
        "The state the Pico builds wait in between presses on battery: DORMANT, "
        "entered with machine.lightsleep() and no time-out (the rp2 port stops the "
        "crystal oscillator) and woken by a button's edge the firmware enables in "
        "IO_BANK0 DORMANT_WAKE_INTE (firmware/presses.py). 'About 0.9 mA' from USB "
        "(5 V) on a Pico for exactly that call, per the MicroPython commit that "
        "implemented it (micropython/micropython, addresses issue #8770; the same "
        "commit gives 1.5 mA for a timed lightsleep, which we do not use)."),
    "wake_ms": fig(
        1, "ms", "vendor",
        "Out of DORMANT: the crystal oscillator's start-up delay the pico-sdk sets "
        "(xosc_init: about 1 ms at 12 MHz), then the PLLs and clocks again; the "
        "emulated RP2040 (tests/device) models the same delay."),
    "badger_min_volts": fig(
        2.7, "V", "vendor",
        "Badger 2040 battery input 2.7-6 V (Pimoroni spec, as quoted by Tom's "
        "Hardware's review, tomshardware.com/reviews/pimoroni-badger-2040)."),
}

# --- the Badger 2040 itself, in the currents drawn from its battery -------------
_PPK2 = ("Badger 2040 measured with a Nordic PPK2, published with stanelie/esp-reader "
         "v1.1.x, as issue 23 quotes it (the stored copies of that repository seen here "
         "hold only its Heltec E213 table: not re-checked from this sandbox)")
BADGER = {
    "awake_ma": fig(
        25.0, "mA", "measured", _PPK2 + ": awake, 125 MHz, 25 mA."),
    "dormant_ma": fig(
        1.0, "mA", "measured", _PPK2 + ": RP2040 in DORMANT with the latch held, 1 mA. "
        "Not the state the firmware sleeps in during a game (sleep_ma): DORMANT has no "
        "clock to end it after the idle minutes (firmware/presses.py)."),
    "off_ua": fig(
        3.0, "uA", "measured", _PPK2 + ": powered off (the latch cut), 3 uA."),
    "sleep_ma": fig(
        1.6, "mA", "assumed",
        "The SLEEP state the board waits in during a game: machine.lightsleep(ms) "
        "(clk_sys from the crystal, PLLs off, every clock gated but the timer's; "
        "firmware/presses.py), latch held. Not measured on a Badger: its DORMANT 1 mA "
        "(dormant_ma) plus what a timed lightsleep costs a Pico over DORMANT in the "
        "MicroPython commit that added both (1.5 against 0.9 mA from USB; "
        "micropython/micropython PR #8832). Peter Hinch measured 990 uA for "
        "lightsleep(5000) on a Pico from VSYS in that PR, which would make it less."),
    "volts": fig(
        3.7, "V", "assumed",
        "The battery's voltage the currents are drawn at (a LiPo's nominal): the "
        "panel's refresh power is turned into a current with it."),
}

# --- the e-ink panel (both controllers drive a 2.9" 296x128 panel) ------------
PANEL = {
    "refresh_mw": fig(
        26.4, "mW", "vendor",
        "Waveshare Pico-ePaper-2.9 spec: refresh power 26.4 mW typ. Pimoroni publishes "
        "no figure for the Badger/Inky Pack panel; we assume the same 2.9\" class."),
    "sleep_ua": fig(
        0.01, "uA", "vendor",
        "Waveshare Pico-ePaper-2.9 spec: standby current < 0.01 uA. Negligible."),
}

# --- one press (the profile adds the panel update times) ----------------------
PRESS = {
    "boot_ms": fig(
        150, "ms", "assumed",
        "Power-on to main.py running (boot ROM, MicroPython start, filesystem mount). "
        "Not published; `pipkeeper bench` on a board should replace it."),
    "restore_ms": fig(
        300, "ms", "budget",
        "PERFORMANCE.md: our own work from wake to the start of the panel update "
        "stays under about 300 ms (restore the game, apply the press, render)."),
    "awake_work_ms": fig(
        100, "ms", "budget",
        "Pico builds stay in RAM between presses (DORMANT keeps it), and so do the "
        "Badgers during a game (asleep, latch held): apply one event (0.3 ms) + render "
        "(60 ms budget, PERFORMANCE.md) + append to flash; rounded up to 100 ms "
        "(`pipkeeper bench device`: awake_press_ms_median ~100 ms on the stock "
        "image, ~60 on the scorer's own)."),
    "halt_ms": fig(
        50, "ms", "vendor",
        "Pimoroni's badger2040.py turn_off() sleeps 50 ms before dropping EN_3V3."),
}

# --- one game ------------------------------------------------------------------
GAME = {
    "presses_typical": fig(
        820, "presses", "assumed",
        "Chicken Foot, double-9, 4 players, 10 rounds (RULES.md), quick tracking: "
        "about 60 play/draw/pass presses + 4 score entries x 3 presses + 8 for dealer "
        "screen and summary = 80 a round, + 20 for set-up."),
    "presses_long": fig(
        2000, "presses", "budget",
        "PERFORMANCE.md's largest game: 13-round Mexican Train, 2,000 events."),
    "full_refreshes": fig(
        11, "per game", "assumed",
        "One full (ghost-clearing) refresh per round plus one at set-up; every other "
        "press is a fast/partial update."),
    "minutes": fig(
        90, "min", "assumed",
        "Length of a typical game at the table (matters only for builds that sleep "
        "rather than switch off between presses)."),
    "games_per_week": fig(
        2, "games", "assumed", "The brief's usage: two games a week."),
    "setup_presses": fig(
        20, "presses", "assumed",
        "The set-up's share of presses_typical: on battery each is a cold boot, as "
        "the set-up waits for no one (firmware/app.py App.awake_ms)."),
    "idle_minutes": fig(
        5, "min", "budget",
        "The idle time-out's default (firmware/app.py IDLE_MIN; a set-up option and "
        "`pipkeeper roster --option idle=N`): counted once a game night, for a night "
        "that ends on a screen that waits."),
}

# --- batteries -----------------------------------------------------------------
BATTERIES = {
    "lipo_400": {
        "label": "LiPo 400 mAh",
        "mah": fig(400, "mAh", "vendor", "Pimoroni LiPo 400mAh (cell rating)."),
        "volts": fig(3.7, "V", "vendor", "LiPo nominal cell voltage."),
        "usable": fig(0.85, "x", "assumed",
                      "Stopping around 3.3 V under load leaves ~15 % in the cell."),
        "self_discharge_month": fig(0.03, "x", "assumed",
                                    "Typical LiPo self-discharge, a few % a month."),
        "low_voltage": False,
    },
    "lipo_1000": {
        "label": "LiPo 1000 mAh",
        "mah": fig(1000, "mAh", "vendor", "Pimoroni LiPo 1000mAh (cell rating)."),
        "volts": fig(3.7, "V", "vendor", "LiPo nominal cell voltage."),
        "usable": fig(0.85, "x", "assumed",
                      "Stopping around 3.3 V under load leaves ~15 % in the cell."),
        "self_discharge_month": fig(0.03, "x", "assumed",
                                    "Typical LiPo self-discharge, a few % a month."),
        "low_voltage": False,
    },
    "aaa_2": {
        "label": "2 x AAA alkaline",
        "mah": fig(1200, "mAh", "vendor",
                   "Energizer E92 datasheet, about 1,200 mAh at light drain (read from "
                   "its capacity curve; not re-checked from this sandbox)."),
        "volts": fig(2.4, "V", "assumed",
                     "Two cells averaging ~1.2 V each over their discharge."),
        "usable": fig(0.9, "x", "assumed",
                      "Pico builds: the Pico runs down to 1.8 V on VSYS, so after the "
                      "Schottky diode the cells are used to ~1.05 V each."),
        "usable_badger": fig(0.5, "x", "assumed",
                             "Badger builds: the 2.7 V input minimum stops alkaline "
                             "cells at 1.35 V each, about halfway down their curve."),
        "self_discharge_month": fig(0.002, "x", "assumed",
                                    "Alkaline cells lose ~2-3 % a year on the shelf."),
        "low_voltage": True,
    },
}
