"""The claims table: what each paper says, what we measured, and whether it holds.

Each chapter ends by writing ``data/<chapter>/claims.csv`` with one row per claim of the paper. The
book renders these tables with :func:`gameai.book.claims_table.claims_table` and the introduction shows a
scorecard over all chapters, so the format is fixed (:data:`COLUMNS`) and checked on write:
a claim that ``differs`` or ``fails`` must say why in its note, and a ``pending`` claim must say
what is missing.

The verdict of a numeric claim (:func:`verdict_for`) weighs both studies' sampling error:

* ``reproduced`` - the paper's *rounding interval* meets our 95 % CI. Papers print rounded
  numbers: a printed 70 % stands for any value in [69.5 %, 70.5 %). The rounding step is stored
  per claim (column ``step``: 0.01 for a whole percentage written as a fraction, 0 for an exact
  value) and can be derived from the printed text with :func:`printed_value`.
* ``consistent`` - outside our CI, but the gap (less half the rounding step) is within the 95 %
  error of a difference between two samples, ours and the paper's (:func:`two_study_error`). The
  paper's games are a sample too: with 200 games a side, a perfect replication lands outside
  our CI in roughly one cell in six, and a two-sample test at 5 % in one in twenty.
* ``differs`` - beyond that error (or, where the paper gives no n, outside our CI: then the
  rounding rule alone judges, and the note says so). The note says by how much, in units of
  that error.
* ``not comparable`` - a number whose unit or setting is not ours to match (seconds on 2003
  hardware, node counts where the paper does not define a node): shown beside ours, not
  judged; its note names the comparable claim that carries the verdict.
* ``holds`` / ``fails`` for claims in words (``undecided`` when the test of a claim in words
  decides neither way at the games played), ``pending`` for what is not computed yet.

Column ``n_paper`` is the paper's sample size (0: not given) and ``proportion`` says whether the
value is a proportion, and how it is written: 0 for a mean (the paper's spread is scaled from
ours), 1 for a fraction, 100 for a percentage (binomial spread). Column ``percent`` is 1 where
the values are fractions the book shows as percentages (a mean score of 0.57 read as 57 %), so
that the verdict rule's sentence gives gaps in percentage points, as the rest of the note does.
"""

from __future__ import annotations

import math
import numbers
import os
import re
from dataclasses import asdict, dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import pandas as pd

from .numbers import ci_range, number
from .io import atomic_to_csv

__all__ = [
    "COLUMNS",
    "VERDICTS",
    "Claim",
    "printed_value",
    "rounding_interval",
    "verdict_for",
    "two_study_error",
    "judged",
    "verdict_count",
    "expected_by_chance",
    "FAMILY_MIN",
    "family_of",
    "claim_p_value",
    "family_counts",
    "family_sentence",
    "family_offset",
    "offset_sentence",
    "scorecard_families",
    "quantitative",
    "paper_sampling_gap",
    "not_comparable",
    "qualitative",
    "pending",
    "write_claims",
    "read_claims",
    "scorecard",
    "style_claims",
]

COLUMNS = ["claim", "description", "paper", "ours", "ci_low", "ci_high", "n", "verdict", "note",
           "step", "n_paper", "proportion", "percent"]
VERDICTS = ("reproduced", "consistent", "differs", "not comparable", "holds", "fails",
            "undecided", "pending")
#: The verdicts of a numeric claim that is judged (the test behind "expected by chance").
JUDGED = ("reproduced", "consistent", "differs")
NEEDS_NOTE = ("differs", "fails", "undecided", "pending", "not comparable")
#: The level of every verdict's test: a judged claim whose paper value is right still
#: reads *differs* with about this probability.
ALPHA = 0.05
Z95 = 1.959963984540054
FILENAME = "claims.csv"


@dataclass(frozen=True)
class Claim:
    """One row of a chapter's claims table (fields in the order of :data:`COLUMNS`).

    ``step`` is the rounding step of the paper's printed value, in the units of ``paper``
    (0.01 for a whole percentage stored as a fraction); 0 means the value is exact.
    ``n_paper`` is the paper's sample size (0: not given); ``proportion`` is 0 for a mean, else
    what a proportion of one is written as (1: a fraction, 100: a percentage). ``percent`` is 1
    where fractions are shown as percentages (gaps in the notes then in percentage points).
    """

    claim: str
    description: str
    paper: Any
    ours: Any
    ci_low: float
    ci_high: float
    n: int
    verdict: str
    note: str = ""
    step: float = 0.0
    n_paper: int = 0
    proportion: float = 0.0
    percent: int = 0


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


