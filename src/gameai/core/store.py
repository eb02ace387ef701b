"""The results store: a resumable, per-task cache of experiment rows under ``data/<chapter>/``.

Why per task: a chapter's numbers come from many games per configuration. Each game (task) is
identified by its *task key* -- a hash of the config, the shared parameters, the code version, the
root seed and the experiment name -- and its index. So lowering ``n`` reuses the first games,
raising it computes only the new ones, and changing a version, seed, parameter or config recomputes
only the configurations it affects. Because the runner seeds each task on its own, the rows do not
depend on how (or in how many runs) they were computed.

Files, for experiment ``name`` of ``chapter``::

    data/<chapter>/<name>.csv              all finished rows (key, index, config items, results)
    data/<chapter>/<name>.json             manifest: parameters, seed, versions, git, timings
    data/<chapter>/.partial/<name>/*.csv   chunks finished by a run still in progress

Every file is written atomically; an interrupted run loses at most the chunks in flight, and the
next run merges what was saved. The store knows nothing about any game.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import importlib.metadata
import io
import itertools
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from .csvcheck import bad_value_tasks, read_checked
from .io import OutsideFolder, atomic_to_csv, atomic_write_text, confined
from .lock import FolderBusy, folder_lock
from .runner import Progress, _cell, canonical_json, config_key, run_tasks

__all__ = ["Experiment", "MissingResults", "FolderBusy", "OutsideFolder", "load_or_run", "load", "status", "paths",
           "verify", "record_verified", "forget", "wall_time", "plan", "dry_run", "UNKNOWN",
           "DamagedResults"]

#: Tasks handed to the runner at a time. The missing tasks are generated as they are needed,
#: never listed whole: a run of 10^7 games per configuration would otherwise fill the memory
#: with task tuples before its first game. A batch is large enough that the cores idle at its
#: end (waiting for its last chunks) for a negligible share of the run.
TASK_BATCH = 100_000
#: What a manifest records for a value that could not be read back (a damaged manifest).
UNKNOWN = "unknown"

_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_STORE_RESERVED = ("key", "index", "config_key")


class MissingResults(LookupError):
    """Raised by ``load_or_run(..., compute=False)`` when some tasks are not in the cache."""


@dataclass(frozen=True)
class Experiment:
    """One cached experiment: ``n`` tasks (games) for each config, run by ``fn``.

    ``fn(config, index, rng)`` receives each config merged with the shared ``params``.
    ``version`` is the code version constant of the engine/agents involved: bump it when their
    behaviour changes, and the cache recomputes.
    """

    chapter: str
    name: str
    fn: Callable
    configs: Sequence[Mapping[str, Any]]
    n: int
    seed: int
    version: str
    params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    chunk_size: int = 50
    warmup: Callable | None = None
    #: For the dry run's estimate before this experiment has run: sibling experiments of the
    #: chapter (name, factor), nearest first, whose recorded cost per task, times the factor,
    #: approximates this one's; the first with a recorded cost is used (the same games at a
    #: third and a tenth of the budget: ``(("strength_kingdomino_b1000", 3), ("..._b300", 10))``).
    #: One pair alone may be given as it is.
    cost_like: Sequence[tuple[str, float]] | tuple[str, float] | None = None

    def __post_init__(self) -> None:
        for label in ("chapter", "name"):
            value = getattr(self, label)
            if not isinstance(value, str) or not _SLUG.match(value):
                raise ValueError(
                    f"parameter '{label}' must be a slug (letters, digits, '_' or '-'), got {value!r}"
                )
        if not callable(self.fn):
            raise ValueError(f"parameter 'fn' must be callable, got {self.fn!r}")
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 0:
            raise ValueError(f"parameter 'n' of experiment {self.name!r} must be an int >= 0, got {self.n!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"parameter 'seed' of experiment {self.name!r} must be an int >= 0, got {self.seed!r}")
        if not isinstance(self.version, str) or not self.version:
            raise ValueError(f"parameter 'version' of experiment {self.name!r} must be a non-empty string")
        if isinstance(self.chunk_size, bool) or not isinstance(self.chunk_size, int) or self.chunk_size < 1:
            raise ValueError(f"parameter 'chunk_size' must be an int >= 1, got {self.chunk_size!r}")
        if isinstance(self.configs, Mapping) or not isinstance(self.configs, Sequence) or not self.configs:
            raise ValueError(f"parameter 'configs' of experiment {self.name!r} must be a non-empty list of dicts")
        params = dict(self.params)
        configs = []
        for cfg in self.configs:
            if not isinstance(cfg, Mapping):
                raise ValueError(f"every config of experiment {self.name!r} must be a dict, got {cfg!r}")
            bad = sorted((set(cfg) & set(params)) | (set(cfg) & set(_STORE_RESERVED)))
            if bad:
                raise ValueError(
                    f"config {dict(cfg)!r} of experiment {self.name!r} uses name(s) {bad} that are "
                    f"shared params or reserved columns {list(_STORE_RESERVED)}"
                )
            canonical_json(dict(cfg))  # raises TypeError for values that are not JSON-able
            configs.append(dict(cfg))
        bad = sorted(set(params) & set(_STORE_RESERVED))
        if bad:
            raise ValueError(f"params of experiment {self.name!r} use reserved name(s) {bad}")
        keys = [self.task_key(c) for c in configs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"experiment {self.name!r} lists the same config twice")
        object.__setattr__(self, "configs", tuple(configs))
        object.__setattr__(self, "params", params)

    def merged(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """The dict ``fn`` receives: the shared params plus the config."""
        return {**self.params, **config}

    def task_key(self, config: Mapping[str, Any]) -> str:
        """Cache identity of this config's tasks (with the index it identifies one task)."""
        ident = {**config, **self.params, "__version__": self.version, "__seed__": self.seed,
                 "__name__": self.name}
        return config_key(ident)

    @property
    def total(self) -> int:
        return len(self.configs) * self.n


# --------------------------------------------------------------------------- files


def paths(exp: Experiment, data_dir: str | os.PathLike) -> dict[str, Path]:
    """Where ``exp`` lives: ``csv``, ``manifest`` and ``partial`` (the in-progress chunk folder).

    Every one of them is checked to lie inside ``data_dir`` with no link on the way
    (:class:`OutsideFolder` otherwise): a chapter folder, ``.partial/`` or experiment folder
    that is a link would let a run write, rename or delete files of another folder - the
    committed ``data/`` among them."""
    base = Path(data_dir) / exp.chapter
    out = {
        "csv": base / f"{exp.name}.csv",
        "manifest": base / f"{exp.name}.json",
        "partial": base / ".partial" / exp.name,
    }
    for path in out.values():
        confined(path, data_dir)
    return out


def _parse(rows: pd.DataFrame) -> pd.DataFrame:
    """Parse text rows as pandas would read a file holding only them (keys stay strings)."""
    return pd.read_csv(io.StringIO(rows.to_csv(index=False)), dtype={"key": str})


def _sources(p: Mapping[str, Path]) -> list[Path]:
    """The main CSV (if any) followed by the partial chunk files, in a fixed order."""
    out = [p["csv"]] if p["csv"].exists() else []
    if p["partial"].is_dir():
        out += sorted(p["partial"].glob("*.csv"))
    for path in out:
        if path.is_symlink():  # its rows would come from, and its repair go to, another folder
            raise OutsideFolder(f"{path} is a link to {os.path.realpath(path)}: a results "
                                "folder never reads or writes through a link; replace it with "
                                "a copy, or remove it")
    return out


