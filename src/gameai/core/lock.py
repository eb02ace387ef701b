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

__all__ = ["FolderBusy", "folder_lock", "holder", "LOCK_NAME", "INHERIT_ENV", "passed_on"]

LOCK_NAME = ".lock"
#: Environment variable through which a process holding a folder's lock lends it to the child
#: it starts (``gameai rerun`` to the notebook's kernel): ``<pid>:<lock path>``. The child
#: computes under the parent's lock instead of taking its own, which the parent's would refuse.
INHERIT_ENV = "GAMEAI_HELD_LOCK"
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
    if key in _held or fcntl is None or _lent_to_us(path):
        _held[key] = _held.get(key, 0) + 1
        try:
            yield path
        finally:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]
        return
    fh = _open_lock_file(path)
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


def _open_lock_file(path: Path):
    """Open the lock file for reading and writing, never through a link: a ``.lock`` that links
    elsewhere would have the holder line written into another folder's file."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o644)
    return os.fdopen(fd, "a+", encoding="utf-8")


def passed_on(folder: str | os.PathLike) -> dict[str, str]:
    """The environment entry that lends ``folder``'s lock, held by this process, to a child."""
    return {INHERIT_ENV: f"{os.getpid()}:{(Path(folder) / LOCK_NAME).resolve()}"}


def _lent_to_us(path: Path) -> bool:
    """True when our parent lent us ``path``'s lock (:func:`passed_on`) and still holds it: its
    pid is our parent's and the lock file names it as the holder. Anything else (a stale
    variable, another holder) is ignored, and the lock is taken as usual."""
    lent = os.environ.get(INHERIT_ENV, "")
    pid, _, lock = lent.partition(":")
    if not pid.isdigit() or lock != str(path.resolve()) or int(pid) != os.getppid():
        return False
    who = holder(path.parent)
    return who is not None and who.startswith(f"pid {pid} ")


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