_PRINTED = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*(%?)\s*$")


def _finite(v: Any) -> bool:
    return _is_number(v) and not math.isnan(v)


def printed_value(text: str) -> tuple[float, float]:
    """``(value, step)`` of a number as a paper prints it; percentages become fractions.

    ``"70 %"`` -> ``(0.70, 0.01)``, ``"30.8%"`` -> ``(0.308, 0.001)``, ``"85"`` -> ``(85.0, 1.0)``,
    ``"0.25"`` -> ``(0.25, 0.01)``: the step is one unit of the last printed digit.
    """
    m = _PRINTED.match(str(text))
    if not m:
        raise ValueError(f"not a printed number: {text!r} (expected e.g. '70 %', '30.8%', '85')")
    number, percent = m.groups()
    d = Decimal(number)
    step = Decimal(1).scaleb(d.as_tuple().exponent)
    if percent:
        d, step = d / 100, step / 100
    return float(d), float(step)


def rounding_interval(paper: float, step: float = 0.0) -> tuple[float, float]:
    """The values a printed ``paper`` can stand for: ``[paper - step/2, paper + step/2)``."""
    step = 0.0 if step is None or (isinstance(step, float) and math.isnan(step)) else float(step)
    if step < 0:
        raise ValueError(f"rounding step must be >= 0, got {step}")
    return paper - step / 2, paper + step / 2


def _meets(paper: float, lo: float, hi: float, step: float) -> bool:
    """Whether the rounding interval of ``paper`` meets our CI ``[lo, hi]``: with ``step == 0``
    ``lo <= paper <= hi``; with a step, the half-open ``[paper - step/2, paper + step/2)`` must
    overlap ``[lo, hi]`` (a printed 70 % with step 0.01 is met by a CI of [70.4 %, 72 %], not by
    one of [70.5 %, 72 %]). False when the CI is NaN. A tiny tolerance absorbs binary rounding."""
    a, b = rounding_interval(paper, step)
    eps = 1e-12 * max(1.0, abs(paper))
    if a == b:
        return lo - eps <= paper <= hi + eps
    return a <= hi + eps and b > lo + eps


def two_study_error(ours: float, lo: float, hi: float, n: int, n_paper: int,
                    proportion: float = 0.0) -> float:
    """The 95 % error of a difference between our value and the paper's when both are samples:
    ``sqrt(h_ours**2 + h_paper**2)``, ``h_ours`` our CI's half-width. Papers rarely give a CI,
    so the paper's half-width is estimated from our data over its own ``n_paper``: for a mean,
    ours scaled by ``sqrt(n / n_paper)`` (the same spread per game); for a proportion
    (``proportion`` = 1 for a fraction, 100 for a percentage), the binomial
    ``1.96 sqrt(p (1 - p) / n_paper)`` with the Agresti-Coull estimate ``p = (x + 2) / (n + 4)``
    of ours, so that a proportion of 0 or 1 still has a spread. (Two 95 % intervals that
    merely overlap are not that test: they admit gaps up to h_ours + h_paper, about 1.4 times
    too large.) NaN without both n."""
    if not (n and n_paper) or not all(map(math.isfinite, (ours, lo, hi))):
        return math.nan
    h_ours = (hi - lo) / 2
    if proportion:
        p = (ours / proportion * n + 2) / (n + 4)
        p = min(max(p, 0.0), 1.0)
        h_paper = Z95 * proportion * math.sqrt(p * (1 - p) / n_paper)
    else:
        h_paper = h_ours * math.sqrt(n / n_paper)
    return math.hypot(h_ours, h_paper)


def _gap(paper: float, ours: float, step: float) -> float:
    """How far our value lies from the paper's rounding interval."""
    return max(0.0, abs(ours - paper) - step / 2)


