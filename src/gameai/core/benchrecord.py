"""Bench records: what ``gameai bench CHAPTER`` measured, committed as ``data/<chapter>/bench.json``.

A chapter's speed paragraph reads the record instead of measuring at every book build, so the
text does not change with the load of the machine that builds the book; the record says which
machine measured it, when, and how loaded it was (the load average: other processes on the
cores lower the measured rates).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
from pathlib import Path
from typing import Any

from .io import atomic_write_text

__all__ = ["machine", "record_path", "write_record", "read_record", "add_to_record"]

#: The committed results folder of the package's own checkout.
DATA = Path(__file__).resolve().parents[3] / "data"


def machine() -> dict[str, Any]:
    """The machine, the date and the load of a bench record."""
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": platform.platform(), "load_average": round(os.getloadavg()[0], 2),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def record_path(chapter: str, data_dir: str | os.PathLike | None = None) -> Path:
    return Path(data_dir or DATA) / chapter / "bench.json"


def write_record(chapter: str, results: dict[str, Any],
                 data_dir: str | os.PathLike | None = None) -> Path:
    """Write ``results`` with :func:`machine`'s description as the chapter's bench record."""
    path = record_path(chapter, data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"machine": machine(), **results}, indent=2,
                                       ensure_ascii=False) + "\n")
    return path


def read_record(chapter: str, data_dir: str | os.PathLike | None = None) -> dict | None:
    """The chapter's committed bench record, or None if there is none."""
    path = record_path(chapter, data_dir)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def add_to_record(chapter: str, results: dict[str, Any], stamp: str,
                  data_dir: str | os.PathLike | None = None) -> Path:
    """Add ``results`` to the chapter's record, keeping what it holds, with :func:`machine`'s
    description under ``stamp``: a measurement that stands on its own (a side-by-side ratio)
    added to a record whose other numbers were measured elsewhere or earlier."""
    path = record_path(chapter, data_dir)
    old = read_record(chapter, data_dir) or {"machine": machine()}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({**old, **results, stamp: machine()}, indent=2,
                                       ensure_ascii=False) + "\n")
    return path
