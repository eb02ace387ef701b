"""Where a chapter's results go: the committed ``data/`` holds the paper-scale run and nothing else.

Every figure and claim of the book is built from ``data/``, so a run with other parameters must
never add rows to it, rewrite its manifests or its ``claims.csv``. :func:`choose` applies one rule
for ``gameai run``, ``gameai rerun``, ``make test`` and a notebook run by hand:

======================================  ==========================================================
run                                     results folder
======================================  ==========================================================
paper profile, paper parameters         ``data/`` (the committed results)
paper profile, other parameters,        ``_reruns/<chapter>-<UTC time>/data``, a fresh folder that
computing                               first takes the finished tasks it shares with ``data/``
                                        (same task key = same rows), then computes the rest
paper profile, only reading             ``data/``, read only (nothing is written when not computing)
ci profile                              a fresh temporary folder (the code really runs)
a folder named by ``--data-dir`` or     that folder (refused if it is ``data/`` and the parameters
``GAMEAI_DATA_DIR``                     are not the paper's, and always if it lies inside
                                        ``data/``), seeded from ``data/`` as above
======================================  ==========================================================

``gameai rerun`` names its folder through ``GAMEAI_DATA_DIR``, which the notebook's kernel
inherits, so the committed notebook needs no extra parameter.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

from .io import OutsideFolder, confined
from .params import Param

__all__ = ["ENV", "DataDirs", "book_root", "committed_data_dir", "changed_params", "choose",
           "check_chapter_folder",
           "ensure_writable", "claims_dir", "inside"]

#: Environment variable naming the results folder (set by ``gameai rerun``).
ENV = "GAMEAI_DATA_DIR"


def book_root(start: Path | None = None) -> Path:
    """The book's root: the nearest folder with ``_config.yml`` above this package (or ``start``)."""
    here = (start or Path(__file__)).resolve()
    for folder in (here, *here.parents):
        if (folder / "_config.yml").is_file():
            return folder
    return Path.cwd()


def committed_data_dir() -> Path:
    return book_root() / "data"


def changed_params(spec: Mapping[str, Param], params: Mapping[str, Any],
                   run_only: Sequence[str]) -> dict[str, Any]:
    """The result-affecting parameters whose value is not the paper's (the default)."""
    return {name: params[name] for name, p in spec.items()
            if name not in run_only and name in params and params[name] != p.default}


@dataclass(frozen=True)
class DataDirs:
    """A run's results folder, the folder it may copy finished tasks from, and whether the run is
    the paper-scale one that ``data/`` describes."""

    path: Path
    seed_from: Path | None
    paper_scale: bool
    committed_dir: Path

    @property
    def committed(self) -> bool:
        """True when the run's folder is the committed ``data/``."""
        return self.path.resolve() == self.committed_dir.resolve()


def inside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """True when ``path`` lies strictly below ``folder`` (links resolved): ``data/x`` is inside
    ``data/``, ``data`` itself and ``data-old/`` are not."""
    path, folder = Path(path).expanduser().resolve(), Path(folder).expanduser().resolve()
    return path != folder and path.is_relative_to(folder)


def _fresh_run_dir(chapter: str, committed: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return committed.parent / "_reruns" / f"{chapter}-{stamp}-{uuid.uuid4().hex[:4]}" / "data"


def choose(chapter: str, spec: Mapping[str, Param], params: Mapping[str, Any],
           run_only: Sequence[str], *, requested: str | os.PathLike | None = None,
           compute: bool, committed: Path | None = None) -> DataDirs:
    """The results folder of a run (see the table in the module docstring); ``committed``:
    the book's ``data/`` (default: the one beside this package). The chapter's folder in it
    must be a plain folder, not a link (:func:`check_chapter_folder`)."""
    dirs = _choose(chapter, spec, params, run_only, requested=requested, compute=compute,
                   committed=committed)
    check_chapter_folder(dirs.path, chapter, dirs.committed_dir)
    return dirs


def check_chapter_folder(path: Path, chapter: str, committed: Path) -> Path:
    """``<path>/<chapter>``, refused (:class:`~gameai.core.io.OutsideFolder`, a ``ValueError``)
    when a link on the way leads out of ``path``: only ``--data-dir`` itself used to be checked,
    and a chapter folder linked to ``data/<chapter>`` had a ci run rewrite the committed
    results through it."""
    folder = path / chapter
    try:
        return confined(folder, path)
    except OutsideFolder as exc:
        real = Path(os.path.realpath(folder))
        if real == committed or real.is_relative_to(committed):
            raise OutsideFolder(
                f"{folder} is a link into the committed {committed}, which only a paper-scale "
                f"run into {committed} itself may write: remove the link (or replace it with a "
                "copy) and run again") from None
        raise exc from None


def _choose(chapter: str, spec: Mapping[str, Param], params: Mapping[str, Any],
            run_only: Sequence[str], *, requested: str | os.PathLike | None,
            compute: bool, committed: Path | None) -> DataDirs:
    committed = (committed or committed_data_dir()).resolve()
    requested = requested or os.environ.get(ENV) or None
    ci = params.get("profile") == "ci"
    diff = changed_params(spec, params, run_only)
    paper = not ci and not diff
    if requested is not None:
        path = Path(requested).expanduser().resolve()
        if compute and inside(path, committed):
            # data/ holds the committed results, each chapter's folder and nothing else: a
            # folder below it would be committed by the next `git add data` unnoticed.
            raise ValueError(
                f"the results folder {path} lies inside the committed {committed}, which holds "
                "the paper-scale results only: name a folder outside it (or leave out the data "
                "dir: a fresh one is made under _reruns/)")
        if path == committed and compute and not paper:
            what = "the ci profile" if ci else ", ".join(f"{k}={v!r}" for k, v in diff.items())
            raise ValueError(
                f"results at other than the paper's parameters ({what}) never go into the "
                f"committed {committed}: leave out the data dir (a fresh one is made under "
                "_reruns/) or name another one")
        seed = None if ci or path == committed else committed
        return DataDirs(path, seed, paper, committed)
    if ci:
        return DataDirs(Path(tempfile.mkdtemp(prefix="gameai-ci-")), None, False, committed)
    if paper or not compute:
        return DataDirs(committed, None, paper, committed)
    return DataDirs(_fresh_run_dir(chapter, committed), committed, False, committed)


def claims_dir(dirs: DataDirs) -> Path:
    """Where a run's ``claims.csv`` goes: beside its results, except that the committed claims
    describe the paper-scale run only (a notebook read at other parameters writes to a
    temporary folder)."""
    if dirs.committed and not dirs.paper_scale:
        return Path(tempfile.mkdtemp(prefix="gameai-claims-"))
    return dirs.path


def ensure_writable(path: str | os.PathLike, what: str = "--data-dir") -> Path:
    """Create ``path`` if needed and check that files can be written there, before any work;
    a ``ValueError`` naming ``what`` otherwise."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".gameai-write-test-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"{what} {path} is not a writable folder ({exc.strerror or exc})") from None
    return path
