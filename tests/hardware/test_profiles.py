"""The hardware folder keeps its promises: sound profiles, wiring and BOM
that cannot drift from them, a power budget that runs.

Pure CPython; one test also imports every profile on the MicroPython unix
port (skipped when the binary is missing), because the board imports them.
"""

import ast
import csv
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from hardware import citations, contract, profiles  # noqa: E402
from hardware.tools import bom, power_budget, wiring  # noqa: E402

HW = os.path.join(ROOT, "hardware")
README = os.path.join(HW, "README.md")


def _profile(name):
    return profiles.load(name)


@pytest.fixture(params=profiles.NAMES)
def profile(request):
    return _profile(request.param)


# --- the profiles themselves ---------------------------------------------------

def test_every_profile_file_is_listed():
    files = sorted(f[:-3] for f in os.listdir(os.path.join(HW, "profiles"))
                   if f.endswith(".py") and not f.startswith("_"))
    assert files == sorted(profiles.NAMES)


def test_profile_is_sound(profile):
    # required keys, NAME, controller, SPI function pins, A B C UP DOWN with a
    # consistent pull/polarity, GPIO 0-29, one pin one job, reserved pins
    # untouched, ADC-capable sense pins, a cited source for every pin
    assert contract.problems(profile) == []


def test_no_pin_has_two_jobs(profile):
    gpios = [g for _job, g in contract.pin_jobs(profile)]
    assert len(gpios) == len(set(gpios))
    assert all(0 <= g <= 29 for g in gpios)


def test_buttons_are_exactly_the_five(profile):
    assert tuple(b[0] for b in profile.BUTTONS) == ("A", "B", "C", "UP", "DOWN")


def test_sources_cite_every_pin(profile):
    for job, gpio in contract.pin_jobs(profile):
        cite = citations.of(profile).get(job, "")
        assert len(cite) > 10, "%s (GPIO%d) has no real citation" % (job, gpio)


def test_checks_catch_a_doubled_pin():
    # the checker itself must bite: give button A the chip-select pin
    class Bad:
        pass
    src = _profile("badger2040")
    bad = Bad()
    for k in contract.REQUIRED:
        setattr(bad, k, getattr(src, k))
    bad.__name__ = "hardware.profiles.badger2040"
    bad.BUTTONS = (("A", src.PIN_CS, "down", True),) + src.BUTTONS[1:]
    assert any("two jobs" in p for p in contract.problems(bad))
    bad.BUTTONS = src.BUTTONS[:4]
    assert any("expected exactly" in p for p in contract.problems(bad))


# --- against what the firmware expects -------------------------------------------

def _firmware_required_keys():
    """REQUIRED_PROFILE_KEYS from firmware/board.py, read without importing it
    (it needs `machine` on a board); None when the firmware does not say."""
    path = os.path.join(ROOT, "firmware", "board.py")
    if not os.path.exists(path):
        return None
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "REQUIRED_PROFILE_KEYS" for t in node.targets):
            return ast.literal_eval(node.value)
    return None


def _contracts_md_keys():
    """The constant names of the "Board profile" section of notes/CONTRACTS.md."""
    text = open(os.path.join(ROOT, "notes", "CONTRACTS.md"), encoding="utf-8").read()
    section = text.split("## Board profile", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|NAME|WIDTH|HEIGHT|BUTTONS)\b",
                          section)) - {"MONO_HLSB"}


def test_profiles_have_what_the_firmware_reads(profile):
    keys = _firmware_required_keys()
    if keys is None:
        pytest.skip("firmware/board.py has no REQUIRED_PROFILE_KEYS yet")
    missing = [k for k in keys if not hasattr(profile, k)]
    assert missing == [], "%s lacks %s, which firmware/board.py reads" % (profile.NAME, missing)


def test_contracts_md_and_the_checker_agree():
    named = _contracts_md_keys()
    assert set(contract.CONTRACT_KEYS) <= named
    # every key the docs name is required of profiles, and vice versa
    assert named - set(contract.REQUIRED) == set()
    assert set(contract.REQUIRED) - named == set()