def verdict_for(paper: float, lo: float, hi: float, step: float = 0.0, *,
                ours: float | None = None, n: int = 0, n_paper: int = 0,
                proportion: float = 0.0) -> str:
    """The verdict of a numeric claim (module docstring): ``"reproduced"`` when the rounding
    interval of ``paper`` meets our CI ``[lo, hi]``; else, given our value, our ``n`` and the
    paper's ``n_paper``, ``"consistent"`` when the gap is within :func:`two_study_error`;
    ``"differs"`` otherwise (also when the CI is NaN, and when the paper gives no n)."""
    if _meets(paper, lo, hi, step):
        return "reproduced"
    if ours is not None and n_paper:
        error = two_study_error(ours, lo, hi, n, n_paper, proportion)
        if math.isfinite(error) and _gap(paper, ours, step) <= error * (1 + 1e-9):
            return "consistent"
    return "differs"


def _fmt_gap(x: float, proportion: float, percent: int = 0, unit: str = "") -> str:
    """A gap in the claim's units: points for a proportion or a fraction shown as a percentage,
    three significant digits else, followed by ``unit`` where the caller names one."""
    if proportion == 1 or (percent and proportion == 0):
        return f"{x * 100:.1f} points"
    if proportion == 100:
        return f"{x:.1f} points"
    return f"{x:.3g} {unit}" if unit else f"{x:.3g}"


def verdict_note(claim: Claim, unit: str = "") -> str:
    """The sentence the verdict rule adds to a numeric claim's note: for *consistent* and
    *differs*, the gap and the two-study error (and their ratio), in ``unit`` for a mean
    ("points"); where the paper gives no n, that the rounding rule alone judged it."""
    if claim.verdict not in ("consistent", "differs") or not _is_number(claim.paper):
        return ""
    gap = _gap(claim.paper, claim.ours, claim.step)
    if not claim.n_paper:
        return ("The paper gives no sample size, so only our 95 % CI judges it: ours is "
                f"{_fmt_gap(gap, claim.proportion, claim.percent, unit)} from its printed value.")
    error = two_study_error(claim.ours, claim.ci_low, claim.ci_high, claim.n, claim.n_paper,
                            claim.proportion)
    if not math.isfinite(error) or error <= 0:
        return ""
    where = "within" if claim.verdict == "consistent" else "beyond"
    return (f"Ours is {_fmt_gap(gap, claim.proportion, claim.percent, unit)} from the printed value, "
            f"{gap / error:.2f} times the 95 % error of a difference between our "
            f"{int(claim.n):,} and the paper's {int(claim.n_paper):,} (\u00b1"
            f"{_fmt_gap(error, claim.proportion, claim.percent, unit)}): {where} what chance explains.")


def quantitative(
    claim: str, description: str, paper: float | str, ours: float, lo: float, hi: float, n: int,
    note: str = "", step: float | None = None, *, n_paper: int | None = None,
    proportion: float = 0.0, percent: bool = False, unit: str = "",
) -> Claim:
    """A numeric claim, judged by :func:`verdict_for`.

    ``paper`` is a number (then ``step`` is its rounding step, default 0: exact) or the printed
    text (``"44 %"``), from which the value and the step are derived. ``n_paper`` is the
    number of games (or positions, deals...) behind the paper's value, None or 0 where the paper
    gives none or the value is not a sample; ``proportion`` says whether it is a proportion
    (0: a mean; 1: a fraction; 100: a percentage); ``percent``, whether a fraction is shown as
    a percentage; ``unit`` names a mean's unit in the verdict rule's sentence ("points"). The
    verdict rule's sentence (:func:`verdict_note`) is appended to ``note``,
    and where ``n`` is smaller than ``n_paper`` (a rerun at a smaller scale) a sentence saying so.
    """
    if isinstance(paper, str):
        paper, derived = printed_value(paper)
        step = derived if step is None else step
    step = 0.0 if step is None else float(step)
    n_paper = int(n_paper or 0)
    if proportion not in (0, 1, 100):
        raise ValueError(f"proportion must be 0 (a mean), 1 (a fraction) or 100 (a percentage); "
                         f"got {proportion!r}")
    verdict = verdict_for(float(paper), lo, hi, step, ours=float(ours), n=int(n),
                          n_paper=n_paper, proportion=float(proportion))
    c = Claim(claim, description, float(paper), float(ours), float(lo), float(hi), int(n),
              verdict, note, step, n_paper, float(proportion), int(bool(percent)))
    extra = verdict_note(c, unit)
    if 0 < int(n) < n_paper:  # a rerun at a smaller scale: its verdict is the weaker for it
        extra = _sentences(extra, f"Judged on n = {int(n):,}, fewer than the paper's {n_paper:,}.")
    return replace(c, note=_sentences(note, extra)) if extra else c


