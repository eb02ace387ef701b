"""The chapter's search switches: listed as parameters, the thesis configuration one named
setting, and the sound experiments' configs (their task keys) unchanged by the new switches."""

import json
from pathlib import Path

import gameai  # noqa: F401
from gameai.tarok import chapter as C
from gameai.tarok.search import SEARCH_VARIANTS

ROOT = Path(__file__).resolve().parents[2]


def _defaults():
    return {k: p.default for k, p in C.PARAMETERS.items()}


def test_switches_are_parameters():
    for name in ("root_window", "minimal_window", "pruning", "thesis_search"):
        assert name in C.PARAMETERS
    assert C.PARAMETERS["thesis_search"].default == "thesis"
    assert SEARCH_VARIANTS["thesis"] == {"root": "alphabeta", "minimal_window": "thesis",
                                         "pruning": "thesis"}


def test_sound_table1_config_is_the_stored_one():
    """Table 1's config at the defaults is the one its stored manifest records (so the
    stored results keep their task keys)."""
    cfg = C._table1_config(_defaults())
    manifest = json.loads((ROOT / "data/tarok/table1.json").read_text())
    assert cfg == manifest["configs"][0]["config"]


def test_thesis_config_sets_all_three_switches():
    p = _defaults()
    cfg = C._search(p, ["all"], [9], variant="thesis")
    assert (cfg["root_window"], cfg["minimal_window"], cfg["pruning"]) == (
        "alphabeta", "thesis", "thesis")
    sound = C._search({**p, "minimal_window": "thesis"}, ["all"], [9])
    assert sound["minimal_window"] == "thesis" and "pruning" not in sound
