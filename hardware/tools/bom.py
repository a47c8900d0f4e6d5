"""Bill-of-materials totals per build, from hardware/bom/<build>.csv.

    python hardware/tools/bom.py            # print the totals table
    python hardware/tools/bom.py --write    # refresh the README's totals table
    python hardware/tools/bom.py --check    # exit 1 if the README disagrees with the CSVs

Each CSV row belongs to an option: "core" parts every build needs, then one
row group per power choice ("lipo", "aaa"). A build's total for a power
choice is core + that choice. The README table is generated so that editing
a price in a CSV cannot leave a stale total in the guide.
"""

import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARDWARE = os.path.dirname(HERE)
sys.path.insert(0, os.path.dirname(HARDWARE))

from hardware import profiles  # noqa: E402

BOM_DIR = os.path.join(HARDWARE, "bom")
README = os.path.join(HARDWARE, "README.md")
COLUMNS = ["option", "item", "supplier", "part_number", "qty", "unit_gbp", "notes"]
POWER_OPTIONS = (("lipo", "with LiPo 400 mAh"), ("aaa", "with 2 x AAA"))


def read(name):
    """The rows of one build's CSV, qty as int and unit price as float."""
    with open(os.path.join(BOM_DIR, name + ".csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise ValueError("%s.csv: columns must be %s" % (name, ",".join(COLUMNS)))
        rows = []
        for r in reader:
            r["qty"] = int(r["qty"])
            r["unit_gbp"] = float(r["unit_gbp"])
            rows.append(r)
    return rows


def totals(name):
    """{"core": £, "lipo": £ (core + lipo), "aaa": £ (core + aaa)}, rounded to pennies."""
    by = {}
    for r in read(name):
        by[r["option"]] = by.get(r["option"], 0.0) + r["qty"] * r["unit_gbp"]
    out = {"core": round(by.get("core", 0.0), 2)}
    for opt, _label in POWER_OPTIONS:
        out[opt] = round(by.get("core", 0.0) + by.get(opt, 0.0), 2)
    return out


def markdown():
    lines = ["| build | parts without power | " + " | ".join(l for _o, l in POWER_OPTIONS) + " |",
             "| --- | ---: |" + " ---: |" * len(POWER_OPTIONS)]
    for name in profiles.NAMES:
        t = totals(name)
        lines.append("| [%s](bom/%s.csv) | £%.2f | %s |" % (
            name, name, t["core"], " | ".join("£%.2f" % t[o] for o, _l in POWER_OPTIONS)))
    return "\n".join(lines) + "\n"


def readme_with_table(text):
    begin, end = "<!-- BEGIN bom -->", "<!-- END bom -->"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _old, tail = rest.split(end, 1)
        text = head + begin + "\n" + markdown() + end + tail
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    if not (args.write or args.check):
        print(markdown(), end="")
        return 0
    old = open(README, encoding="utf-8").read()
    new = readme_with_table(old)
    if args.check:
        if new != old:
            print("bom.py: the README's totals disagree with hardware/bom/*.csv; "
                  "run hardware/tools/bom.py --write", file=sys.stderr)
            return 1
        return 0
    with open(README, "w", encoding="utf-8", newline="\n") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