_reported: set[tuple[str, tuple[str, ...]]] = set()


def _report(path: Path, problems: Sequence[str]) -> None:
    """Say, on stderr, what was wrong with a stored file (it is never silently trusted); each
    problem once per process, though the file is read several times."""
    if (str(path), tuple(problems)) in _reported:
        return
    _reported.add((str(path), tuple(problems)))
    print(f"gameai: warning: {path} " + "; ".join(problems), file=sys.stderr, flush=True)


def _load_manifest(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """``(manifest, None)``; ``(None, None)`` when it is missing; ``(None, problem)`` when it is
    garbled (not UTF-8, not JSON, not a JSON object)."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(manifest, dict):
            raise ValueError("not a JSON object")
        return manifest, None
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError) as exc:
        return None, f"is not a readable manifest ({exc})"


def _read_manifest(path: Path) -> dict[str, Any] | None:
    """The manifest, or ``None`` when it is missing or garbled (a garbled one is reported)."""
    manifest, problem = _load_manifest(path)
    if problem:
        _report(path, [f"{problem}; the next run moves it aside to {path.name}{DAMAGED} and "
                       "records what it held as unknown"])
    return manifest


#: Suffix of a damaged manifest moved aside (``fig.json`` -> ``fig.json.damaged``).
DAMAGED = ".damaged"


def _set_aside(path: Path) -> Path:
    """Move a damaged manifest aside, beside it, keeping any copy set aside before; returns the
    new path. The next manifest then says what it could not carry over (:data:`UNKNOWN`), rather
    than starting the run's history afresh as if nothing had been computed before."""
    target = path.with_name(path.name + DAMAGED)
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{DAMAGED}-{n}")
    os.replace(path, target)
    print(f"gameai: moved it aside to {target.name}", file=sys.stderr)
    return target


def _damaged_copies(path: Path) -> list[str]:
    """Names of the damaged copies of manifest ``path`` set aside so far."""
    return sorted(q.name for q in path.parent.glob(path.name + DAMAGED + "*"))


class DamagedResults(ValueError):
    """A results file holds rows that the store can neither trust nor trace to a task (more rows
    than its manifest records, in a configuration whose tasks vary in length): a run refuses to
    adopt them, and says how to recompute them."""


def _read_all(p: Mapping[str, Path], usecols: Sequence[str] | None = None,
              repair: bool = False,
              damaged: list[tuple[Path, list[str]]] | None = None) -> pd.DataFrame:
    """All intact cached rows of an experiment's files, as text (see :mod:`.csvcheck`).

    Damaged rows are left out and reported, so their tasks count as missing. With ``repair`` (a
    run holding the folder's lock) an unreadable file is moved aside to ``<name>.bad`` and a
    damaged chunk deleted, since what they held is about to be recomputed. A task found in
    several files keeps its first copy when the copies agree (a run stopped between writing the
    merged CSV and removing its chunks) and is dropped, to be recomputed, when they do not.
    The manifest describes the main CSV only: its column types and row count are checked there
    (a run's own chunks are never judged by a manifest that predates them); a CSV without a
    manifest, or a manifest whose CSV is gone, is damage too. ``damaged``, if given, receives
    ``(file, problems)`` for each damaged file (:func:`verify` fails on them).
    """
    def flag(path: Path, problems: list[str]) -> None:
        _report(path, problems)
        if damaged is not None:
            damaged.append((path, list(problems)))

    manifest, problem = _load_manifest(p["manifest"])
    if problem:
        _read_manifest(p["manifest"])  # reports it
        if damaged is not None:
            damaged.append((p["manifest"], [problem]))
        if repair:
            _set_aside(p["manifest"])
    elif manifest is None and p["csv"].exists():
        flag(p["csv"], [f"has no manifest ({p['manifest'].name}): where its rows came from is "
                        "unknown, and the next run records it so"])
    manifest = manifest or {}
    recorded = manifest.get("rows_in_file")
    if isinstance(recorded, int) and recorded > 0 and not p["csv"].exists():
        flag(p["manifest"], [f"records {recorded} rows in {p['csv'].name}, which is missing; "
                             "its tasks are recomputed by the next run"])
    own = {c.get("key") for c in manifest.get("configs", []) if isinstance(c, dict)}
    dtypes = manifest.get("columns") or {}
    frames = []
    for i, path in enumerate(_sources(p)):
        main = path == p["csv"]
        expected = recorded if main and isinstance(recorded, int) else None
        try:
            checked = read_checked(path, expected_rows=expected)
        except FileNotFoundError:  # a chunk merged away by a run that finished meanwhile
            continue
        df, problems = checked.rows, checked.problems
        bad = bad_value_tasks(df[df["key"].isin(own)], dtypes) if main else set()
        if bad:
            problems = problems + [f"{len(bad)} task(s) hold values that do not fit the column "
                                   "types of the manifest; they are dropped to be recomputed"]
            df = df[~pd.MultiIndex.from_frame(df[["key", "index"]]).isin(list(bad))]
        if problems:
            flag(path, problems)
            if repair and checked.unlocated_extra:
                raise DamagedResults(
                    f"{path} holds {checked.unlocated_extra} row(s) more than its manifest "
                    "records, which cannot be traced to a task; move the file aside (e.g. "
                    f"`mv {path} {path}.bad`) and run the same command again to recompute it")
            if repair and checked.unreadable:
                os.replace(path, path.with_name(path.name + ".bad"))
                print(f"gameai: moved it aside to {path.name}.bad", file=sys.stderr)
            elif repair and not main and not len(df):
                path.unlink(missing_ok=True)
        df = df.assign(_src=i)
        frames.append(df)
    if not frames:
        return pd.DataFrame({"key": pd.Series(dtype=str), "index": pd.Series(dtype="int64")})
    df = pd.concat(frames, ignore_index=True)
    df = _one_copy_per_task(df)
    if usecols is not None:  # read whole all the same: every cell is checked
        df = df[[c for c in df.columns if c in usecols]]
    return df.reset_index(drop=True)


def _rows_signature(rows: pd.DataFrame) -> tuple:
    """A task's rows as comparable values: each row's non-empty cells by column name (a merged
    CSV has empty cells for the columns of other experiments, a chunk has no such columns)."""
    return tuple(tuple(sorted((c, str(v)) for c, v in row.items() if pd.notna(v) and v != ""))
                 for row in rows.to_dict("records"))


def _one_copy_per_task(df: pd.DataFrame) -> pd.DataFrame:
    """Keep one copy of a task found in several files (``_src``) when the copies hold the same
    values, and none when they differ: which one is right is unknown, so it is recomputed."""
    sources = df.groupby(["key", "index"])["_src"].transform("nunique")
    if (sources > 1).any():
        disputed = set()
        values = [c for c in df.columns if c != "_src"]
        for task, rows in df[sources > 1].groupby(["key", "index"]):
            copies = {_rows_signature(part[values]) for _, part in rows.groupby("_src")}
            if len(copies) > 1:
                disputed.add(task)
        if disputed:
            print(f"gameai: warning: {len(disputed)} task(s) stored twice with different values; "
                  "they are dropped to be recomputed", file=sys.stderr, flush=True)
            df = df[~pd.MultiIndex.from_frame(df[["key", "index"]]).isin(list(disputed))]
    first = df.groupby(["key", "index"])["_src"].transform("min")
    return df[df["_src"] == first].drop(columns="_src")


def _done(exp: Experiment, cached: pd.DataFrame) -> dict[str, set[int]]:
    return _done_of(cached, {exp.task_key(c): exp.n for c in exp.configs})


def _done_of(cached: pd.DataFrame, need: Mapping[str, int]) -> dict[str, set[int]]:
    """The cached indices below ``need[key]`` of each task key of ``need``."""
    limit = cached["key"].map(need)
    sub = cached.loc[limit.notna() & (cached["index"] < limit), ["key", "index"]]
    done: dict[str, set[int]] = {k: set() for k in need}
    for k, i in sub.drop_duplicates().itertuples(index=False):
        done[k].add(int(i))
    return done


def _select(exp: Experiment, cached: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``exp``'s tasks in config order, then index, then row order, parsed.

    Columns left empty by the selection (results of other versions kept in the same file) are
    dropped, and values are parsed from the selected rows alone, so the frame is the same as from
    a file holding only these rows (no ints widened to floats by other rows' empty cells).
    """
    rank = {exp.task_key(c): r for r, c in enumerate(exp.configs)}
    sub = cached[cached["key"].isin(rank.keys()) & (cached["index"] < exp.n)].copy()
    sub["_rank"] = sub["key"].map(rank)
    sub = sub.sort_values(["_rank", "index"], kind="stable").drop(columns="_rank")
    config_cols = {c for cfg in exp.configs for c in cfg}
    empty = [c for c in sub.columns if c not in config_cols and c not in ("key", "index")
             and (sub[c].isna() | (sub[c] == "")).all()]
    if len(sub):
        sub = sub.drop(columns=empty)
    return _attach_configs(exp, _parse(sub))


def _attach_configs(exp: Experiment, df: pd.DataFrame) -> pd.DataFrame:
    """Put each config's items back beside its rows (the CSV keeps only the task key, so that a
    config - say a list of weights - is not repeated in every one of its thousands of rows)."""
    by_key = {exp.task_key(c): c for c in exp.configs}
    names = [n for n in dict.fromkeys(n for c in exp.configs for n in c) if n not in df.columns]
    keys = df["key"].astype(str)
    for pos, name in enumerate(names, start=2):
        values = {k: _cell(c[name]) if name in c else None for k, c in by_key.items()}
        df.insert(min(pos, len(df.columns)), name, keys.map(values).to_numpy())
    return df


# --------------------------------------------------------------------------- manifest


@functools.lru_cache(maxsize=1)
def _git() -> dict[str, Any]:
    """Commit and dirty flag of the repository holding this code (None outside git).

    Taken once per process, when its first run starts (``load_or_run`` asks before computing):
    the code a long run computes with is the code it loaded then, not whatever HEAD is when a
    manifest is written hours later, after other commits."""
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str | None:
        try:
            res = subprocess.run(["git", *args], cwd=here, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return res.stdout.strip() if res.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    # Only the code counts: results being (re)written under data/ while a run goes on - the
    # run's own output - do not make the code that produced them dirty.
    porcelain = git("status", "--porcelain", "--untracked-files=no", "--",
                    ":(top)", ":(top,exclude)data")
    out: dict[str, Any] = {"git_commit": commit,
                           "git_dirty": None if porcelain is None else bool(porcelain)}
    out.update(_code_identity(git, porcelain))
    return out


def _git_bytes(*args: str) -> bytes | None:
    """The raw output of a git command run beside this file (``None`` outside git)."""
    try:
        res = subprocess.run(["git", *args], cwd=Path(__file__).resolve().parent,
                             capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if res.returncode != 0:
        return None
    return res.stdout if isinstance(res.stdout, bytes) else str(res.stdout).encode()


#: At most this many changed paths are listed in a manifest's ``git_dirty_paths``.
DIRTY_PATHS_SHOWN = 50


def _code_identity(git: Callable[..., str | None], porcelain: str | None) -> dict[str, Any]:
    """What names the code when ``git_commit`` alone does not (issue 29):

    - ``source_hash``: the hash of every ``.py`` file of ``src/gameai`` as this process imported
      it (:func:`gameai.core.jit.loaded_source_hash`, the key of its numba cache): the same
      hash means the same package code, committed or not;
    - when the work tree is dirty, ``git_diff_sha256``: SHA-256 of ``git diff HEAD --binary --
      src`` (the uncommitted change to the package; a patch kept aside can be matched to it),
      and ``git_dirty_paths``: the changed paths outside ``data/`` (which parts were dirty: a
      change to another chapter's files does not touch this one's code).
    """
    from .jit import loaded_source_hash

    out: dict[str, Any] = {"source_hash": loaded_source_hash()}
    if porcelain:
        diff = _git_bytes("diff", "HEAD", "--binary", "--", ":(top)src")
        if diff is not None:
            out["git_diff_sha256"] = hashlib.sha256(diff).hexdigest()
        # "XY path" or "XY old -> new" (the output was stripped: the first line may have lost
        # the blank of an empty X).
        changed = sorted({parts[1].split(" -> ")[-1] for line in porcelain.splitlines()
                          if len(parts := line.split(maxsplit=1)) == 2})
        out["git_dirty_paths"] = changed[:DIRTY_PATHS_SHOWN] + (
            [f"... and {len(changed) - DIRTY_PATHS_SHOWN} more"]
            if len(changed) > DIRTY_PATHS_SHOWN else [])
    return out


def _packages() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in ("numpy", "numba", "pandas", "joblib"):
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def _dtypes(df: pd.DataFrame) -> dict[str, str]:
    """Column -> dtype of the result columns, recorded so that a damaged cell is caught on load."""
    return {c: str(t) for c, t in df.dtypes.items() if c not in ("key", "index")}


def _write_manifest(exp: Experiment, path: Path, result: pd.DataFrame, rows_in_file: int,
                    n_jobs: int, backend: str, wall: float, unknown_rows: int = 0,
                    core_seconds: float | None = None) -> None:
    """Write the manifest; ``wall`` is this run's compute time (added to what earlier, possibly
    interrupted, runs recorded); ``unknown_rows``: rows the file held without a manifest;
    ``core_seconds``: this run's compute time times the cores it kept busy (``None``: not known,
    a Dask cluster), added to the earlier runs' so that runs on different numbers of workers
    are costed each at its own."""
    old = _read_manifest(path) or {}
    earlier_core = recorded_core_seconds(old)
    now = _now()
    lost = _damaged_copies(path)
    if not old and (lost or unknown_rows):
        # The run's history was in a manifest that could not be read (set aside by _read_all)
        # or is missing: its compute time and start are unknown, not zero and now.
        old = {"wall_time_s": UNKNOWN, "created": UNKNOWN}
    earlier = old.get("wall_time_s", 0.0)
    manifest = {
        "experiment": exp.name,
        "chapter": exp.chapter,
        "description": exp.description,
        "version": exp.version,
        "root_seed": exp.seed,
        "params": json.loads(canonical_json(exp.params)),
        "configs": [{"key": exp.task_key(c), "config": json.loads(canonical_json(c))} for c in exp.configs],
        "n": exp.n,
        "rows": len(result),
        "rows_in_file": rows_in_file,
        "columns": _dtypes(result),
        **_git(),
        "packages": _packages(),
        "cpu_count": os.cpu_count(),
        "n_jobs": n_jobs,
        "backend": backend,
        "wall_time_s": UNKNOWN if earlier == UNKNOWN else round(float(earlier) + wall, 3),
        "created": old.get("created", now),
        "updated": now,
    }
    if core_seconds is not None and earlier_core is not None and earlier != UNKNOWN:
        manifest["core_seconds"] = round(earlier_core + core_seconds, 3)
    if lost:
        manifest["damaged_manifests"] = lost
    if unknown_rows:
        # Not computed by the code the git fields name: found in the file without a manifest.
        manifest["rows_of_unknown_origin"] = unknown_rows
    elif isinstance(old.get("rows_of_unknown_origin"), int):
        manifest["rows_of_unknown_origin"] = old["rows_of_unknown_origin"]
    if isinstance(old.get("verified"), list):
        # Dated checks of the rows computed before (record_verified): still true of the rows
        # they checked, which the file keeps.
        manifest["verified"] = old["verified"]
    atomic_write_text(path, json.dumps(manifest, indent=2, sort_keys=False) + "\n")


def _manifest_stale(exp: Experiment, path: Path, rows_in_file: int) -> bool:
    """True when the manifest is missing, garbled or does not describe the file as it is.

    A request for fewer games or configs than the file holds (Kingdomino's Table III asks for
    25, 50, 100 and then 200 games per cell) computes nothing and leaves the manifest alone:
    it describes the file and the commit whose code computed it, not the latest reader."""
    m = _read_manifest(path)
    return m is None or m.get("rows_in_file") != rows_in_file or m.get("version") != exp.version


# --------------------------------------------------------------------------- public API


def status(exp: Experiment, data_dir: str | os.PathLike) -> dict[str, int]:
    """How many of ``exp``'s tasks are cached: ``{"done": …, "total": …, "missing": …,
    "damaged": …}`` (``damaged``: the files found damaged, whose dropped tasks count as
    missing; a file without its manifest counts too, its rows being of unknown origin)."""
    damaged: list[tuple[Path, list[str]]] = []
    cached = _read_all(paths(exp, data_dir), usecols=("key", "index"), damaged=damaged)
    done = sum(len(v) for v in _done(exp, cached).values())
    return {"done": done, "total": exp.total, "missing": exp.total - done,
            "damaged": [path for path, _ in damaged]}


def plan(experiments: Iterable[Experiment], data_dir: str | os.PathLike,
         seed_from: str | os.PathLike | None = None,
         costs_from: str | os.PathLike | None = None) -> list[dict[str, Any]]:
    """What a run of ``experiments`` into ``data_dir`` would do, per results file, reading only.

    Experiments sharing a file (Kingdomino's Table III asks for 25, then 50, ... games of the
    same cells) are counted once, at the largest ``n`` of each task key. Each dict holds
    ``experiment``, ``tasks``, ``cached``, ``copied`` (found in ``seed_from``: copied, not
    computed), ``compute`` and ``core_hours``: the tasks to compute times the core-seconds per
    task that the stored wall time gives (:func:`_task_cost`, from the manifest in ``data_dir``,
    else in ``seed_from``), ``None`` when no usable wall time is stored; ``checked``: the date
    of the timed check that cost rests on, ``None`` for the runs'.
    """
    files: dict[Path, dict[str, Any]] = {}
    exps: dict[Path, Experiment] = {}
    for exp in experiments:
        p = paths(exp, data_dir)
        exps.setdefault(p["csv"], exp)
        entry = files.setdefault(p["csv"], {"experiment": exp.name, "need": {},
                                            "source": paths(exp, seed_from) if seed_from else None,
                                            "p": p, "chunk_size": exp.chunk_size})
        for cfg in exp.configs:
            key = exp.task_key(cfg)
            entry["need"][key] = max(entry["need"].get(key, 0), exp.n)
    out = []
    for csv, entry in files.items():
        need, p, source = entry["need"], entry["p"], entry["source"]
        have = _done_of(_read_all(p, usecols=("key", "index")), need)
        tasks = sum(need.values())
        cached = sum(len(v) for v in have.values())
        copied = 0
        if source is not None and cached < tasks and _sources(source) and \
                source["csv"].resolve() != csv.resolve():
            there = _done_of(_read_all(source, usecols=("key", "index")), need)
            copied = sum(len(there[k] - have[k]) for k in need)
        compute = tasks - cached - copied
        missing = [need[k] - len(have[k]) for k in need if need[k] > len(have[k])]
        per_task = checked = None
        costs = paths(exps[csv], costs_from) if costs_from is not None else None
        for where in (p, source, costs):
            if where is not None and per_task is None:
                per_task, checked = _task_cost(where)
        like = exps[csv].cost_like or ()
        if like and isinstance(like[0], str):
            like = (like,)
        for name, factor in like:
            for folder in (data_dir, seed_from, costs_from):
                if per_task is None and folder is not None:
                    sibling = replace(exps[csv], name=name, cost_like=None)
                    known = _core_seconds_per_task(paths(sibling, folder))
                    per_task = None if known is None else known * float(factor)
        out.append({"experiment": entry["experiment"], "file": csv, "tasks": tasks,
                    "cached": cached, "copied": copied, "compute": compute,
                    "core_hours": None if per_task is None else compute * per_task / 3600,
                    "task_seconds": per_task, "checked": checked, "missing": missing,
                    "chunk_size": entry["chunk_size"]})
    return out


def wall_hours(rows: Sequence[Mapping[str, Any]], workers: int) -> float | None:
    """The wall time (hours) a run of the :func:`plan` ``rows`` would take on ``workers``: each
    experiment's chunks as the runner cuts them (:func:`gameai.core.runner.chunk_lengths`),
    each costing its tasks times the recorded core-seconds per task, handed out in order to the
    first free worker (as joblib does), the experiments one after another. ``None`` when a row
    to compute has no recorded cost. An estimate: it assumes every task of an experiment costs
    the same and the workers run as fast as the recorded run did."""
    from .runner import chunk_lengths

    total = 0.0
    for row in rows:
        if not row["compute"]:
            continue
        if row.get("task_seconds") is None:
            return None
        chunks = chunk_lengths(row["missing"], int(row["chunk_size"]), workers)
        free = [0.0] * max(1, workers)
        for n in chunks:
            i = free.index(min(free))
            free[i] += n * row["task_seconds"]
        total += max(free)
    return total / 3600


def _cores_used(backend: Any, n_jobs: Any, cpu_count: Any) -> int | None:
    """The cores a run with these settings kept busy: ``None`` for a Dask cluster (its size is
    not the run's to know)."""
    if backend == "dask":
        return None
    if backend == "sequential" or n_jobs == 1:
        return 1
    cores = cpu_count or 1
    if isinstance(n_jobs, int) and n_jobs > 0:
        return min(n_jobs, cores)
    return cores


def recorded_core_seconds(manifest: Mapping[str, Any]) -> float | None:
    """The core-seconds a manifest's runs took: its ``core_seconds`` where recorded, else (a
    manifest written before they were) its wall time times the cores of its last run; 0 for no
    manifest; ``None`` when not known (no wall time, a Dask cluster of unknown size)."""
    if not manifest:
        return 0.0
    core = manifest.get("core_seconds")
    if not isinstance(core, bool) and isinstance(core, (int, float)) and core >= 0:
        return float(core)
    wall = manifest.get("wall_time_s")
    if isinstance(wall, bool) or not isinstance(wall, (int, float)) or wall < 0:
        return None
    used = _cores_used(manifest.get("backend"), manifest.get("n_jobs"),
                       manifest.get("cpu_count"))
    return None if used is None else wall * used


def _manifest_cost(manifest: Mapping[str, Any] | None) -> tuple[float, int] | None:
    """(core-seconds, tasks) of the runs a manifest records (:func:`recorded_core_seconds`)
    and the tasks it describes (``n`` per config). ``None`` when that is not known: no wall
    time (a damaged manifest, rows only copied from another folder) or a Dask cluster of
    unknown size."""
    if not manifest:
        return None
    n, configs = manifest.get("n"), manifest.get("configs")
    if not isinstance(n, int) or n <= 0 or not isinstance(configs, list) or not configs:
        return None
    core = recorded_core_seconds(manifest)
    if core is None or core <= 0:
        return None
    return core, n * len(configs)


#: The fewest tasks a check must have timed for its cost per task to stand for a run's: one
#: task of a single config says little about the next.
MIN_TIMED_CHECK = 10
#: The shortest tasks (core-seconds each, by the run) that a check costs: a check calls the
#: runner once per task (about a millisecond each) and pays a process's set-up (a model
#: trained once per process) over a few tasks instead of thousands, which swamps short tasks.
MIN_CHECKED_TASK_SECONDS = 0.1


def _verified_cost(manifest: Mapping[str, Any] | None) -> tuple[float, int, str] | None:
    """(core-seconds, tasks, date) of the newest recorded check (``gameai verify --record``) that
    recomputed at least :data:`MIN_TIMED_CHECK` tasks, a task of every config the file holds,
    and found them all equal, if it is newer than the manifest's last run: what the code at
    that check costs per task, a sample spread evenly over the configs as the run's tasks are.
    ``None`` when there is none (older checks did not time themselves)."""
    if not manifest or not isinstance(manifest.get("verified"), list):
        return None
    for entry in reversed(manifest["verified"]):
        if not isinstance(entry, Mapping):
            continue
        core, tasks = entry.get("core_seconds"), entry.get("checked")
        covered, configs = entry.get("configs_checked"), entry.get("configs")
        timed = (isinstance(core, (int, float)) and not isinstance(core, bool) and core > 0
                 and isinstance(tasks, int) and tasks >= MIN_TIMED_CHECK
                 and entry.get("mismatched") == 0)
        if timed and isinstance(configs, int) and configs > 0 and covered == configs:
            newer = str(entry.get("date", "")) >= str(manifest.get("updated", ""))
            return (float(core), tasks, str(entry.get("date", ""))) if newer else None
    return None


def _core_seconds_per_task(p: Mapping[str, Path]) -> float | None:
    """:func:`_task_cost`'s core-seconds per task."""
    return _task_cost(p)[0]


def _task_cost(p: Mapping[str, Path]) -> tuple[float | None, str | None]:
    """(core-seconds per task, the date of the check it rests on or ``None``): per task of the
    runs the manifest of the results at ``p`` (:func:`paths`) records (:func:`_manifest_cost`)
    and of the interrupted runs whose chunks wait in its partial folder (:func:`_partial_cost`),
    pooled: all the recorded compute over all the tasks it made. A check that timed a task of
    every config after the last run (:func:`_verified_cost`) stands for the finished runs
    instead, where their tasks took :data:`MIN_CHECKED_TASK_SECONDS` or more: faster code that
    plays the same games (the check found them equal) is costed at its own speed.
    ``(None, None)`` when nothing is known. An estimate: the runs may have shared their cores
    with other work."""
    manifest = _read_manifest(p["manifest"])
    run, check = _manifest_cost(manifest), _verified_cost(manifest)
    length = run or (check[:2] if check else None)
    long_tasks = length is not None and length[0] / length[1] >= MIN_CHECKED_TASK_SECONDS
    checked = check is not None and long_tasks
    finished = check[:2] if checked else run
    known = [c for c in (finished, _partial_cost(p["partial"])) if c]
    if not known:
        return None, None
    return sum(c for c, _ in known) / sum(n for _, n in known), check[2] if checked else None


def core_seconds_per_task(exp: Experiment, data_dir: str | os.PathLike) -> float | None:
    """What one of ``exp``'s tasks cost by its manifest in ``data_dir``
    (:func:`_core_seconds_per_task`): a measured basis for the time a run still needs, where
    one has been recorded; ``None`` otherwise."""
    return _core_seconds_per_task(paths(exp, data_dir))


def wall_time(exp: Experiment, data_dir: str | os.PathLike) -> float | None:
    """Seconds of compute spent on ``exp`` so far: what its manifest records for finished runs
    plus what interrupted runs spent on the chunks still waiting in its partial folder; ``None``
    when the manifest records it as :data:`UNKNOWN` (it was damaged)."""
    p = paths(exp, data_dir)
    done = (_read_manifest(p["manifest"]) or {}).get("wall_time_s", 0.0)
    if done == UNKNOWN:
        return None
    return float(done) + _partial_wall(p["partial"])


def load(exp: Experiment, data_dir: str | os.PathLike) -> pd.DataFrame:
    """Whatever is cached for ``exp``'s tasks (possibly incomplete); computes nothing."""
    return _select(exp, _read_all(paths(exp, data_dir)))


_DRY_RUN: ContextVar[list | None] = ContextVar("gameai_dry_run", default=None)


@contextmanager
def dry_run() -> Iterator[list[Experiment]]:
    """Within it, :func:`load_or_run` computes and writes nothing: it only reads, and adds each
    experiment it was asked to compute to the list this yields. ``gameai run --dry-run`` runs a
    chapter's own code this way, so that it counts exactly the experiments (and sizes) a run
    would compute; the check sits here, where every computation passes, so no chapter can
    compute by mistake during a dry run."""
    asked: list[Experiment] = []
    token = _DRY_RUN.set(asked)
    try:
        yield asked
    finally:
        _DRY_RUN.reset(token)


def load_or_run(
    exp: Experiment,
    *,
    data_dir: str | os.PathLike,
    n_jobs: int = 1,
    backend: str = "loky",
    progress: bool | str = "auto",
    compute: bool = True,
    seed_from: str | os.PathLike | None = None,
) -> pd.DataFrame:
    """Rows of ``exp`` (configs in order, indices ``0..n-1``), computing only the missing tasks.

    With ``compute=False`` nothing is written and a missing task raises :class:`MissingResults`.
    With ``compute=True`` the chapter's folder is locked for the run (:class:`FolderBusy` if
    another process holds it), damaged files are repaired, and the manifest is rewritten when it
    does not describe the file. ``seed_from``: another results folder (the committed ``data/``)
    whose rows of the same tasks are copied instead of recomputed - a task's rows depend only on
    its key and index, so they are the rows this run would compute.
    """
    asked = _DRY_RUN.get()
    if asked is not None:  # see dry_run
        if compute:
            asked.append(exp)
        compute = False
    p = paths(exp, data_dir)
    if compute:
        _git()  # the code's commit as this run starts (see _git)
    with folder_lock(p["csv"].parent) if compute else nullcontext():
        cached = _read_all(p, usecols=("key", "index"), repair=compute)
        if compute and seed_from is not None:
            if _copy_tasks(exp, paths(exp, seed_from), p, _done(exp, cached)):
                cached = _read_all(p, usecols=("key", "index"))
        done = _done(exp, cached)
        missing = exp.total - sum(len(have) for have in done.values())
        if missing and not compute:
            raise MissingResults(
                f"{missing} of {exp.total} tasks of experiment '{exp.chapter}/{exp.name}' are "
                f"not cached in {p['csv'].parent}; compute them with `gameai run {exp.chapter}` "
                f"(or load_or_run(..., compute=True))"
            )
        if not compute:
            return _select(exp, _read_all(p))

        wall, interrupted_wall = 0.0, _partial_wall(p["partial"])
        interrupted = _partial_cost(p["partial"])
        # Rows already in the CSV with no manifest to say where they came from (read above,
        # reported as damage): the manifest this run writes records their origin as unknown.
        orphans = 0 if p["manifest"].exists() or not p["csv"].exists() else \
            len(read_checked(p["csv"]).rows)
        if missing:
            t0 = time.perf_counter()
            _run_missing(exp, done, missing, p, n_jobs=n_jobs, backend=backend,
                         progress=progress)
            wall = time.perf_counter() - t0
        merge = bool(missing) or p["partial"].is_dir()
        everything = _read_all(p, repair=True)
        if merge:
            everything = everything.sort_values(["key", "index"], kind="stable")
        _check_kept(exp, everything, p)
        result = _select(exp, everything)
        # The manifest first, then the CSV: a run stopped between the two leaves a CSV with
        # fewer rows than its manifest (its last task is recomputed; the chunks still hold the
        # new rows), never one with more rows than the manifest, which would be damage.
        if missing or interrupted_wall or _manifest_stale(exp, p["manifest"], len(everything)):
            used = _cores_used(backend, n_jobs, os.cpu_count())
            # interrupted runs that did not record their cores are taken to have used this one's
            core = None if used is None else wall * used + (
                interrupted[0] if interrupted else interrupted_wall * used)
            _write_manifest(exp, p["manifest"], result, len(everything), n_jobs, backend,
                            interrupted_wall + wall, unknown_rows=orphans, core_seconds=core)
        if merge:
            _write_merged(p, everything)
        return result


def _check_kept(exp: Experiment, everything: pd.DataFrame, p: Mapping[str, Path]) -> None:
    """Raise, instead of writing a file without them, when tasks this run has just computed (or
    found cached) are not among the rows it is about to merge: its chunks are kept in
    ``.partial/`` for the next run, and the run fails loudly rather than say "done"."""
    done = _done(exp, everything)
    lost = exp.total - sum(len(have) for have in done.values())
    if lost:
        raise DamagedResults(
            f"{lost} of {exp.total} tasks of {exp.chapter}/{exp.name} were computed but not "
            f"kept at the merge (files in {p['csv'].parent} disagree, see the warnings above); "
            f"nothing was merged and the chunks stay in {p['partial']}")


def _missing_tasks(exp: Experiment, done: Mapping[str, set[int]]) -> Iterator[tuple[dict, int]]:
    """``(merged config, index)`` of every task of ``exp`` not in ``done``, in config order then
    index order, generated one at a time (see :data:`TASK_BATCH`). The tasks of one config share
    their config dict; the runner copies it before a task sees it."""
    for cfg in exp.configs:
        have = done[exp.task_key(cfg)]
        merged = exp.merged(cfg)
        for i in range(exp.n):
            if i not in have:
                yield merged, i


def _run_missing(exp: Experiment, done: Mapping[str, set[int]], missing: int,
                 p: Mapping[str, Path], *, n_jobs: int, backend: str,
                 progress: bool | str) -> None:
    """Compute ``exp``'s ``missing`` tasks, :data:`TASK_BATCH` at a time, saving each chunk as
    it finishes. One progress line or bar covers them all; the warmup runs once. The rows are
    read back from the saved chunks, so the runner keeps none (a task's rows depend only on its
    key and index, so batching changes no row)."""
    reporter = Progress(total=missing, desc=f"{exp.chapter}/{exp.name}", mode=progress)
    saver = _chunk_saver(exp, p["partial"],
                         _cores_used(backend, n_jobs, os.cpu_count()))
    tasks = _missing_tasks(exp, done)
    warmup = exp.warmup
    try:
        while batch := list(itertools.islice(tasks, TASK_BATCH)):
            run_tasks(exp.fn, batch, root_seed=exp.seed, n_jobs=n_jobs, backend=backend,
                      chunk_size=exp.chunk_size, progress=reporter, on_chunk=saver,
                      warmup=warmup, keep_rows=False)
            warmup = None
    finally:
        reporter.close()


def _copy_tasks(exp: Experiment, source: Mapping[str, Path], p: Mapping[str, Path],
                done: Mapping[str, set[int]]) -> int:
    """Copy the rows of ``exp``'s missing tasks from another folder's files into ``p``'s
    chunks; returns the number of tasks copied. The source is only read."""
    if not _sources(source) or source["csv"].resolve() == p["csv"].resolve():
        return 0
    rows = _read_all(source)
    rows = rows[rows["key"].isin(done.keys()) & (rows["index"] < exp.n)]
    have = pd.MultiIndex.from_tuples([(k, i) for k, idx in done.items() for i in idx],
                                     names=["key", "index"])
    rows = rows[~pd.MultiIndex.from_frame(rows[["key", "index"]]).isin(have)]
    for key, group in rows.groupby("key", sort=False):
        # One chunk file per run of consecutive indices, named as the runner's chunks are.
        group = group.sort_values("index", kind="stable")
        run_id = (group["index"].diff().fillna(0) > 1).cumsum()
        for _, part in group.groupby(run_id):
            start, stop = int(part["index"].min()), int(part["index"].max()) + 1
            atomic_to_csv(part, p["partial"] / f"{key}-{start}-{stop}.csv")
    return int(rows[["key", "index"]].drop_duplicates().shape[0])


#: Columns that measure wall-clock time (a search's seconds): never the same twice, so
#: :func:`verify` does not compare them (it compares every other column).
TIMING_COLUMNS = ("seconds",)


def verify(exp: Experiment, data_dir: str | os.PathLike, *, per_config: int = 2, n_jobs: int = 1,
           backend: str = "loky", max_seconds: float | None = None,
           progress: bool | str = False, announce: Callable[[str], None] | None = None,
           clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Recompute a sample of ``exp``'s cached tasks and compare them with the stored rows.

    Every task's result depends only on (root seed, config, index) and the code, so a stored row
    that the current code does not reproduce exactly means the code changed without a version
    bump, or the row came from stale compiled code (timings, ``TIMING_COLUMNS``, are not
    compared). ``per_config`` tasks are taken per config, spread evenly over its indices, and
    run round-robin over the configs (the first of every config, then the second, ...), so that
    a sample cut short by ``max_seconds`` still covers as many configs as it can.

    ``max_seconds`` bounds the time spent on this experiment: the sample is cut to the tasks
    that fit by the compute time per task its manifest records (an experiment whose single task
    takes longer is skipped), and no further task is started once the time is spent. Returns
    ``{"checked", "mismatched", "keys", "examples", "damaged"}`` (``keys``: the task keys with a
    differing task; ``damaged``: ``(file, problems)`` of each damaged file read, whose dropped
    tasks could not be checked), with a bound also ``"sampled"`` (the tasks the sample held),
    ``"skipped"`` (those left unchecked by the bound) and ``"note"`` (why; empty if none was);
    nothing is written. ``announce(line)`` is told what is about to be computed; ``progress``
    as for :func:`gameai.core.runner.run_tasks`.
    """
    if isinstance(per_config, bool) or not isinstance(per_config, int) or per_config < 1:
        raise ValueError(f"parameter 'per_config' must be an int >= 1, got {per_config!r}")
    if max_seconds is not None and (isinstance(max_seconds, bool)
                                    or not isinstance(max_seconds, (int, float))
                                    or not max_seconds > 0 or max_seconds == float("inf")):
        raise ValueError(f"parameter 'max_seconds' must be a finite number > 0, got {max_seconds!r}")
    damaged: list[tuple[Path, list[str]]] = []
    p = paths(exp, data_dir)
    stored = _read_all(p, damaged=damaged)
    done = _done(exp, stored)
    per_key: list[list[tuple[str, dict, int]]] = []
    for cfg in exp.configs:
        key = exp.task_key(cfg)
        have = sorted(done[key])
        step = max(1, len(have) // per_config)
        per_key.append([(key, exp.merged(cfg), i) for i in have[::step][:per_config]])
    sample = [t for rank in itertools.zip_longest(*per_key) for t in rank if t is not None]
    tasks = [(cfg, i) for _, cfg, i in sample]
    result: dict[str, Any] = {"checked": 0, "mismatched": 0, "keys": [], "examples": [],
                              "damaged": damaged}
    if max_seconds is not None:
        result.update(sampled=len(tasks), skipped=0, note="")
    if not tasks:
        return result
    workers = _workers(n_jobs, backend)
    per_task = _core_seconds_per_task(p)
    todo = tasks
    if max_seconds is not None and per_task is not None:
        fit = int(max_seconds * workers // per_task)
        if fit < len(tasks):
            todo = tasks[:fit]
            result["note"] = (f"time bound {max_seconds:g} s: one task takes about "
                              f"{_duration(per_task)} by its manifest, so "
                              + ("the experiment is skipped" if not fit else
                                 f"{fit} of {len(tasks)} sampled tasks are checked"))
    if announce is not None and todo:
        estimate = ("" if per_task is None else
                    f", about {_duration(per_task * len(todo) / workers)} by its manifest")
        announce(f"{exp.name}: recomputing {len(todo)} task(s){estimate}")
    fresh: list[pd.DataFrame] = []
    reporter = Progress(total=len(todo), desc=f"verify {exp.chapter}/{exp.name}",
                        mode=progress)
    if todo and exp.warmup is not None:
        exp.warmup()  # compiling is not the tasks' cost: the clock starts after it
    start, ran = clock(), 0
    try:
        while ran < len(todo):
            if max_seconds is not None and ran and clock() - start >= max_seconds:
                result["note"] = (f"time bound {max_seconds:g} s reached after {ran} of "
                                  f"{len(tasks)} sampled tasks")
                break
            batch = todo[ran:ran + workers]
            run_tasks(exp.fn, batch, root_seed=exp.seed, n_jobs=n_jobs, backend=backend,
                      chunk_size=1, progress=reporter, on_chunk=fresh.append, keep_rows=False)
            ran += len(batch)
    finally:
        reporter.close()
    result["checked"] = ran
    # what the recomputation cost, for the plan (:func:`_verified_cost`): the cores it held
    # (a Dask cluster's are not known) and the configs its tasks cover
    cores = None if backend == "dask" else workers
    result["core_seconds"] = None if cores is None else (clock() - start) * cores
    result["configs_checked"] = len({key for key, _, _ in sample[:ran]})
    result["configs"] = sum(1 for tasks_of in per_key if tasks_of)
    if max_seconds is not None:
        result["skipped"] = len(tasks) - ran
    if not fresh:
        return result
    to_rows = _store_rows(exp)
    new_rows = [to_rows(chunk) for chunk in fresh]
    sampled = {(df["key"].iloc[0], int(df["index"].iloc[0])) for df in new_rows}
    mask = pd.MultiIndex.from_frame(stored[["key", "index"]]).isin(list(sampled))
    stored_by_task = dict(list(stored[mask].groupby(["key", "index"])))
    rank = {(key, i): r for r, (key, _, i) in enumerate(sample)}
    new_rows.sort(key=lambda df: rank[(df["key"].iloc[0], int(df["index"].iloc[0]))])
    for new in new_rows:
        key, index = new["key"].iloc[0], int(new["index"].iloc[0])
        new = _parse(new.drop(columns="key").astype(str))
        old = stored_by_task[(key, index)]
        old = _parse(old[[c for c in new.columns if c in old.columns]])
        same = list(new.columns) == list(old.columns) and len(new) == len(old) and all(
            _same_column(new[c], old[c]) for c in new.columns if c not in TIMING_COLUMNS)
        if not same:
            result["mismatched"] += 1
            if key not in result["keys"]:
                result["keys"].append(key)
            if len(result["examples"]) < 5:
                result["examples"].append({"key": key, "index": index,
                                           "stored": old.to_dict("records")[:3],
                                           "recomputed": new.to_dict("records")[:3]})
    return result


def _workers(n_jobs: int, backend: str) -> int:
    """How many tasks run at once with these settings on this machine (a Dask cluster's size
    is not known here: counted as this machine's cores)."""
    cores = os.cpu_count() or 1
    if backend == "sequential" or (n_jobs == 1 and backend != "dask"):
        return 1
    if backend == "dask" or n_jobs < 0:
        return cores
    return min(int(n_jobs), cores)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def record_verified(exp: Experiment, data_dir: str | os.PathLike, outcome: Mapping[str, Any],
                    per_config: int) -> dict[str, Any] | None:
    """Add the outcome of :func:`verify` to ``exp``'s manifest, under ``verified`` (a list, one
    dated entry per check): the date, the code that re-ran the sample (git commit, dirty flag,
    ``source_hash``, diff hash), the tasks sampled, checked and differing. For manifests whose
    ``git_commit`` does not name the code (``git_dirty: true``): the check says which code
    reproduces a sample of the rows. Only the manifest changes, atomically, under the folder's
    lock (:class:`FolderBusy` while a run holds it); its rows and its description of the run
    stay as they are. Returns the entry, or ``None`` when there is no manifest to add it to."""
    p = paths(exp, data_dir)
    with folder_lock(p["csv"].parent):
        manifest = _read_manifest(p["manifest"])
        if manifest is None:
            return None
        entry = {"date": _now(), **_git(), "per_config": per_config,
                 "sampled": int(outcome.get("sampled", outcome["checked"])),
                 "checked": int(outcome["checked"]),
                 "mismatched": int(outcome["mismatched"]),
                 "damaged_files": len(outcome.get("damaged", []))}
        if outcome.get("note"):
            entry["note"] = outcome["note"]
        if outcome.get("core_seconds") is not None and outcome["checked"]:
            from .benchrecord import machine

            entry.update(core_seconds=round(float(outcome["core_seconds"]), 3),
                         configs_checked=int(outcome["configs_checked"]),
                         configs=int(outcome["configs"]), cpu=machine()["cpu"])
        history = manifest.get("verified")
        manifest["verified"] = (history if isinstance(history, list) else []) + [entry]
        atomic_write_text(p["manifest"], json.dumps(manifest, indent=2, sort_keys=False) + "\n")
    return entry


def forget(exp: Experiment, data_dir: str | os.PathLike,
           keys: Sequence[str] | None = None) -> int:
    """Remove the cached rows of some of ``exp``'s task keys (all of its keys by default).

    For results the current code no longer reproduces (see :func:`verify`): the next
    :func:`load_or_run` computes them again. Rows of other experiments' keys that share the
    file are kept. Returns the number of rows removed.
    """
    p = paths(exp, data_dir)
    own = {exp.task_key(c) for c in exp.configs}
    drop = own if keys is None else set(keys)
    unknown = sorted(drop - own)
    if unknown:
        raise ValueError(f"parameter 'keys' names tasks that are not experiment {exp.name!r}'s: "
                         f"{unknown}")
    if not _sources(p):
        return 0
    with folder_lock(p["csv"].parent):
        everything = _merge(p)
        gone = everything["key"].isin(drop)
        atomic_to_csv(everything[~gone], p["csv"])
        manifest = _read_manifest(p["manifest"])
        if manifest is not None:  # it must keep describing the file, or the next read distrusts it
            manifest["rows_in_file"] = int((~gone).sum())
            atomic_write_text(p["manifest"], json.dumps(manifest, indent=2) + "\n")
    return int(gone.sum())


def prune(experiments: Iterable[Experiment], data_dir: str | os.PathLike,
          dry_run: bool = False) -> list[dict]:
    """Remove rows that none of ``experiments`` uses from the files they read.

    A results file can be shared by several experiments (one file per name) and keeps the rows
    of every task key ever computed into it; after a configuration changes its key (a new rule
    setting, say), the old key's rows stay in the file, unused. ``experiments`` must be every
    experiment of the chapter at the folder's parameters (``results(...).experiments``): rows of
    any other key are dropped, the manifest's ``rows_in_file`` follows. Returns one dict per file
    with unused rows: ``file``, ``removed``, ``kept`` and the unused ``keys``; ``dry_run``
    changes nothing.
    """
    keep: dict[Path, set] = {}
    where: dict[Path, Mapping[str, Path]] = {}
    for exp in experiments:
        p = paths(exp, data_dir)
        keep.setdefault(p["csv"], set()).update(exp.task_key(c) for c in exp.configs)
        where[p["csv"]] = p
    out = []
    for csv, keys in keep.items():
        p = where[csv]
        if not _sources(p):
            continue
        cached = _read_all(p, usecols=("key",))
        unused = ~cached["key"].isin(keys)
        if not unused.any():
            continue
        out.append({"file": csv, "removed": int(unused.sum()), "kept": int((~unused).sum()),
                    "keys": sorted(set(cached.loc[unused, "key"]))})
        if dry_run:
            continue
        with folder_lock(csv.parent):
            everything = _merge(p)
            used = everything["key"].isin(keys)
            atomic_to_csv(everything[used], csv)
            manifest = _read_manifest(p["manifest"])
            if manifest is not None:  # it must keep describing the file (see forget)
                manifest["rows_in_file"] = int(used.sum())
                atomic_write_text(p["manifest"], json.dumps(manifest, indent=2) + "\n")
    return out


def _same_column(a: pd.Series, b: pd.Series) -> bool:
    a, b = a.reset_index(drop=True), b.reset_index(drop=True)
    if pd.api.types.is_numeric_dtype(a) and pd.api.types.is_numeric_dtype(b):
        return bool(((a - b).abs() <= 1e-9 * (1 + b.abs())).all())
    return bool((a.astype(str) == b.astype(str)).all())


def _merge(p: Mapping[str, Path]) -> pd.DataFrame:
    """Fold the saved chunks into the main CSV (sorted by key, index), delete them, return all."""
    df = _read_all(p).sort_values(["key", "index"], kind="stable")
    _write_merged(p, df)
    return df


def _write_merged(p: Mapping[str, Path], df: pd.DataFrame) -> None:
    """Write the merged rows as the main CSV, then delete the chunks they include."""
    atomic_to_csv(df, p["csv"])
    shutil.rmtree(p["partial"], ignore_errors=True)
    try:
        p["partial"].parent.rmdir()  # .partial/ itself, if no other experiment is using it
    except OSError:
        pass


WALL_FILE = "wall.json"


def _partial_record(partial: Path) -> dict[str, Any]:
    """What interrupted runs recorded beside their chunks in ``partial`` (``{}`` if nothing)."""
    try:
        record = json.loads((partial / WALL_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _partial_wall(partial: Path) -> float:
    """Compute time spent on the chunks in ``partial`` by runs that were interrupted."""
    try:
        return float(_partial_record(partial)["wall_time_s"])
    except (KeyError, TypeError, ValueError):
        return 0.0


def _partial_cost(partial: Path) -> tuple[float, int] | None:
    """(core-seconds, tasks) that interrupted runs spent on the chunks in ``partial``, where
    they recorded both (runs before this record, or on a Dask cluster, did not): so that a plan
    made mid-run is costed from the run in progress too, not only from older finished runs."""
    record = _partial_record(partial)
    cost, tasks = record.get("core_seconds"), record.get("tasks")
    if isinstance(cost, bool) or not isinstance(cost, (int, float)) or cost <= 0:
        return None
    if isinstance(tasks, bool) or not isinstance(tasks, int) or tasks <= 0:
        return None
    return float(cost), tasks


def _chunk_saver(exp: Experiment, partial: Path,
                 cores: int | None) -> Callable[[pd.DataFrame], None]:
    """``on_chunk`` for the runner: save a finished chunk in the store's row format, and the
    compute time so far beside it (so that a resumed run's manifest counts the whole time),
    with the core-seconds and tasks behind it (:func:`_partial_cost`) where the run's cores
    (``cores``) are known and every earlier run recorded them too."""
    to_rows = _store_rows(exp)
    before, t0 = _partial_wall(partial), time.perf_counter()
    earlier = _partial_cost(partial)
    costed = cores is not None and (earlier is not None or before == 0)
    cost0, tasks0 = earlier or (0.0, 0)
    done = 0

    def save(chunk: pd.DataFrame) -> None:
        nonlocal done
        df = to_rows(chunk)
        start, stop = int(df["index"].min()), int(df["index"].max()) + 1
        atomic_to_csv(df, partial / f"{df['key'].iloc[0]}-{start}-{stop}.csv")
        done += int(df["index"].nunique())
        elapsed = time.perf_counter() - t0
        record: dict[str, Any] = {"wall_time_s": round(before + elapsed, 3)}
        if costed:
            record.update(core_seconds=round(cost0 + elapsed * cores, 3), tasks=tasks0 + done)
        atomic_write_text(partial / WALL_FILE, json.dumps(record) + "\n")

    return save


def _store_rows(exp: Experiment) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """The runner's rows of one config -> the store's rows.

    The runner labels rows with the hash of the merged config and repeats the shared params and
    the config's items in every row; the store labels them with the task key and keeps the
    params in the manifest and the configs in :func:`_attach_configs`.
    """
    to_task_key = {config_key(exp.merged(c)): exp.task_key(c) for c in exp.configs}
    drop = ["config_key", *exp.params, *sorted({name for c in exp.configs for name in c})]

    def convert(chunk: pd.DataFrame) -> pd.DataFrame:
        if "key" in chunk.columns:
            raise ValueError(f"{getattr(exp.fn, '__name__', exp.fn)} returned a field named 'key', "
                             "which the store reserves for the task key; rename it")
        df = chunk.drop(columns=drop, errors="ignore")
        df.insert(0, "key", to_task_key[chunk["config_key"].iloc[0]])
        return df

    return convert
