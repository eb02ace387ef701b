"""The book's execution statistics: what was computed, when, for how long and on what machine,
read from the manifests the results store writes beside every result file
(:func:`gameai.core.store.manifest`), and the build of the book itself."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

import pandas as pd

from ..core.store import recorded_core_seconds

#: Columns of :func:`manifest_table`.
COLUMNS = ["chapter", "experiment", "what", "configurations", "rows", "wall (h)", "core-hours",
           "workers", "machine", "computed", "commit", "verified"]


def read_manifests(data_dir: str | os.PathLike) -> list[dict]:
    """Every manifest under ``data_dir`` (``<chapter>/<experiment>.json`` with ``experiment``
    and ``chapter`` fields; benchmark records and other files are skipped)."""
    out = []
    for path in sorted(Path(data_dir).glob("*/*.json")):
        try:
            m = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(m, dict) and "experiment" in m and "chapter" in m:
            out.append(m)
    return out


def _machine(m: dict) -> str:
    pk = m.get("packages", {})
    cores = m.get("cpu_count")
    return (f"{cores} cores, " if cores else "") + f"Python {pk.get('python', '?')}, numba {pk.get('numba', '?')}"


def _verified(m: dict) -> str:
    checks = m.get("verified") or []
    if not checks:
        return ""
    last = checks[-1]
    return (f"{str(last.get('date', ''))[:10]}: {last.get('checked', 0):,} checked, "
            f"{last.get('mismatched', 0):,} differ")


def manifest_table(data_dir: str | os.PathLike) -> pd.DataFrame:
    """One row per experiment of the committed results: its chapter, name and description
    (``what``), configurations, rows stored,
    recorded wall time (hours) and core-hours (each run's wall time × its workers, as the store
    records them: :func:`gameai.core.store.recorded_core_seconds`; wall time × the last run's
    workers where that is not known), the machine, when it was
    last computed (date), the commit of the code that computed it, and its last verification
    (tasks recomputed and compared by ``gameai verify``)."""
    rows = []
    for m in read_manifests(data_dir):
        wall = float(m.get("wall_time_s") or 0.0) / 3600
        workers = int(m.get("n_jobs") or 1)
        core = recorded_core_seconds(m)
        core_hours = core / 3600 if core is not None else wall * max(workers, 1)
        rows.append({"chapter": m["chapter"], "experiment": m["experiment"],
                     "what": str(m.get("description") or ""),
                     "configurations": len(m.get("configs") or []), "rows": int(m.get("rows") or 0),
                     "wall (h)": wall, "core-hours": core_hours, "workers": workers,
                     "machine": _machine(m), "computed": str(m.get("updated") or m.get("created") or "")[:10],
                     "commit": str(m.get("git_commit") or "")[:10], "verified": _verified(m)})
    return pd.DataFrame(rows, columns=COLUMNS)


def chapter_summary(table: pd.DataFrame, chapters) -> pd.DataFrame:
    """Per chapter (``chapters``: key -> title, in book order): experiments, rows, core-hours,
    the period over which its results were computed, and how many experiments were verified."""
    rows = []
    for key, title in chapters.items():
        t = table[table["chapter"] == key]
        if t.empty:
            continue
        dates = sorted(d for d in t["computed"] if d)
        rows.append({"chapter": title, "experiments": len(t), "rows": int(t["rows"].sum()),
                     "core-hours": float(t["core-hours"].sum()),
                     "computed": f"{dates[0]} to {dates[-1]}" if dates and dates[0] != dates[-1]
                     else (dates[0] if dates else ""),
                     "verified": f"{int((t['verified'] != '').sum())} of {len(t)}"})
    total = {"chapter": "all", "experiments": int(sum(r["experiments"] for r in rows)),
             "rows": int(sum(r["rows"] for r in rows)),
             "core-hours": float(sum(r["core-hours"] for r in rows)), "computed": "", "verified": ""}
    return pd.DataFrame(rows + [total] if rows else rows,
                        columns=["chapter", "experiments", "rows", "core-hours", "computed", "verified"])


def build_table(root: str | os.PathLike) -> pd.DataFrame:
    """The build of this book: date, commit, machine and the versions of the packages that
    ran its notebooks."""
    import importlib.metadata as md
    import subprocess
    from datetime import datetime, timezone

    def version(name: str) -> str:
        try:
            return md.version(name)
        except md.PackageNotFoundError:
            return "not installed"

    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    items = [("built", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
             ("commit", commit or "unknown (not a git checkout)"),
             ("machine", f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores"),
             ("Python", platform.python_version())]
    items += [(name, version(name)) for name in ("numpy", "numba", "pandas", "joblib", "jupyter-book")]
    return pd.DataFrame(items, columns=["", "value"])


def costliest(table: pd.DataFrame, chapters, n: int = 10) -> pd.DataFrame:
    """The ``n`` costliest experiments as the page shows them: the chapter's title and what the
    experiment computes in words (``chapters``: key -> title), rows, wall time, core-hours, when,
    the commit and the last verification."""
    top = table.sort_values("core-hours", ascending=False).head(n)
    return pd.DataFrame({"chapter": top["chapter"].map(lambda k: chapters.get(k, k)),
                         "experiment": top["what"].where(top["what"] != "", top["experiment"]),
                         "rows": top["rows"], "wall (h)": top["wall (h)"],
                         "core-hours": top["core-hours"], "computed": top["computed"],
                         "commit": top["commit"], "verified": top["verified"]})
