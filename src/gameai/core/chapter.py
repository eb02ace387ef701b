"""What every chapter's ``chapter.py`` shares: run settings, the ci profile, the results folder,
loading experiments from the store, and writing the claims.

A chapter defines its own ``PARAMETERS`` (starting from :func:`run_settings`), its ``CI_SIZES``,
one small function per table or figure, each calling :meth:`Results.get` for its experiment,
and a :class:`ChapterPlan` listing those functions in the order they run; the plan gives the
chapter its ``resolve``, ``results``, ``write_claims`` and ``run``. ``gameai run`` and the
notebook then behave alike in every chapter: the same profiles, the same rule for where results go (:mod:`gameai.core.datadirs`), the
same pending/missing handling.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from . import datadirs
from .claims import FILENAME, Claim, read_claims, write_claims as _write_claims
from .datadirs import DataDirs
from .params import Param, validate
from .store import Experiment, MissingResults, load, load_or_run, status

__all__ = ["RUN_ONLY", "MAX_JOBS_PER_CORE", "max_n_jobs", "run_settings", "resolve", "Results",
           "open_results", "write_claims", "finish_run", "ChapterPlan"]

#: Parameters that change how results are computed, not what they are.
RUN_ONLY = ("profile", "n_jobs", "backend", "compute_missing")


#: Worker processes allowed per core. A few per core can help when tasks wait (a Dask client
#: sends them elsewhere); far more only multiplies the memory of the workers' engines - 100,000
#: workers on 2 cores is a typo, refused before any process starts.
MAX_JOBS_PER_CORE = 8


def max_n_jobs() -> int:
    """The largest ``n_jobs`` allowed on this machine: :data:`MAX_JOBS_PER_CORE` per core."""
    return MAX_JOBS_PER_CORE * (os.cpu_count() or 1)


def run_settings(seed: int) -> dict[str, Param]:
    """The parameters every chapter has, with the chapter's default root seed."""
    return {
        "profile": Param("paper", str, "paper: full scale, reads data/; ci: tiny, in a temporary "
                         "dir", choices=("paper", "ci")),
        "n_jobs": Param(-1, int, "parallel workers (-1: all cores; at most "
                        f"{MAX_JOBS_PER_CORE} per core)", minimum=-1, maximum=max_n_jobs(),
                        forbid=(0,)),
        "backend": Param("loky", str, "joblib backend ('dask' needs a dask.distributed Client)",
                         choices=("loky", "dask", "sequential")),
        "seed": Param(seed, int, "root seed of every experiment", minimum=0),
    }


COMPUTE_MISSING = Param(False, bool, "compute missing results (else show them as pending)")


def resolve(spec: Mapping[str, Param], overrides: Mapping[str, Any] | None,
            ci_sizes: Mapping[str, Any], context: str) -> dict[str, Any]:
    """Validate parameters; in the ``ci`` profile, sizes left at their paper default shrink to
    ``ci_sizes`` and missing results are computed."""
    params = validate(spec, dict(overrides or {}), context=context)
    if params["profile"] == "ci":
        for name, small in ci_sizes.items():
            if params[name] == spec[name].default:
                params[name] = small
        params["compute_missing"] = True
    return params


@dataclass
class Results:
    """A chapter's experiments and their rows (``None`` while pending), loaded or computed
    through :meth:`get` into the run's results folder."""

    chapter: str
    version: str
    params: dict
    dirs: DataDirs
    compute: bool
    progress: bool | str = "auto"
    frames: dict[str, pd.DataFrame | None] = field(default_factory=dict)
    experiments: dict[str, Experiment] = field(default_factory=dict)
    #: The experiment groups the chapter's steps asked :meth:`computes` about: a group named in
    #: ``-p experiments`` but never asked about was not reached (its inputs are pending).
    asked: set[str] = field(default_factory=set)

    @property
    def data_dir(self) -> Path:
        return self.dirs.path

    def __getitem__(self, key: str) -> pd.DataFrame | None:
        return self.frames.get(key)

    def pending(self) -> list[str]:
        return [key for key, df in self.frames.items() if df is None]

    def computes(self, group: str) -> bool:
        """Whether this run computes experiment group ``group`` (a run may compute only the
        groups named in its ``experiments`` parameter, and loads the others)."""
        self.asked.add(group)
        return self.compute and group in self.params.get("experiments", (group,))

    def get(self, key: str, name: str, fn: Callable, configs: Sequence[Mapping[str, Any]],
            n: int, *, chunk_size: int, description: str, warmup: Callable | None = None,
            partial: bool = False, compute: bool | None = None,
            cost_like=None) -> pd.DataFrame | None:
        """Experiment ``name``'s rows, kept as ``self[key]``. When some are missing and the run
        does not compute: ``None`` (pending), or with ``partial`` whatever is cached (an
        experiment of many hours shown with the games it has; ``None`` if it has none).
        ``compute`` overrides the run's (a run computing only some experiments loads the rest).
        ``cost_like``: see :attr:`gameai.core.store.Experiment.cost_like`."""
        exp = Experiment(chapter=self.chapter, name=name, fn=fn, configs=list(configs), n=n,
                         seed=self.params["seed"], version=self.version, chunk_size=chunk_size,
                         description=description, warmup=warmup, cost_like=cost_like)
        self.experiments[key] = exp
        try:
            df = load_or_run(exp, data_dir=self.data_dir, n_jobs=self.params["n_jobs"],
                             backend=self.params["backend"], progress=self.progress,
                             compute=self.compute if compute is None else compute,
                             seed_from=self.dirs.seed_from)
        except MissingResults:
            df = load(exp, self.data_dir) if partial else None
            if df is not None and df.empty:
                df = None
        self.frames[key] = df
        return df


