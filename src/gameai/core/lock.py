"""One run at a time per results folder.

Two ``gameai run`` processes on one ``data/<chapter>/`` would each merge the other's finished
chunks and delete them under its feet (the second one died with ``FileNotFoundError`` on a file
under ``.partial/``). :func:`folder_lock` takes an exclusive ``flock`` on ``<folder>/.lock``: the
kernel releases it when the process ends, however it ends (``kill -9`` included), so a crashed run
never leaves a stale lock behind. The lock file holds a line saying who holds it, which the refused
run prints. The lock is re-entrant within a process (the CLI takes it before any work, and
``load_or_run`` takes it again for each experiment).
"""

from __future__ import annotations

import os
import socket
import sys
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

try:  # POSIX; elsewhere runs are not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

__all__ = ["FolderBusy", "folder_lock", "holder", "LOCK_NAME"]

LOCK_NAME = ".lock"
_held: dict[str, int] = {}


class FolderBusy(RuntimeError):
    """Another process is computing into the same results folder."""


def _holder_line() -> str:
    since = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    command = " ".join(Path(sys.argv[0]).name.split() + sys.argv[1:]) if sys.argv else "python"
    return f"pid {os.getpid()} on {socket.gethostname()} since {since}: {command}"


@contextmanager
def folder_lock(folder: str | os.PathLike) -> Iterator[Path]:
    """Hold the exclusive lock of ``folder`` (created if needed) for the ``with`` block.

    Raises :class:`FolderBusy` at once, naming the holder, if another process holds it.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    key = str(path.resolve())
    if key in _held or fcntl is None:
        _held[key] = _held.get(key, 0) + 1
        try:
            yield path
        finally:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]
        return
    fh = open(path, "a+", encoding="utf-8")
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.seek(0)
        holder = fh.read().strip() or "another process"
        fh.close()
        raise FolderBusy(
            f"results folder {folder} is in use by another run ({holder}); wait for it to "
            "finish, or give this run another --data-dir"
        ) from None
    fh.seek(0)
    fh.truncate()
    fh.write(_holder_line() + "\n")
    fh.flush()
    _held[key] = 1
    try:
        yield path
    finally:
        del _held[key]
        fh.seek(0)
        fh.truncate()
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        fh.close()


def holder(folder: str | os.PathLike) -> str | None:
    """Who computes into ``folder`` now (the holder's line), or None when no run holds its lock.

    Asks with a shared lock, taken and dropped at once: it never waits, and a run starting in
    that instant is refused as it would be by any other run (run it again)."""
    path = Path(folder) / LOCK_NAME
    if fcntl is None or not path.exists() or str(path.resolve()) in _held:
        return None
    with open(path, encoding="utf-8") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return fh.read().strip() or "another process"
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    return None
