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

__all__ = ["wilson", "mean_ci", "mean_diff_ci", "mean_of_rates_ci", "mean_of_means_ci", "holm",
           "holm_reject", "bh_reject", "common_shift"]

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
    return holm_reject(p, alpha)


def holm_reject(p: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which of a family's p-values are rejected by Holm's step-down procedure (Holm 1979), which
    keeps the chance of *any* false rejection in the family at ``alpha``: sorted ascending, the
    k-th (from 0) must be below ``alpha / (m - k)``; testing stops at the first that is not.
    NaN p-values count as 1 (no evidence)."""
    q = [1.0 if math.isnan(v) else float(v) for v in p]
    order = sorted(range(len(q)), key=q.__getitem__)
    out = [False] * len(q)
    for k, i in enumerate(order):
        if q[i] >= alpha / (len(q) - k):
            break
        out[i] = True
    return out


def bh_reject(p: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which of a family's p-values are rejected by the Benjamini-Hochberg step-up procedure,
    which keeps the expected *share* of false rejections among the rejections at ``alpha``
    (independent tests): sorted ascending, the largest k with ``p_(k) <= k alpha / m`` (k from 1)
    and every smaller p are rejected. NaN p-values count as 1."""
    q = [1.0 if math.isnan(v) else float(v) for v in p]
    m = len(q)
    order = sorted(range(m), key=q.__getitem__)
    last = max((k for k in range(1, m + 1) if q[order[k - 1]] <= k * alpha / m), default=0)
    out = [False] * m
    for i in order[:last]:
        out[i] = True
    return out


def common_shift(d: Sequence[float], se: Sequence[float],
                 groups: Sequence[object] | None = None, z: float = 1.96) -> dict:
    """A systematic offset told apart from scatter: independent differences ``d`` with standard
    errors ``se`` are modelled as one common shift per group (``groups``; one shift for all when
    None) plus sampling error. Returns, per group, the inverse-variance weighted shift with its
    95 % CI (``shifts``: group -> (shift, low, high, cells)); the chi-square of the differences
    around zero (``q0``, df = cells: no shift at all) and around their group's shift (``q``,
    df = cells - groups), with their p-values (``p0``, ``p``); and how many differences lie
    beyond ``z`` standard errors of their group's shift (``beyond``). ``p`` at or above 5 %
    says the rest is at chance level once the shifts are allowed for."""
    from scipy.stats import chi2

    d, se = np.asarray(d, dtype=float), np.asarray(se, dtype=float)
    g = [None] * d.size if groups is None else list(groups)
    if not (d.size == se.size == len(g)) or d.size == 0 or np.any(~(se > 0)):
        raise ValueError("common_shift needs as many differences, standard errors (> 0) and "
                         f"groups, at least one; got {d.size}, {se.size}, {len(g)}")
    w = 1 / se ** 2
    shifts, fitted = {}, np.empty_like(d)
    for key in dict.fromkeys(g):  # groups in order of first appearance
        at = np.array([x == key for x in g])
        mu = float((w[at] * d[at]).sum() / w[at].sum())
        half = z / math.sqrt(float(w[at].sum()))
        shifts[key] = (mu, mu - half, mu + half, int(at.sum()))
        fitted[at] = mu
    q0, q = float((w * d ** 2).sum()), float((w * (d - fitted) ** 2).sum())
    dof = d.size - len(shifts)
    return {"shifts": shifts, "cells": int(d.size), "q0": q0, "df0": int(d.size),
            "p0": float(chi2.sf(q0, d.size)), "q": q, "df": dof,
            "p": float(chi2.sf(q, dof)) if dof > 0 else math.nan,
            "beyond": int((np.abs(d - fitted) / se > z).sum())}
