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
    for name in ("root_window", "minimal_window", "pruning", "second_highest", "tt_key",
                 "thesis_search"):
        assert name in C.PARAMETERS
    assert C.PARAMETERS["thesis_search"].default == "thesis"
    assert SEARCH_VARIANTS["thesis"] == {"root": "alphabeta", "minimal_window": "thesis",
                                         "pruning": "thesis", "second_highest": "queen",
                                         "tt_key": "thesis"}
    assert (C.PARAMETERS["second_highest"].default, C.PARAMETERS["tt_key"].default) == (
        "always", "seat")


def test_sound_table1_config_is_the_stored_one():
    """Table 1's config at the defaults is the one its stored manifest records (so the
    stored results keep their task keys)."""
    cfg = C._table1_config(_defaults())
    manifest = json.loads((ROOT / "data/tarok/table1.json").read_text())
    assert cfg == manifest["configs"][0]["config"]


def test_thesis_config_sets_all_five_switches():
    p = _defaults()
    cfg = C._search(p, ["all"], [9], variant="thesis")
    assert (cfg["root_window"], cfg["minimal_window"], cfg["pruning"], cfg["second_highest"],
            cfg["tt_key"]) == ("alphabeta", "thesis", "thesis", "queen", "thesis")
    sound = C._search({**p, "minimal_window": "thesis"}, ["all"], [9])
    assert sound["minimal_window"] == "thesis" and "pruning" not in sound
    assert "second_highest" not in sound and "tt_key" not in sound


def test_table1_and_table8_experiments_share_their_samples():
    """Every Table 1 / Table 8 experiment draws its samples from the deal and the sample index
    (common random numbers) and counts the table's answers; the sound fuzzy test keeps its
    stored task seed."""
    p = _defaults()
    for cfg in (C._table1_config(p), C._search(p, ["all"], [3], root_window="alphabeta"),
                C._search(p, ["all"], [9], variant="thesis")):
        assert cfg["sample_seed"] == "deal" and cfg["count_tt"] is True
    fuzzy = C._search(p, ["all"], [9], tricks_played="random", sample_seed="task",
                      count_tt=False)
    assert "sample_seed" not in fuzzy and "count_tt" not in fuzzy


def test_thesis_steps_are_cumulative_and_end_before_the_thesis_configuration():
    steps = C.THESIS_STEPS
    assert all(set(a.items()) < set(b.items()) for a, b in zip(steps, steps[1:]))
    last = {**steps[-1], "tt_key": "thesis"}
    v = SEARCH_VARIANTS["thesis"]
    assert last == {k: v[k] for k in ("pruning", "minimal_window", "second_highest", "tt_key")}


def test_stored_thesis_fuzzy_and_window_configs_keep_their_keys():
    """The fuzzy-table and window experiments of the thesis configuration keep the configs
    their manifests record (computed before the last two readings; the chapter says so)."""
    p = _defaults()
    cfg = C._without_last_readings(C._search(
        p, ["all", "all_exact_tt"], [p["table1_depth"]], tricks_played="random",
        variant="thesis", sample_seed="task", count_tt=False))
    manifest = json.loads((ROOT / "data/tarok/fuzzy_tt_thesis.json").read_text())
    assert cfg == manifest["configs"][0]["config"]
    assert "second_highest" not in cfg and "tt_key" not in cfg
