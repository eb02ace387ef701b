"""Confidence intervals used to compare our numbers with the papers'.

A claim is "reproduced" when the paper's value lies inside our 95 % interval, so every interval
here is a plain, well-known one: Wilson for a single proportion (good near 0 and 1, unlike the
normal approximation), mean ± z·SEM for means, and a normal approximation for the unweighted mean
over groups (e.g. win rates averaged over decks, as the papers report them).
All functions return ``(estimate, low, high)`` and return NaN where the data cannot say.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["wilson", "mean_ci", "mean_diff_ci", "mean_of_rates_ci", "mean_of_means_ci", "holm"]

NAN3 = (math.nan, math.nan, math.nan)


def wilson(k: float, n: float, z: float = 1.96) -> tuple[float, float, float]:
    """Proportion ``k/n`` with its Wilson score interval; ``n == 0`` gives NaNs."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return NAN3
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(x: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of ``x`` (NaNs dropped) ± ``z`` standard errors; CI is NaN for fewer than 2 values."""
    a = np.asarray(x, dtype=float)
    a = a[~np.isnan(a)]
    if a.size == 0:
        return NAN3
    m = float(a.mean())
    if a.size < 2:
        return m, math.nan, math.nan
    sem = float(a.std(ddof=1)) / math.sqrt(a.size)
    return m, m - z * sem, m + z * sem


def mean_diff_ci(a: Sequence[float], b: Sequence[float], z: float = 1.96
                 ) -> tuple[float, float, float]:
    """Mean of ``a`` minus mean of ``b`` (independent samples, NaNs dropped) ± ``z`` standard
    errors of the difference (Welch); CI is NaN when either side has fewer than 2 values."""
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    x, y = x[~np.isnan(x)], y[~np.isnan(y)]
    if x.size == 0 or y.size == 0:
        return NAN3
    d = float(x.mean() - y.mean())
    if x.size < 2 or y.size < 2:
        return d, math.nan, math.nan
    half = z * math.sqrt(float(x.var(ddof=1)) / x.size + float(y.var(ddof=1)) / y.size)
    return d, d - half, d + half


def _group_ci(est: np.ndarray, var: np.ndarray, z: float) -> tuple[float, float, float]:
    keep = ~(np.isnan(est) | np.isnan(var))
    est, var = est[keep], var[keep]
    g = est.size
    if g == 0:
        return NAN3
    m = float(est.mean())
    half = z * math.sqrt(float(var.sum())) / g
    return m, m - half, m + half


def mean_of_rates_ci(
    rates: Sequence[float], ns: Sequence[float], z: float = 1.96
) -> tuple[float, float, float]:
    """Unweighted mean of per-group proportions with a normal-approximation CI.

    The variance of the mean of G independent proportions is ``sum(p_g (1-p_g) / n_g) / G**2``.
    Groups whose rate is NaN are left out.
    """
    p = np.asarray(rates, dtype=float)
    n = np.asarray(ns, dtype=float)
    if p.shape != n.shape:
        raise ValueError(f"rates and ns must have the same length, got {p.size} and {n.size}")
    if np.any(n[~np.isnan(p)] <= 0):
        raise ValueError("every group with a rate needs n > 0")
    with np.errstate(divide="ignore", invalid="ignore"):
        var = p * (1 - p) / n
    return _group_ci(p, var, z)


def mean_of_means_ci(
    means: Sequence[float], sems: Sequence[float], z: float = 1.96
) -> tuple[float, float, float]:
    """Unweighted mean of per-group means; variance ``sum(sem_g**2) / G**2``. NaN groups left out."""
    m = np.asarray(means, dtype=float)
    s = np.asarray(sems, dtype=float)
    if m.shape != s.shape:
        raise ValueError(f"means and sems must have the same length, got {m.size} and {s.size}")
    return _group_ci(m, s * s, z)


def holm(intervals: Sequence[tuple[float, float, float]], alpha: float = 0.05,
         z: float = 1.96) -> list[bool]:
    """Which of a family of normal-approximation ``(estimate, low, high)`` intervals differ from 0
    after Holm's step-down correction for testing them all (Holm 1979): the p-values, two-sided,
    come from each interval's standard error ``(high - low) / (2 z)``; sorted ascending, the
    k-th (from 0) must be below ``alpha / (m - k)``, and testing stops at the first that is not.
    A plain 95 % interval per claim treats each test on its own; this is the check for a family
    (e.g. eight ablations of one evaluator) where a marginal interval may be one chance in eight."""
    p = []
    for est, lo, hi in intervals:
        se = (hi - lo) / (2 * z)
        if any(math.isnan(v) for v in (est, lo, hi)):  # nothing measured (fewer than 2 pairs)
            p.append(1.0)
        elif se > 0:
            p.append(math.erfc(abs(est) / se / math.sqrt(2)))
        else:  # no spread: certain when the estimate is off 0, no evidence at all when it is 0
            p.append(0.0 if est != 0 else 1.0)
    order = sorted(range(len(p)), key=p.__getitem__)
    out = [False] * len(p)
    for k, i in enumerate(order):
        if p[i] >= alpha / (len(p) - k):
            break
        out[i] = True
    return out