def open_results(chapter: str, version: str, spec: Mapping[str, Param], params: dict, *,
                 data_dir: str | Path | None, compute: bool | None,
                 progress: bool | str = "auto", run_only: Sequence[str] = RUN_ONLY,
                 cls: type[Results] = Results) -> Results:
    """A chapter's :class:`Results` in the folder :func:`gameai.core.datadirs.choose` gives."""
    compute = params["compute_missing"] if compute is None else compute
    dirs = datadirs.choose(chapter, spec, params, run_only, requested=data_dir, compute=compute)
    return cls(chapter=chapter, version=version, params=params, dirs=dirs, compute=compute,
               progress=progress)


def write_claims(res: Results, claims: Sequence[Claim]) -> Path:
    """Write a run's ``claims.csv`` beside its results (the committed one describes the
    paper-scale run only, :func:`gameai.core.datadirs.claims_dir`); returns the folder."""
    target = datadirs.claims_dir(res.dirs)
    claims = list(claims)
    if target.resolve() != res.dirs.committed_dir.resolve():
        claims = against_published(claims, res.chapter, res.dirs.committed_dir)
    _write_claims(res.chapter, claims, target)
    return target


def against_published(claims: Sequence[Claim], chapter: str, committed: Path) -> list[Claim]:
    """A rerun's claims, each judged on fewer games (deals, positions) than the published book's
    saying so in its note, so that a verdict at n = 200 does not read as firmly as the book's at
    10,000. Claims the published book does not have, or judges on as many, are unchanged."""
    if not (Path(committed) / chapter / FILENAME).is_file():
        return list(claims)
    published = read_claims(chapter, committed).set_index("claim")["n"]
    out = []
    for c in claims:
        n_book = int(published.get(c.claim, 0) or 0)
        if 0 < int(c.n) < n_book and "published book" not in c.note:
            c = replace(c, note=(c.note.rstrip() + (" " if c.note.strip() else "")
                                 + f"This run judges it on n = {int(c.n):,}; the published book, "
                                 f"on {n_book:,}."))
        out.append(c)
    return out


def finish_run(res: Results, claims: Sequence[Claim]) -> Path:
    """End of ``gameai run``: write the claims and print what is cached. Returns the claims dir."""
    target = write_claims(res, claims)
    for exp in res.experiments.values():
        st = status(exp, res.data_dir)
        print(f"{exp.name:>24}: {st['done']}/{st['total']} tasks cached")
    return target


@dataclass(frozen=True)
class ChapterPlan:
    """A chapter's entry points, built from its parts: ``steps`` are its experiment functions
    (each takes the :class:`Results` and loads or computes one table's or figure's rows) in the
    order :meth:`results` calls them, cheapest first; ``build_claims`` turns the results into the
    chapter's claims. A chapter module exposes the bound methods as its ``resolve``,
    ``results``, ``write_claims`` and ``run``, which the CLI and the notebook call.

    Written once here so that every chapter loads, computes, resumes and writes its claims the
    same way; a chapter keeps only what is its own (parameters, tasks, the steps)."""

    chapter: str
    version: str
    spec: Mapping[str, Param] = field(repr=False)
    ci_sizes: Mapping[str, Any] = field(repr=False)
    steps: Sequence[Callable[[Results], Any]]
    build_claims: Callable[[Results], Sequence[Claim]]
    run_only: Sequence[str] = RUN_ONLY

    def resolve(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Validate parameters; in the ``ci`` profile, sizes left at their paper default shrink
        (:func:`resolve`)."""
        return resolve(self.spec, overrides, self.ci_sizes, self.chapter)

    def results(self, overrides: Mapping[str, Any] | None = None, *,
                data_dir: str | Path | None = None, compute: bool | None = None,
                progress: bool | str = "auto") -> Results:
        """Load (and, if ``compute``, run) every experiment, in the plan's order. ``compute``
        None: the ``compute_missing`` parameter decides (true in the ci profile)."""
        params = self.resolve(overrides)
        res = open_results(self.chapter, self.version, self.spec, params, data_dir=data_dir,
                           compute=compute, progress=progress, run_only=self.run_only)
        for step in self.steps:
            step(res)
        return res

    def write_claims(self, res: Results) -> Path:
        """Write the run's ``claims.csv`` (:func:`write_claims`); returns its folder."""
        return write_claims(res, self.build_claims(res))

    def run(self, params: Mapping[str, Any] | None = None, *,
            data_dir: str | Path | None = None, progress: bool | str = "auto") -> Results:
        """``gameai run CHAPTER``: compute whatever is missing, resumably, in the plan's order;
        then write the claims and print what is cached."""
        res = self.results(params, data_dir=data_dir, compute=True, progress=progress)
        finish_run(res, self.build_claims(res))
        return res