def _sentences(*parts: str) -> str:
    """Notes joined as sentences: each part ends with a full stop before the next begins."""
    parts = [p.strip() for p in parts if p and p.strip()]
    return " ".join(p if i == len(parts) - 1 or p.endswith((".", "!", "?")) else p + "."
                    for i, p in enumerate(parts))


def paper_sampling_gap(claim: Claim, n_paper: int | None = None) -> tuple[float, float] | None:
    """For a consistent or differing claim with a CI and a paper n (``n_paper`` or the claim's
    own): ``(gap, error)`` - how far our value lies from the paper's rounding interval, and
    :func:`two_study_error`. None for any other claim."""
    n_paper = n_paper or claim.n_paper
    if (claim.verdict not in ("consistent", "differs") or not n_paper or not claim.n
            or not _is_number(claim.paper) or math.isnan(claim.ci_low)):
        return None
    error = two_study_error(claim.ours, claim.ci_low, claim.ci_high, claim.n, n_paper,
                            claim.proportion)
    return _gap(claim.paper, claim.ours, claim.step), error


def not_comparable(claim: str, description: str, paper: Any, ours: Any, lo: float, hi: float,
                   n: int, note: str, step: float = 0.0) -> Claim:
    """A number shown beside the paper's but not judged: its unit or setting is not ours to
    match. ``note`` must say why and which comparable claim carries the verdict."""
    return Claim(claim, description, paper, ours, float(lo), float(hi), int(n),
                 "not comparable", note, float(step))


#: Verdicts that are verbs, as they read after a count other than one ("3 differ").
_PLURAL = {"differs": "differ", "holds": "hold", "fails": "fail"}


def verdict_count(n: int, verdict: str) -> str:
    """``n`` claims of one verdict in words: "1 differs", "3 differ", "2 reproduced"."""
    return f"{n} {verdict if n == 1 else _PLURAL.get(verdict, verdict)}"


def judged(df: pd.DataFrame) -> int:
    """How many of a claims table's numeric claims are judged (reproduced, consistent or
    differs)."""
    return int(df["verdict"].isin(JUDGED).sum())


def expected_by_chance(df: pd.DataFrame) -> float:
    """How many *differs* chance alone gives among a claims table's judged numeric claims if
    every paper value were right: each test has level :data:`ALPHA` (about 5 %)."""
    return ALPHA * judged(df)


# ------------------------------------------------------------------ families of claims
#: A claims family (one paper table or figure: the claim ids' common prefix) is also judged as a
#: whole once it has this many judged numbers: many cells give chance many tries.
FAMILY_MIN = 10


def family_of(claim: str) -> str:
    """A claim's family: its id up to the first dot (``"table3"`` for ``"table3.UCT-FG.0.1"``)."""
    return str(claim).split(".", 1)[0]


def _row_error(r: Any) -> float:
    """The 95 % error the verdict rule compared a claim's gap with: :func:`two_study_error`
    where the paper gives its n, else our CI's half-width (the rounding rule alone)."""
    if r.n_paper:
        return two_study_error(float(r.ours), float(r.ci_low), float(r.ci_high), int(r.n),
                               int(r.n_paper), float(r.proportion))
    return (float(r.ci_high) - float(r.ci_low)) / 2


def claim_p_value(r: Any) -> float:
    """The two-sided p-value of a judged numeric claim's test (a row of :func:`read_claims`):
    its gap from the paper's rounding interval in units of the standard error behind the
    verdict rule's error (that error / 1.96). A claim *differs* exactly when this p is below
    :data:`ALPHA`, so Holm's and Benjamini-Hochberg's corrections can be applied to a family
    of verdicts. NaN for a claim that is not judged."""
    if r.verdict not in JUDGED or not _finite(r.paper) or not _finite(r.ours):
        return math.nan
    gap = _gap(float(r.paper), float(r.ours), float(r.step or 0.0))
    error = _row_error(r)
    if not math.isfinite(error) or error <= 0:
        return 0.0 if gap > 0 else 1.0
    return math.erfc(gap / (error / Z95) / math.sqrt(2))


