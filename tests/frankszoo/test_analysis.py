"""How Table 4 settles RandomAI's passing (the paper is silent; the chapter decides by evidence)."""

import pandas as pd

from gameai.frankszoo.analysis import settle_pass_rule, voluntary_passing_fits


def errors(**share_mae):
    return pd.DataFrame({"pass_rule": list(share_mae), "share_mae": list(share_mae.values())})


def test_voluntary_passing_wins_when_clearly_closer_and_the_literal_reading_is_taken():
    # 'open' a hair closer than 'uniform': Table 4 cannot tell them apart, §2's text decides
    ev = errors(uniform=0.0173, open=0.0171, half=0.0182, forced=0.046)
    assert voluntary_passing_fits(ev)
    assert settle_pass_rule(ev) == "uniform"


def test_forced_passing_is_chosen_when_table4_points_to_it():
    ev = errors(uniform=0.040, open=0.041, half=0.039, forced=0.017)
    assert not voluntary_passing_fits(ev)
    assert settle_pass_rule(ev) == "forced"
    # a voluntary reading only slightly closer than 'forced' is not "clearly" closer
    ev = errors(uniform=0.030, open=0.031, half=0.032, forced=0.035)
    assert not voluntary_passing_fits(ev)
