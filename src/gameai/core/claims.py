"""The claims table: what each paper says, what we measured, and whether it holds.

Each chapter ends by writing ``data/<chapter>/claims.csv`` with one row per claim of the paper. The
book renders these tables and the introduction shows a scorecard over all chapters, so the format
is fixed (:data:`COLUMNS`) and checked on write: a claim that ``differs`` or ``fails`` must say why
in its note, and a ``pending`` claim must say what is missing.
"""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

import pandas as pd

from .io import atomic_to_csv

__all__ = [
    "COLUMNS",
    "VERDICTS",
    "Claim",
    "verdict_for",
    "quantitative",
    "qualitative",
    "pending",
    "write_claims",
    "read_claims",
    "scorecard",
    "style_claims",
]

COLUMNS = ["claim", "description", "paper", "ours", "ci_low", "ci_high", "n", "verdict", "note"]
VERDICTS = ("reproduced", "differs", "holds", "fails", "pending")
NEEDS_NOTE = ("differs", "fails", "pending")
FILENAME = "claims.csv"


@dataclass(frozen=True)
class Claim:
    """One row of a chapter's claims table (fields in the order of :data:`COLUMNS`)."""

    claim: str
    description: str
    paper: Any
    ours: Any
    ci_low: float
    ci_high: float
    n: int
    verdict: str
    note: str = ""


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def verdict_for(paper: float, lo: float, hi: float) -> str:
    """``"reproduced"`` when ``lo <= paper <= hi``, else ``"differs"`` (also when the CI is NaN)."""
    return "reproduced" if lo <= paper <= hi else "differs"


def quantitative(
    claim: str, description: str, paper: float, ours: float, lo: float, hi: float, n: int, note: str = ""
) -> Claim:
    """A numeric claim; the verdict follows from whether the paper's value lies in our CI."""
    return Claim(claim, description, float(paper), float(ours), float(lo), float(hi), int(n),
                 verdict_for(paper, lo, hi), note)


def qualitative(
    claim: str, description: str, paper: str, ours: str, holds: bool, n: int, note: str = ""
) -> Claim:
    """A claim in words (an ordering, a trend); verdict ``holds`` or ``fails``, no CI."""
    return Claim(claim, description, paper, ours, math.nan, math.nan, int(n),
                 "holds" if holds else "fails", note)


def pending(claim: str, description: str, paper: Any, note: str) -> Claim:
    """A claim not computed yet (e.g. needs a budget not run); ``note`` says why."""
    return Claim(claim, description, paper, math.nan, math.nan, math.nan, 0, "pending", note)


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
        if c.verdict in NEEDS_NOTE and not (isinstance(c.note, str) and c.note.strip()):
            raise ValueError(f"claim {c.claim!r} has verdict {c.verdict!r} but no note saying why")
        if c.verdict in ("reproduced", "differs"):
            if not all(_is_number(v) for v in (c.paper, c.ci_low, c.ci_high)):
                raise ValueError(
                    f"claim {c.claim!r}: verdict {c.verdict!r} needs numeric paper, ci_low, ci_high"
                )
            if verdict_for(c.paper, c.ci_low, c.ci_high) != c.verdict:
                raise ValueError(
                    f"claim {c.claim!r}: verdict {c.verdict!r} contradicts paper={c.paper} and "
                    f"CI [{c.ci_low}, {c.ci_high}]"
                )


def write_claims(
    chapter: str, claims: Iterable[Claim | Mapping[str, Any]], data_dir: str | os.PathLike
) -> Path:
    """Check ``claims`` and write them, in the given order, to ``data_dir/<chapter>/claims.csv``."""
    rows = [c if isinstance(c, Claim) else Claim(**dict(c)) for c in claims]
    _check(rows)
    df = pd.DataFrame([asdict(c) for c in rows], columns=COLUMNS)
    return atomic_to_csv(df, Path(data_dir) / chapter / FILENAME)


def read_claims(chapter: str, data_dir: str | os.PathLike) -> pd.DataFrame:
    """Read a chapter's claims table (notes as strings, empty notes as ``""``)."""
    path = Path(data_dir) / chapter / FILENAME
    df = pd.read_csv(path, dtype={"claim": str, "description": str, "verdict": str, "note": str})
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path} lacks columns {missing}")
    df["note"] = df["note"].fillna("")
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


def scorecard(data_dir: str | os.PathLike) -> pd.DataFrame:
    """One row per chapter with a claims table: counts per verdict and the total."""
    cols = ["chapter", *VERDICTS, "total"]
    records = []
    root = Path(data_dir)
    for path in sorted(root.glob(f"*/{FILENAME}")):
        chapter = path.parent.name
        counts = read_claims(chapter, root)["verdict"].value_counts()
        rec = {"chapter": chapter, **{v: int(counts.get(v, 0)) for v in VERDICTS}}
        rec["total"] = sum(rec[v] for v in VERDICTS)
        records.append(rec)
    return pd.DataFrame(records, columns=cols)


def style_claims(df: pd.DataFrame) -> pd.DataFrame:
    """A display copy of a claims table: floats rounded to 3 decimals, NaN shown as blank.

    A plain DataFrame (not a Styler) so it renders the same in Jupyter, in the built book and as
    text, without extra dependencies.
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
