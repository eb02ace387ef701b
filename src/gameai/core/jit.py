"""Numba's on-disk cache, keyed by the package's source.

Numba's ``cache=True`` re-compiles a function when *its own* file changes, but not when a
function it calls from another module does (numba documents this limitation): after an edit to
``agents.py``, ``play.py``'s cached ``play_game`` would keep running the old agents, silently.
This module points numba's cache at a directory named after a hash of every ``.py`` file of
``gameai`` that compiled code can depend on (:func:`engine_hash`), so any such change starts from a
fresh cache. The book's presentation code (:data:`PRESENTATION`: tables, figures, claims, the
command line) is left out of that key, because no compiled function imports it (a unit test checks
the imports): editing a chapter's report does not cost a recompilation of every engine. It must run before the first
``@njit(cache=True)`` decorator executes: :mod:`gameai` imports it first thing.

``GAMEAI_NUMBA_CACHE`` (or numba's own ``NUMBA_CACHE_DIR``) chooses the parent directory;
the default is ``~/.cache/gameai/numba``.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def source_hash(root: Path = PACKAGE_ROOT, *, engine_only: bool = False) -> str:
    """A short hash over the relative paths and contents of every ``.py`` file under ``root``
    (with ``engine_only``, all but the :data:`PRESENTATION` files)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if engine_only and is_presentation(relative):
            continue
        h.update(relative.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


#: Source files (globs relative to the package) that no compiled function can depend on: the
#: book's presentation (tables, figures, the chapters' analyses and words), the chapters' run plans and
#: the command line. ``tests/core/test_jit.py`` checks that no module using numba imports one.
PRESENTATION = ("book/*.py", "cli.py", "__main__.py", "*/report.py", "*/analysis.py", "*/chapter.py")


def is_presentation(relative: str) -> bool:
    """Whether the package file ``relative`` (``"kingdomino/report.py"``) is in :data:`PRESENTATION`."""
    from fnmatch import fnmatchcase
    return any(fnmatchcase(relative, pattern) for pattern in PRESENTATION)


def engine_hash(root: Path = PACKAGE_ROOT) -> str:
    """The hash of the files compiled code can depend on (all but :data:`PRESENTATION`): the key
    of numba's cache."""
    return source_hash(root, engine_only=True)


def cache_dir(root: Path = PACKAGE_ROOT, digest: str | None = None) -> Path:
    base = os.environ.get("GAMEAI_NUMBA_CACHE") or os.environ.get("NUMBA_CACHE_DIR")
    base_path = Path(base) if base else Path.home() / ".cache" / "gameai" / "numba"
    return base_path / (digest or engine_hash(root))


#: :func:`source_hash` of the package as this process imported it (set by :func:`configure`).
_LOADED: str | None = None


def loaded_source_hash() -> str:
    """The hash of the whole ``gameai`` source this process runs: taken when ``gameai`` was
    imported, not now, so that an edit made while a long run computes does
    not change what its manifests say. Manifests record it as ``source_hash``."""
    global _LOADED
    if _LOADED is None:
        _LOADED = source_hash()
    return _LOADED


def _writable(path: Path) -> bool:
    """Whether numba can keep its cache in ``path`` (created if needed)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".gameai-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True


def _fallback(wanted: Path, digest: str) -> Path:
    """A fresh temporary cache folder, for when ``wanted`` cannot be written. Numba itself would
    fall back to ``__pycache__`` beside each source file, which is keyed by that file alone -
    the stale-code risk this module exists to prevent. Said in one line; the workers this
    process starts inherit the folder through ``GAMEAI_NUMBA_CACHE`` (and say nothing)."""
    base = Path(tempfile.mkdtemp(prefix="gameai-numba-"))
    print(f"gameai: note: numba's cache folder {wanted.parent} cannot be written; compiled code "
          f"is cached in {base} for this run instead (set GAMEAI_NUMBA_CACHE to a writable "
          "folder to keep it)", file=sys.stderr, flush=True)
    os.environ["GAMEAI_NUMBA_CACHE"] = str(base)
    return base / digest


def configure() -> Path:
    """Point numba (this process and the workers it starts) at the source-keyed cache, or at a
    fresh temporary one when that cannot be written (:func:`_fallback`)."""
    import numba

    digest = engine_hash()
    path = cache_dir(digest=digest)
    if not _writable(path):
        path = _fallback(path, digest)
    numba.config.CACHE_DIR = str(path)
    return path