def test_firmware_takes_pins_from_profiles():
    """No GPIO number written into the firmware: Pin(<int literal>) is banned."""
    fw = os.path.join(ROOT, "firmware")
    if not os.path.isdir(fw):
        pytest.skip("no firmware/ yet")
    offenders = []
    for dirpath, _dirs, files in os.walk(fw):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
                    code = line.split("#", 1)[0]
                    if re.search(r"\bPin\(\s*\d+", code):
                        offenders.append("%s:%d: %s" % (os.path.relpath(path, ROOT), lineno,
                                                        line.strip()))
    assert offenders == [], "GPIO numbers belong in hardware/profiles/:\n" + "\n".join(offenders)


def _micropython():
    """The unix port as `pipkeeper test --micropython` finds it, else PATH's."""
    try:
        from pipkeeper.paths import micropython_binary
        return str(micropython_binary())
    except Exception:
        return shutil.which("micropython")


MICROPYTHON = _micropython()


@pytest.mark.skipif(MICROPYTHON is None, reason="no micropython binary")
def test_profiles_import_on_micropython():
    code = ("import hardware.profiles as P\n"
            "for n in P.NAMES:\n"
            "    p = P.load(n)\n"
            "    assert p.NAME == n and len(p.BUTTONS) == 5\n"
            "print('ok', len(P.NAMES))\n")
    out = subprocess.run([MICROPYTHON, "-X", "heapsize=160K", "-c", code], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok %d" % len(profiles.NAMES)


@pytest.mark.skipif(MICROPYTHON is None, reason="no micropython binary")
def test_a_profile_costs_the_board_little_heap():
    """The board imports its profile on every press: plain constants only.
    With its citations in it, the Badger 2040's cost 8.6 KB of the RP2040's
    heap (the unix port's 64-bit objects cost more); now they live in
    hardware/citations/, which is never flashed."""
    code = ("import gc\n"
            "import hardware.profiles as P\n"
            "for n in P.NAMES:\n"
            "    gc.collect()\n"
            "    f = gc.mem_free()\n"
            "    p = P.load(n)\n"
            "    gc.collect()\n"
            "    print(n, f - gc.mem_free())\n")
    out = subprocess.run([MICROPYTHON, "-X", "heapsize=160K", "-c", code], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    costs = dict((line.split()[0], int(line.split()[1])) for line in out.stdout.splitlines())
    assert set(costs) == set(profiles.NAMES)
    for name, cost in costs.items():
        assert cost < 4096, "%s costs %d bytes of heap" % (name, cost)
        assert not hasattr(profiles.load(name), "SOURCES")
        assert citations.of(profiles.load(name)), name


def test_load_refuses_unknown_names():
    with pytest.raises(ValueError):
        profiles.load("os")


# --- wiring: regenerated, byte for byte -------------------------------------------

def test_wiring_files_match_the_profiles():
    for path, text in wiring.outputs().items():
        assert os.path.exists(path), "%s missing: run hardware/tools/wiring.py --write" % path
        assert open(path, encoding="utf-8").read() == text, (
            "%s drifted from its profile: run hardware/tools/wiring.py --write" % path)


def test_wiring_covers_the_pico_builds_only():
    assert sorted(wiring.wired_builds()) == ["pico_epaper29", "pico_inky_pack"]


def test_wiring_table_lists_every_pin(profile):
    if profile.MCU_BOARD != "pico":
        pytest.skip("not a hand-wired build")
    table = wiring.table(profile.NAME)
    for _job, gpio in contract.pin_jobs(profile):
        assert "| GP%d |" % gpio in table


def test_readme_wiring_tables_are_current():
    text = open(README, encoding="utf-8").read()
    assert wiring.readme_with_tables(text) == text
    for name in wiring.wired_builds():
        assert "<!-- BEGIN wiring:%s -->" % name in text


def test_svg_is_well_formed():
    import xml.etree.ElementTree as ET
    for name in wiring.wired_builds():
        root = ET.fromstring(wiring.svg(name))
        assert root.tag.endswith("svg")


# --- bill of materials --------------------------------------------------------------

def test_every_build_has_a_bom():
    for name in profiles.NAMES:
        rows = bom.read(name)
        options = {r["option"] for r in rows}
        assert {"core", "lipo", "aaa"} <= options
        assert all(r["qty"] > 0 and r["unit_gbp"] >= 0 and r["part_number"] for r in rows)


def test_readme_bom_totals_match_the_csvs():
    text = open(README, encoding="utf-8").read()
    assert bom.readme_with_table(text) == text, "run hardware/tools/bom.py --write"
    # and independently of bom.py's own arithmetic
    for name in profiles.NAMES:
        with open(os.path.join(HW, "bom", name + ".csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        core = sum(int(r["qty"]) * float(r["unit_gbp"]) for r in rows if r["option"] == "core")
        for opt in ("lipo", "aaa"):
            total = core + sum(int(r["qty"]) * float(r["unit_gbp"])
                               for r in rows if r["option"] == opt)
            assert "£%.2f" % total in text.split("<!-- BEGIN bom -->")[1].split(
                "<!-- END bom -->")[0].split("bom/%s.csv" % name)[1].split("\n")[0]


# --- power budget ---------------------------------------------------------------------

def test_power_budget_runs_and_prints_json():
    out = subprocess.run([sys.executable, os.path.join(HW, "tools", "power_budget.py"), "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [b["profile"] for b in data["builds"]] == list(profiles.NAMES)
    for b in data["builds"]:
        assert b["press_mj"] > 0 and b["game_j"] > 0
        for batt in b["batteries"].values():
            assert batt["games"] > 0 and batt["days"] > 0
    assert all(f["source"] and f["kind"] in ("vendor", "measured", "budget", "assumed")
               for f in data["figures"])


def test_power_budget_follows_the_profile():
    # a latch board pays a cold boot every press; a Pico build does not
    latch = power_budget.budget("badger2040")
    sleeper = power_budget.budget("pico_inky_pack")
    assert [p["phase"] for p in latch["press_phases"]][0] == "cold boot"
    assert all(p["phase"] != "cold boot" for p in sleeper["press_phases"])
    assert latch["press_mj"] > sleeper["press_mj"]
    # more presses cost more
    assert power_budget.budget("badger2040", presses=2000)["game_j"] > latch["game_j"]


def test_power_budget_has_the_awake_model_of_the_latch_builds():
    """A latch build's two models on battery (a cold boot every press; awake
    in a game), days on a charge for one game night a week and one a day,
    the break-even said against the idle time-out, which is the firmware's."""
    import re
    assert power_budget.budget("pico_inky_pack")["awake"] is None
    a = power_budget.budget("badger2040")["awake"]
    for model in ("cold_boot_every_press", "awake_in_a_game"):
        assert a["night_mah"][model] > 0
        for d in a["days"][model].values():
            assert d["one_night_a_week"] > d["one_night_a_day"] > 0
    assert 0 < a["break_even_s"] < 60
    assert "is over it" in power_budget.awake_words(a)
    app = open(os.path.join(os.path.dirname(HW), "firmware", "app.py"), encoding="utf-8").read()
    assert int(re.search(r"^IDLE_MIN = (\d+)", app, re.M).group(1)) == a["idle_minutes"]
    # fewer presses a night: staying up costs more than it saves
    slow = power_budget.budget("badger2040", presses=300)["awake"]["night_mah"]
    assert slow["awake_in_a_game"] > slow["cold_boot_every_press"]


def test_readme_power_section_is_current():
    text = open(README, encoding="utf-8").read()
    assert power_budget.readme_with_section(text, list(profiles.NAMES)) == text
    assert "<!-- BEGIN power -->" in text


# --- enclosure -----------------------------------------------------------------------

def test_stand_knows_every_board():
    scad = open(os.path.join(HW, "enclosure", "stand.scad"), encoding="utf-8").read()
    for name in profiles.NAMES:
        assert '["%s",' % name in scad
    assert "openscad -D 'board=\"badger2040\"' -o stand.stl hardware/enclosure/stand.scad" in \
        open(README, encoding="utf-8").read()
