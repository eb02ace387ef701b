import math

import numpy as np
import pytest

from gameai.core.stats import holm, mean_ci, mean_diff_ci, mean_of_means_ci, mean_of_rates_ci, wilson


def test_wilson_known_values():
    assert wilson(50, 100) == pytest.approx((0.5, 0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((1.0, 0.7225, 1.0), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.30798, 0.25522, 0.36630), abs=1e-4)


def test_wilson_edge_cases():
    assert all(math.isnan(v) for v in wilson(0, 0))
    with pytest.raises(ValueError):
        wilson(5, 3)


def test_mean_ci():
    m, lo, hi = mean_ci([1, 2, 3, 4, np.nan])
    sem = np.std([1, 2, 3, 4], ddof=1) / 2
    assert m == 2.5
    assert (lo, hi) == pytest.approx((2.5 - 1.96 * sem, 2.5 + 1.96 * sem))
    m, lo, hi = mean_ci([5.0])
    assert m == 5.0 and math.isnan(lo) and math.isnan(hi)
    assert all(math.isnan(v) for v in mean_ci([]))


def test_mean_of_rates_ci():
    m, lo, hi = mean_of_rates_ci([0.4, 0.6], [100, 100])
    half = 1.96 * math.sqrt(0.24 / 100 + 0.24 / 100) / 2
    assert m == pytest.approx(0.5)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    m, lo, hi = mean_of_rates_ci([0.5, np.nan], [100, 0])  # NaN groups are left out
    assert m == 0.5 and hi - lo == pytest.approx(2 * 1.96 * 0.05)
    with pytest.raises(ValueError):
        mean_of_rates_ci([0.5], [1, 2])


def test_mean_of_means_ci():
    m, lo, hi = mean_of_means_ci([1.0, 3.0], [0.1, 0.1])
    assert m == 2.0
    assert hi - m == pytest.approx(1.96 * math.sqrt(0.02) / 2)
    assert all(math.isnan(v) for v in mean_of_means_ci([], []))


def test_mean_diff_ci_is_welch():
    d, lo, hi = mean_diff_ci([1.0, 3.0, 5.0, np.nan], [0.0, 2.0])
    half = 1.96 * math.sqrt(4.0 / 3 + 2.0 / 2)
    assert math.isclose(d, 2.0) and math.isclose(lo, 2.0 - half) and math.isclose(hi, 2.0 + half)
    assert math.isnan(mean_diff_ci([1.0], [2.0, 3.0])[1])
    assert all(math.isnan(v) for v in mean_diff_ci([], [1.0]))


def test_holm_corrects_a_family_step_down():
    def ci(est, z):  # an interval with standard error 1 and estimate est (z-score z)
        return (est, est - 1.96, est + 1.96)

    # p-values (two-sided) for z = 5, 2.51, 1.96, 0.2: about 6e-7, 0.012, 0.050, 0.84
    family = [ci(5.0, 5), ci(2.51, 2.51), ci(1.96, 1.96), ci(0.2, 0.2)]
    # thresholds 0.05/4, 0.05/3, 0.05/2, 0.05: the first two pass, the third (0.050) stops
    assert holm(family) == [True, True, False, False]
    assert holm([ci(2.51, 2.51)] * 8) == [False] * 8  # eight at p = 0.012: none below 0.05/8
    assert holm([ci(-5.0, 5)]) == [True]  # two-sided


def test_holm_takes_a_zero_width_interval_at_zero_as_no_evidence():
    # Identical play on every deal gives (0, 0, 0): p = 1, not p = 0, so it must not use up
    # the family's easy thresholds and leave a marginal member facing alpha alone.
    marginal = (-0.06, -0.11, -0.01)  # p about 0.02
    assert holm([(0.0, 0.0, 0.0)] * 5 + [marginal]) == [False] * 6
    assert holm([(0.3, 0.3, 0.3)]) == [True]  # no spread but off zero: certain
    nan = float("nan")
    # a missing test is no evidence (was flagged as certain): the marginal one (p about 0.02)
    # then faces 0.05 / 2, as in any family of two
    assert holm([(nan, nan, nan), marginal]) == [False, True]
    assert holm([(nan, nan, nan)] * 3 + [marginal] * 2) == [False] * 5


def test_holm_and_bh_reject_known_families():
    from gameai.core.stats import bh_reject, holm_reject

    p = [0.01, 0.04, 0.03, 0.005, 0.5]
    # Holm: 0.005 < 0.05/5, 0.01 < 0.05/4, 0.03 >= 0.05/3 stops
    assert holm_reject(p) == [True, False, False, True, False]
    # BH: k = 4 is the largest with p_(k) <= k 0.05 / 5 (0.04 <= 0.04)
    assert bh_reject(p) == [True, True, True, True, False]
    assert holm_reject([math.nan, 0.001]) == [False, True]
    assert bh_reject([]) == [] and holm_reject([]) == []
    # the interval form is the same test
    assert holm([(3.0, 1.0, 5.0), (0.0, -1.0, 1.0)]) == holm_reject(
        [math.erfc(3.0 / (4 / (2 * 1.96)) / math.sqrt(2)), 1.0])


def test_common_shift_tells_an_offset_from_scatter():
    from gameai.core.stats import common_shift

    rng = np.random.default_rng(1)
    se = np.full(200, 1.0)
    noise = rng.normal(0, 1, 200)
    band = np.where(np.arange(200) < 100, "short", "long")
    d = noise + np.where(band == "long", -1.5, 0.0)  # a shift in one band only
    one = common_shift(d, se)
    two = common_shift(d, se, band)
    assert one["p0"] < 1e-6  # no shift at all: far beyond chance
    assert one["p"] < 0.01  # one common shift does not explain it either
    assert two["p"] > 0.05 and two["df"] == 198  # one per band does
    assert list(one["shifts"]) == [None]
    mu, lo, hi, n = two["shifts"]["long"]
    assert lo < -1.5 < hi and n == 100 and hi - lo == pytest.approx(2 * 1.96 / 10)
    assert two["shifts"]["short"][1] < 0 < two["shifts"]["short"][2]
    assert two["beyond"] < 20  # about 5 % of 200 beyond 1.96 se of their band's shift
    with pytest.raises(ValueError, match="standard errors"):
        common_shift([1.0], [0.0])
