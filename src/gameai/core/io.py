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


class OutsideFolder(ValueError):
    """A path the store would read, write or delete leads out of its results folder (through a
    symbolic link at some level). A folder received from someone else may hold such links; the
    store refuses them rather than touch files it does not own."""


def confined(path: str | os.PathLike, root: str | os.PathLike) -> Path:
    """``path`` (lying under ``root``) as it is, after checking that no link on the way from
    ``root`` to it leads elsewhere: resolving its links must give ``root``'s resolved path
    joined with the same relative path. Raises :class:`OutsideFolder` naming the link otherwise.
    Parts that do not exist yet are fine (they will be created as plain folders)."""
    path, root = Path(path), Path(root)
    real_root = Path(os.path.realpath(root))
    relative = path.relative_to(root)
    where = root
    for part in relative.parts:
        where = where / part
        # One level at a time, so that the message names the link itself, not the file below it.
        if os.path.islink(where) or Path(os.path.realpath(where)) != real_root / where.relative_to(root):
            target = os.path.realpath(where)
            raise OutsideFolder(
                f"{where} is a link to {target}, outside the results folder {real_root}: a "
                "results folder never reads or writes through a link; replace the link with a "
                "copy of what it points to, or remove it")
    return path