def family_counts(df: pd.DataFrame, min_claims: int = FAMILY_MIN,
                  family: Callable[[str], str] = family_of) -> pd.DataFrame:
    """For each claims family of a chapter (``family`` of the claim id) with at least
    ``min_claims`` judged numbers: how many are judged, how many *differ*, how many chance alone
    would give (:data:`ALPHA` each), and how many still differ after Holm's correction (no false
    alarm in the family, 95 %) and after Benjamini-Hochberg's (at most 5 % false alarms among
    those that differ), both at :data:`ALPHA` on :func:`claim_p_value`."""
    from .stats import bh_reject, holm_reject

    cols = ["family", "judged", "differs", "by_chance", "holm", "bh"]
    rows = []
    judged_rows = df[df["verdict"].isin(JUDGED)]
    for fam, g in judged_rows.groupby(judged_rows["claim"].map(family), sort=False):
        if len(g) < min_claims:
            continue
        p = [claim_p_value(r) for r in g.itertuples(index=False)]
        rows.append({"family": fam, "judged": len(g), "differs": int((g["verdict"] == "differs").sum()),
                     "by_chance": ALPHA * len(g), "holm": sum(holm_reject(p, ALPHA)),
                     "bh": sum(bh_reject(p, ALPHA))})
    return pd.DataFrame(rows, columns=cols)


def family_sentence(rec: Mapping[str, Any]) -> str:
    """One family's counts in words (a row of :func:`family_counts`): "18 differ (about 8.6 by
    chance); after correction: 3 (Holm), 6 (Benjamini-Hochberg)"."""
    return (f"{int(rec['differs'])} of {int(rec['judged'])} differ (about {rec['by_chance']:.1f} "
            f"by chance); after correction: {int(rec['holm'])} (Holm), {int(rec['bh'])} "
            "(Benjamini–Hochberg)")


def family_offset(df: pd.DataFrame, family: str, band: Callable[[str], Any] | None = None,
                  fam_of: Callable[[str], str] = family_of) -> dict | None:
    """Offset against scatter for one claims family (:func:`gameai.core.stats.common_shift`):
    are ours minus the paper's values one common shift (or one per ``band(claim id)``; a band of
    None leaves the claim out, e.g. a pooled claim that repeats others) plus chance? Each
    difference's standard error is the verdict rule's (:func:`claim_p_value`). None when the
    family has no judged number with a spread."""
    from .stats import common_shift

    g = df[(df["claim"].map(fam_of) == family) & df["verdict"].isin(JUDGED)]
    rows = [(r.claim, float(r.ours) - float(r.paper), _row_error(r) / Z95)
            for r in g.itertuples(index=False)]
    labels = [None if band is None else band(c) for c, _, _ in rows]
    keep = [(c, d, se, b) for (c, d, se), b in zip(rows, labels)
            if math.isfinite(se) and se > 0 and (band is None or b is not None)]
    if not keep:
        return None
    out = common_shift([d for _, d, _, _ in keep], [se for _, _, se, _ in keep],
                       None if band is None else [b for *_, b in keep], z=Z95)
    out["family"] = family
    return out


