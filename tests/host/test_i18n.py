"""The catalogues: every message the board can show is in the English
source, every language has every message, and no template drops or
invents a slot."""

import pytest

from pipkeeper import i18n
from pipkeeper.i18n import sources


def test_the_english_catalogue_is_the_messages_in_the_sources():
    found = sources.found()
    listed = set(i18n.english())
    assert not set(found) - listed, "messages missing from catalogue/en.py: %s" % sorted(
        "%s (%s)" % (m, found[m]) for m in set(found) - listed)
    assert not listed - set(found), "catalogue/en.py lists messages no source shows: %s" % sorted(
        listed - set(found))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_catalogue_lacks_a_key_or_drops_a_slot(lang):
    assert i18n.problems(lang) == []


def test_a_dropped_invented_or_missing_slot_is_found(monkeypatch):
    from pipkeeper.i18n.catalogue import cy
    bad = dict(cy.MESSAGES)
    bad["{name} leads"] = "sy'n dechrau"                 # dropped
    bad["Yard {n}"] = "Iard ieir {k}"                   # invented instead
    del bad["Menu"]
    bad["Not a message"] = "Dim"
    monkeypatch.setattr(cy, "MESSAGES", bad)
    found = "\n".join(i18n.problems("cy"))
    for m in ("{name} leads", "Yard {n}", "missing 'Menu'", "'Not a message' is not an English"):
        assert m in found


def test_the_firmware_offers_the_same_languages():
    from firmware.flows import setup
    assert setup.LANGS == i18n.LANGS
    assert setup.ENDONYMS == tuple(i18n.ENDONYMS[k] for k in i18n.LANGS)


def test_a_message_is_found_in_each_of_its_forms(tmp_path):
    (tmp_path / "firmware" / "flows").mkdir(parents=True)
    (tmp_path / "firmware" / "screens").mkdir()
    (tmp_path / "shared_engine").mkdir()
    for f in ("firmware/core.py", "firmware/app.py", "shared_engine/engine.py",
              "shared_engine/scoring.py", "shared_engine/presets.py"):
        (tmp_path / f).write_text("")
    (tmp_path / "firmware" / "flows" / "x.py").write_text(
        'a = ("Menu",)\nb = ("{name} leads", n)\nc = labels("Play", "-1" if v else "back")\n'
        'raise IllegalEvent("the game is over")\nd = ("Rules", [x])\n'
        'e = ("win: {why}" if k else "wins: {why}", w)\n')
    got = set(sources.found(tmp_path)) - set(sources.DYNAMIC)
    assert got == {"Menu", "{name} leads", "Play", "-1", "back", "the game is over",
                   "win: {why}", "wins: {why}"}
