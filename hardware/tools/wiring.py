"""Wiring table and diagram for the Pico builds, generated from their profiles.

    python hardware/tools/wiring.py            # print the tables
    python hardware/tools/wiring.py --write    # rewrite hardware/wiring/* and the README tables
    python hardware/tools/wiring.py --check    # exit 1 if any of them has drifted

Why generated: the profile is what the firmware runs on, so the picture a
builder solders from must be drawn from the same numbers. The output is
deterministic (no dates, fixed float formatting) so a test can regenerate it
and compare byte for byte.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARDWARE = os.path.dirname(HERE)
sys.path.insert(0, os.path.dirname(HARDWARE))

from hardware import contract, profiles  # noqa: E402

WIRING_DIR = os.path.join(HARDWARE, "wiring")
README = os.path.join(HARDWARE, "README.md")

# Raspberry Pi Pico header, physical pin -> signal (Pico datasheet, pinout).
# Pins 1-20 run down the left edge with USB at the top, 21-40 up the right.
PICO_HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15",
    21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21",
    28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28",
    35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
GPIO_TO_PIN = {int(s[2:]): n for n, s in PICO_HEADER.items() if s.startswith("GP")}
GND_PINS = tuple(n for n, s in PICO_HEADER.items() if s == "GND")
VSYS_PIN = 39
BATTERY_GND_PIN = 38

DISPLAY_KEYS = ("SPI_SCK", "SPI_MOSI", "PIN_CS", "PIN_DC", "PIN_RST", "PIN_BUSY")
JOB_TEXT = {
    "SPI_SCK": "panel SPI clock",
    "SPI_MOSI": "panel SPI data (DIN)",
    "PIN_CS": "panel chip select",
    "PIN_DC": "panel data/command",
    "PIN_RST": "panel reset",
    "PIN_BUSY": "panel busy",
    "PIN_VBAT_SENSE": "battery sense (VSYS/3, ADC3)",
    "PIN_VBUS_DETECT": "USB power present",
    "PIN_LED": "on-board LED",
    "PIN_POWER_LATCH": "power latch",
    "PIN_VREF_EN": "voltage reference enable",
    "PIN_VREF_1V2": "1.24 V reference (ADC)",
    "PIN_RTC_SDA": "RTC I2C data",
    "PIN_RTC_SCL": "RTC I2C clock",
    "PIN_RTC_ALARM": "RTC alarm",
}
GROUP_COLOUR = {"display": "#1f5fbf", "button": "#d9731a", "power": "#c0282d",
                "ground": "#222222", "board": "#7a7a7a"}


def wired_builds():
    """The profiles a builder wires by hand: the Pico-based ones."""
    return [n for n in profiles.NAMES if profiles.load(n).MCU_BOARD == "pico"]


def nearest_ground(pin):
    """The GND header pin closest to `pin` on the same edge of the board."""
    same_side = [g for g in GND_PINS if (g <= 20) == (pin <= 20)]
    return min(same_side, key=lambda g: (abs(g - pin), g))


def rows(profile):
    """Wiring rows [(group, job, gpio text, header pin text, connect-to text)]."""
    out = []
    for job, gpio in contract.pin_jobs(profile):
        pin = GPIO_TO_PIN.get(gpio)
        pin_text = str(pin) if pin else "none (on the Pico board)"
        if job.startswith("BUTTON_"):
            label = job[len("BUTTON_"):]
            polarity = "pressed = high" if _button(profile, label)[3] else "pressed = low"
            if label in profile.WIRED_BUTTONS:
                target = "push button %s, other leg to GND (pin %d); %s" % (
                    label, nearest_ground(pin), polarity)
            else:
                target = "button %s on the display module; %s" % (label, polarity)
            out.append(("button", "button " + label, "GP%d" % gpio, pin_text, target))
        elif job in DISPLAY_KEYS:
            out.append(("display", JOB_TEXT[job], "GP%d" % gpio, pin_text,
                        "display module, through its Pico header socket"))
        else:
            out.append(("board", JOB_TEXT[job], "GP%d" % gpio, pin_text,
                        "on the Pico itself: nothing to wire"))
    out.append(("power", "battery +", "-", str(VSYS_PIN),
                "VSYS through a Schottky diode (2xAAA) or the LiPo SHIM (LiPo)"))
    out.append(("ground", "battery -", "-", str(BATTERY_GND_PIN), "GND"))
    return out


def _button(profile, label):
    for b in profile.BUTTONS:
        if b[0] == label:
            return b
    raise KeyError(label)


def table(name):
    """The Markdown wiring table of one build."""
    p = profiles.load(name)
    lines = ["| job | GPIO | Pico pin | connect to |", "| --- | --- | --- | --- |"]
    for _group, job, gpio, pin, target in rows(p):
        lines.append("| %s | %s | %s | %s |" % (job, gpio, pin, target))
    return "\n".join(lines) + "\n"


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(name):
    """An SVG of the Pico's header with every wired pin labelled and coloured."""
    p = profiles.load(name)
    pitch, top, board_x, board_w = 22, 110, 310, 180
    height = top + 20 * pitch + 150
    width = 800
    used = {}
    for group, job, gpio, pin, target in rows(p):
        if pin.isdigit():
            text = "%s (%s)" % (job, gpio) if gpio.startswith("GP") else job
            used.setdefault(int(pin), []).append((group, text))
    returns = {}
    for label in p.WIRED_BUTTONS:
        gnd = nearest_ground(GPIO_TO_PIN[_button(p, label)[1]])
        returns.setdefault(gnd, []).append(label)
    for gnd, labels in sorted(returns.items()):
        used.setdefault(gnd, []).append(
            ("ground", "GND return of button%s %s" % ("s" if len(labels) > 1 else "", ", ".join(labels))))
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">' % (width, height, width, height),
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        '<text x="20" y="30" font-size="18" font-weight="bold">pipkeeper wiring: %s</text>' % _esc(name),
        '<text x="20" y="52">Raspberry Pi Pico seen from the top, USB at the top. '
        'Generated from hardware/profiles/%s.py</text>' % _esc(name),
        '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#2e7d32" stroke="#1b5e20"/>'
        % (board_x, top - 30, board_w, 20 * pitch + 40),
        '<rect x="%d" y="%d" width="40" height="24" fill="#b0b0b0" stroke="#555"/>'
        % (board_x + board_w // 2 - 20, top - 42),
        '<text x="%d" y="%d" text-anchor="middle" fill="#ffffff">USB</text>'
        % (board_x + board_w // 2, top - 25),
    ]
    for pin in range(1, 41):
        left = pin <= 20
        row = pin - 1 if left else 40 - pin
        y = top + row * pitch
        px = board_x + 12 if left else board_x + board_w - 12
        out.append('<circle cx="%d" cy="%d" r="6" fill="#e0c060" stroke="#6d5a1a"/>' % (px, y))
        tx = px + 12 if left else px - 12
        anchor = "start" if left else "end"
        out.append('<text x="%d" y="%d" text-anchor="%s" fill="#ffffff" font-size="10">%d %s</text>'
                   % (tx, y + 4, anchor, pin, _esc(PICO_HEADER[pin])))
        for i, (group, text) in enumerate(used.get(pin, ())):
            colour = GROUP_COLOUR[group]
            if left:
                x1, x2 = px - 6, 250
                label_x, label_anchor = x2 - 6, "end"
            else:
                x1, x2 = px + 6, width - 250
                label_x, label_anchor = x2 + 6, "start"
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                       % (x1, y, x2, y, colour))
            out.append('<text x="%d" y="%d" text-anchor="%s" fill="%s">%s</text>'
                       % (label_x, y + 4 - 7 * (len(used[pin]) - 1) + 14 * i, label_anchor,
                          colour, _esc(text)))
    note_y = top + 20 * pitch + 40
    onboard = ["%s GP%d" % (JOB_TEXT[k], v) for k, v in contract.pin_jobs(p)
               if v not in GPIO_TO_PIN]
    notes = [
        "Display pins (blue) reach the module through its header socket: plug the Pico in, no wires.",
        "Buttons (orange): %s." % (
            ", ".join("%s on GP%d" % (b[0], b[1]) for b in p.BUTTONS if b[0] in p.WIRED_BUTTONS)
            + " wired by hand to GND" if p.WIRED_BUTTONS else "all on the module"),
        "On the Pico itself (no header pin): %s." % ", ".join(onboard),
        "Battery: + to VSYS (pin 39) through a Schottky diode or the LiPo SHIM, - to GND (pin 38).",
    ]
    for i, text in enumerate(notes):
        out.append('<text x="20" y="%d">%s</text>' % (note_y + i * 18, _esc(text)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def outputs():
    """{path: expected text} for every generated file (README handled apart)."""
    files = {}
    for name in wired_builds():
        files[os.path.join(WIRING_DIR, name + ".svg")] = svg(name)
        files[os.path.join(WIRING_DIR, name + ".md")] = (
            "# Wiring: %s\n\nGenerated by `python hardware/tools/wiring.py --write` from "
            "`hardware/profiles/%s.py`; do not edit by hand.\n\n![wiring](%s.svg)\n\n%s"
            % (name, name, name, table(name)))
    return files


def readme_with_tables(text):
    """`text` with every `<!-- BEGIN wiring:NAME -->` block refreshed from the profile."""
    for name in wired_builds():
        begin, end = "<!-- BEGIN wiring:%s -->" % name, "<!-- END wiring:%s -->" % name
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            _old, tail = rest.split(end, 1)
            text = head + begin + "\n" + table(name) + end + tail
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the generated files")
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated file drifted")
    args = ap.parse_args(argv)
    files = outputs()
    readme = open(README, encoding="utf-8").read() if os.path.exists(README) else None
    if readme is not None:
        files[README] = readme_with_tables(readme)
    if args.write:
        os.makedirs(WIRING_DIR, exist_ok=True)
        for path, text in files.items():
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        return 0
    if args.check:
        stale = [p for p, t in files.items()
                 if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
        for p in stale:
            print("wiring.py: %s is out of date; run hardware/tools/wiring.py --write"
                  % os.path.relpath(p), file=sys.stderr)
        return 1 if stale else 0
    for name in wired_builds():
        print("## " + name + "\n\n" + table(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