def offset_sentence(test: Mapping[str, Any], what: str = "ours", unit: str = "points",
                    decimals: int = 1) -> str:
    """:func:`family_offset`'s result in words that follow from the test: each band's shift
    (or "no shift" where its 95 % CI covers 0), then whether the rest is at chance level once
    the shifts are allowed for (the chi-square test at 5 %) and how many cells still lie beyond
    their band's shift. ``what`` names the values (``"our like-for-like values"``)."""
    parts = []
    for i, (key, (mu, lo, hi, n)) in enumerate(test["shifts"].items()):
        who = what if i == 0 else "they"
        where = "" if key is None else f"{key}, "
        ci = (f"95 % CI {ci_range(lo, hi, percent=False, decimals=decimals, signed=True)}, "
              f"{n} cells")
        if lo > 0 or hi < 0:
            side = "above" if mu > 0 else "below"
            parts.append(f"{where}{who} sit {abs(mu):.{decimals}f} {unit} {side} the paper's "
                         f"({ci})")
        else:
            parts.append(f"{where}{who} show no shift from the paper's "
                         f"({number(mu, decimals, signed=True)}, {ci})")
    around = "that shift" if len(test["shifts"]) == 1 else "those shifts"
    p = f"p = {test['p']:.2g}" if test["p"] >= 0.001 else "p < 0.001"
    rest = (f"around {around} the cells scatter "
            + ("as chance predicts" if test["p"] >= ALPHA else "more than chance predicts")
            + f" (\u03c7\u00b2 = {test['q']:.0f} on {test['df']} degrees of freedom, {p}; "
            f"{test['beyond']} of {test['cells']} cells lie beyond their shift's 95 % error, "
            f"about {ALPHA * test['cells']:.0f} by chance)")
    return "; ".join(parts) + "; " + rest


def scorecard_families(data_dir: str | os.PathLike, min_claims: int = FAMILY_MIN) -> pd.DataFrame:
    """:func:`family_counts` of every chapter with a claims table, with a ``chapter`` column."""
    frames = []
    root = Path(data_dir)
    for path in sorted(root.glob(f"*/{FILENAME}")):
        counts = family_counts(read_claims(path.parent.name, root), min_claims)
        frames.append(counts.assign(chapter=path.parent.name))
    cols = ["chapter", "family", "judged", "differs", "by_chance", "holm", "bh"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def qualitative(
    claim: str, description: str, paper: str, ours: str, holds: bool | None, n: int,
    note: str = ""
) -> Claim:
    """A claim in words (an ordering, a trend); verdict ``holds`` or ``fails``, or
    ``undecided`` when ``holds`` is None (its test can tell neither); no CI."""
    verdict = "undecided" if holds is None else "holds" if holds else "fails"
    return Claim(claim, description, paper, ours, math.nan, math.nan, int(n), verdict, note)


def pending(claim: str, description: str, paper: Any, note: str, step: float = 0.0) -> Claim:
    """A claim not computed yet (e.g. needs a budget not run); ``note`` says why."""
    return Claim(claim, description, paper, math.nan, math.nan, math.nan, 0, "pending", note,
                 step)


def _check(rows: list[Claim]) -> None:
    seen: set[str] = set()
    for c in rows:
        if not isinstance(c.claim, str) or not c.claim.strip():
            raise ValueError(f"claim id must be a non-empty string, got {c.claim!r}")
        if c.claim in seen:
            raise ValueError(f"duplicate claim id {c.claim!r}")
        seen.add(c.claim)
        if c.verdict not in VERDICTS:
            raise ValueError(
                f"claim {c.claim!r}: verdict must be one of {', '.join(VERDICTS)}; got {c.verdict!r}"
            )
        note = c.note if isinstance(c.note, str) else ""
        if c.verdict in JUDGED:  # the verdict rule's own sentence says how far, not why
            note = note.replace(verdict_note(c), "")
        if c.verdict in NEEDS_NOTE and not note.strip():
            raise ValueError(f"claim {c.claim!r} has verdict {c.verdict!r} but no note saying why")
        if not _is_number(c.step) or c.step < 0:
            raise ValueError(f"claim {c.claim!r}: rounding step must be a number >= 0, got {c.step!r}")
        if not _is_number(c.n_paper) or c.n_paper < 0 or c.proportion not in (0, 1, 100):
            raise ValueError(f"claim {c.claim!r}: n_paper must be >= 0 and proportion 0, 1 or "
                             f"100; got {c.n_paper!r}, {c.proportion!r}")
        if c.percent not in (0, 1):
            raise ValueError(f"claim {c.claim!r}: percent must be 0 or 1, got {c.percent!r}")
        if c.verdict in JUDGED:
            if not all(_is_number(v) for v in (c.paper, c.ours, c.ci_low, c.ci_high)):
                raise ValueError(
                    f"claim {c.claim!r}: verdict {c.verdict!r} needs numeric paper, ours, "
                    "ci_low, ci_high"
                )
            right = verdict_for(c.paper, c.ci_low, c.ci_high, c.step, ours=c.ours, n=int(c.n),
                                n_paper=int(c.n_paper), proportion=c.proportion)
            if right != c.verdict:
                raise ValueError(
                    f"claim {c.claim!r}: verdict {c.verdict!r} contradicts paper={c.paper} "
                    f"(rounding step {c.step}), ours={c.ours}, CI [{c.ci_low}, {c.ci_high}], "
                    f"n={c.n} and the paper's n={c.n_paper} (the rule says {right!r})"
                )


def _tidy(c: Claim) -> Claim:
    """Numbers to 12 significant digits, so that the file shows 0.57179, not the binary
    rounding noise 0.5717899999999999 (far below any CI; the verdict is checked after)."""
    def r(v: Any) -> Any:
        return float(f"{v:.12g}") if _is_number(v) and math.isfinite(v) else v

    return replace(c, paper=r(c.paper), ours=r(c.ours), ci_low=r(c.ci_low), ci_high=r(c.ci_high),
                   step=r(c.step))


def write_claims(
    chapter: str, claims: Iterable[Claim | Mapping[str, Any]], data_dir: str | os.PathLike
) -> Path:
    """Check ``claims`` and write them, in the given order, to ``data_dir/<chapter>/claims.csv``."""
    rows = [_tidy(c if isinstance(c, Claim) else Claim(**dict(c))) for c in claims]
    _check(rows)
    df = pd.DataFrame([asdict(c) for c in rows], columns=COLUMNS)
    return atomic_to_csv(df, Path(data_dir) / chapter / FILENAME)


def read_claims(chapter: str, data_dir: str | os.PathLike) -> pd.DataFrame:
    """Read a chapter's claims table (notes as strings, empty notes as ``""``).

    A file written before the ``step``, ``n_paper``, ``proportion`` or ``percent`` columns
    existed reads with 0 there (exact values, no paper n, means, the claim's own units).
    """
    path = Path(data_dir) / chapter / FILENAME
    df = pd.read_csv(path, dtype={"claim": str, "description": str, "verdict": str, "note": str})
    for col in ("step", "n_paper", "proportion", "percent"):
        if col not in df.columns:
            df[col] = 0.0
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path} lacks columns {missing}")
    df["note"] = df["note"].fillna("")
    df["step"] = df["step"].fillna(0.0).astype(float)
    df["n_paper"] = df["n_paper"].fillna(0).astype(int)
    df["proportion"] = df["proportion"].fillna(0.0).astype(float)
    df["percent"] = df["percent"].fillna(0).astype(int)
    for col in ("paper", "ours"):
        # A column holding numbers and words is read as strings; give the numbers back.
        df[col] = df[col].astype(object).map(_maybe_number)
    return df[COLUMNS]


