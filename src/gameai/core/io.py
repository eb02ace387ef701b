"""Atomic file writes.

Every file the book caches is written to a temporary file in the same folder and then moved into
place with :func:`os.replace`, which is atomic on POSIX and Windows. A run that is killed half-way
therefore leaves either the old file or the new one, never a truncated CSV that a later run would
trust.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pandas as pd

__all__ = ["atomic_write_text", "atomic_to_csv"]


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (temp file in the same folder + ``os.replace``).

    Temporary files are named ``.<name>.*.tmp`` so that globs such as ``*.csv`` never see them.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Not tempfile.mkstemp: its files are private (0600); this one gets the usual umask mode.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(tmp, "x", encoding=encoding, newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        # Also on KeyboardInterrupt: do not leave the temporary file behind.
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def atomic_to_csv(df: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write ``df`` as CSV (without the pandas index) to ``path`` atomically."""
    return atomic_write_text(path, df.to_csv(index=False, lineterminator="\n"))