def _maybe_number(v: Any) -> Any:
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return v
    return v


#: The scorecard's column for the number of *differs* chance alone would give.
BY_CHANCE = "differs by chance"


def scorecard(data_dir: str | os.PathLike) -> pd.DataFrame:
    """One row per chapter with a claims table: counts per verdict, how many *differs* chance
    alone would give among its judged numeric claims (:func:`expected_by_chance`), and the
    total."""
    cols = ["chapter", *VERDICTS, BY_CHANCE, "total"]
    records = []
    root = Path(data_dir)
    for path in sorted(root.glob(f"*/{FILENAME}")):
        chapter = path.parent.name
        df = read_claims(chapter, root)
        counts = df["verdict"].value_counts()
        rec = {"chapter": chapter, **{v: int(counts.get(v, 0)) for v in VERDICTS}}
        rec[BY_CHANCE] = round(expected_by_chance(df), 1)
        rec["total"] = sum(rec[v] for v in VERDICTS)
        records.append(rec)
    return pd.DataFrame(records, columns=cols)


def style_claims(df: pd.DataFrame) -> pd.DataFrame:
    """A plain-text display copy of a claims table: floats rounded to 3 decimals, NaN blank.

    For terminals and logs; the book uses :func:`claims_table`.
    """

    def fmt(v: Any) -> Any:
        if isinstance(v, float):
            return "" if math.isnan(v) else f"{v:.3f}"
        return v

    out = df.copy()
    for col in ("paper", "ours", "ci_low", "ci_high"):
        if col in out.columns:
            out[col] = out[col].astype(object).map(fmt)
    return out
