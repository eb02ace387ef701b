"""Run many (config, game index) tasks in parallel, reproducibly.

Every task draws its randomness from its own :class:`numpy.random.SeedSequence`, built from the
root seed, a stable hash of the task's config and the task's index. A task's result therefore
depends only on (root seed, config, index): not on ``n_jobs``, the chunking, the backend, the order
in which workers finish, or which other tasks run alongside. That is what lets the store compute
only missing games and still get the numbers a single full run would give.

Tasks are grouped into chunks (same config, consecutive indices) so that each joblib job does a
meaningful amount of work; finished chunks are handed to ``on_chunk`` in the parent as they arrive
(the store saves them, so an interrupted run keeps them).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import signal
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TextIO

import joblib
import numpy as np
import pandas as pd

__all__ = [
    "BACKENDS",
    "canonical_json",
    "config_key",
    "task_seed",
    "run_tasks",
    "Progress",
]

BACKENDS = ("loky", "threading", "sequential", "dask")
RESERVED = ("config_key", "index")

ExperimentFn = Callable[[dict, int, np.random.Generator], "dict | list[dict]"]


# --------------------------------------------------------------------------- keys and seeds


def _json_default(obj: Any) -> Any:
    """Make numpy scalars/arrays JSON-able so that ``np.int64(3)`` and ``3`` hash alike."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"config values must be plain JSON-able values, got {type(obj).__name__}: {obj!r}")


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and no spaces; tuples become lists. The basis of every cache key."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_json_default)


def config_key(config: Mapping[str, Any]) -> str:
    """A short stable hash (16 hex digits of SHA-256) of the canonical JSON of ``config``.

    Note that ``1`` and ``1.0`` are different configs (they print differently in JSON).
    """
    return hashlib.sha256(canonical_json(dict(config)).encode()).hexdigest()[:16]


def task_seed(root_seed: int, config: Mapping[str, Any], index: int) -> np.random.SeedSequence:
    """The seed of task ``(config, index)``: ``SeedSequence(root_seed, spawn_key=(hash, index))``."""
    return _seed(root_seed, config_key(config), index)


def _seed(root_seed: int, key: str, index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(root_seed, spawn_key=(int(key, 16), index))


# --------------------------------------------------------------------------- progress


class Progress:
    """Progress over tasks: a tqdm bar on a terminal, sparse text lines elsewhere (CI, logs).

    ``mode``: ``True`` -> tqdm bar; ``"auto"`` -> bar if stderr is a TTY, otherwise a text line
    at most every 10 % of the tasks or every 30 s; ``False`` -> silent.
    """

    def __init__(
        self,
        total: int,
        desc: str = "",
        mode: bool | str = "auto",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        every_fraction: float = 0.1,
        every_seconds: float = 30.0,
    ) -> None:
        _check_progress(mode)
        self.total = total
        self.desc = desc or "run"
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.every_fraction = every_fraction
        self.every_seconds = every_seconds
        self.done = 0
        self.start = clock()
        self._last_time = self.start
        self._last_done = 0
        self._bar = None
        if mode is True or (mode == "auto" and _isatty(self.stream)):
            from tqdm import tqdm

            self.kind = "bar"
            self._bar = tqdm(total=total, desc=desc or None, unit="task", file=self.stream,
                             dynamic_ncols=True)
        elif mode == "auto":
            self.kind = "text"
        else:
            self.kind = "off"

    def update(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self.kind == "text":
            now = self.clock()
            step = max(1, int(self.total * self.every_fraction))
            if (self.done // step > self._last_done // step
                    or now - self._last_time >= self.every_seconds):
                self._print(now)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.kind == "text" and self.done != self._last_done:
            self._print(self.clock())

    def line(self, now: float) -> str:
        """The text line, e.g. ``fig2: 1300/13000 tasks (10%) 12.3s elapsed, ~110s left``."""
        elapsed = now - self.start
        pct = 100.0 * self.done / self.total if self.total else 100.0
        text = f"{self.desc}: {self.done}/{self.total} tasks ({pct:.0f}%) {elapsed:.1f}s elapsed"
        if 0 < self.done < self.total:
            left = elapsed * (self.total - self.done) / self.done
            text += f", ~{left:.0f}s left"
        return text

    def _print(self, now: float) -> None:
        print(self.line(now), file=self.stream, flush=True)
        self._last_time = now
        self._last_done = self.done


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _check_progress(progress: Any) -> None:
    if not (isinstance(progress, bool) or progress == "auto"):
        raise ValueError(f"parameter 'progress' must be 'auto', True or False, got {progress!r}")


# --------------------------------------------------------------------------- chunks


@dataclass(frozen=True)
class _Chunk:
    seq: int
    key: str
    config: dict
    indices: tuple[int, ...]


#: Chunks per worker that the tasks still to hand out would make at least: with fewer, the
#: run's last chunks leave most workers idle (the tail), and a worker that draws a slow chunk
#: early holds up the end.
MIN_CHUNKS_PER_WORKER = 4


def spread_chunk_size(n_tasks: int, chunk_size: int, workers: int,
                      per_worker: int = MIN_CHUNKS_PER_WORKER) -> int:
    """The length of the next chunk when ``n_tasks`` are left to hand out to ``workers``:
    ``chunk_size``, or less where that would leave fewer than ``per_worker`` chunks per worker.

    Applied to what is left at each chunk, this is guided self-scheduling (Polychronopoulos &
    Kuck 1987): chunks shrink towards the end of a run, down to one task, so the workers finish
    within about one task of each other. Measured on 16 workers (a run of 768 Durak games in
    three rounds), one size for each round left the workers idle about 7 s of 57 waiting for
    the last chunks. The rows do not depend on it."""
    if workers <= 1 or n_tasks <= 0:
        return chunk_size
    return max(1, min(chunk_size, -(-n_tasks // (per_worker * workers))))


def worker_count(n_jobs: int, backend: str) -> int:
    """How many tasks run at once: 1 in this process, ``n_jobs`` (``-1``: every core) for loky
    and threading, and a Dask cluster's threads (1 when no client is found)."""
    if backend == "sequential" or (n_jobs == 1 and backend != "dask"):
        return 1
    if backend == "dask":
        try:
            from distributed import get_client

            return max(1, sum(get_client().nthreads().values()))
        except (ImportError, ValueError, OSError):
            return 1
    return max(1, int(joblib.effective_n_jobs(n_jobs)))


def chunk_lengths(runs: Sequence[int], chunk_size: int, workers: int = 1) -> list[int]:
    """The lengths of the chunks cut from runs of ``runs`` tasks each (a run: one config's
    consecutive indices, which no chunk crosses), in order: each chunk as long as
    :func:`spread_chunk_size` allows for the tasks left when it starts, and no longer than what is
    left of its run."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise ValueError(f"parameter 'chunk_size' must be an int >= 1, got {chunk_size!r}")
    lengths: list[int] = []
    left = sum(runs)
    for run in runs:
        while run > 0:
            n = min(run, spread_chunk_size(left, chunk_size, workers))
            lengths.append(n)
            run -= n
            left -= n
    return lengths


def _make_chunks(tasks: Sequence[tuple[Mapping[str, Any], int]], chunk_size: int,
                 workers: int = 1) -> list[_Chunk]:
    """Group tasks into chunks of one config and consecutive indices (:func:`chunk_lengths`)."""
    runs: list[tuple[str, dict, list[int]]] = []
    seen: set[tuple[str, int]] = set()
    for task in tasks:
        if not (isinstance(task, (tuple, list)) and len(task) == 2 and isinstance(task[0], Mapping)):
            raise ValueError(f"each task must be a (config dict, index) pair, got {task!r}")
        config, index = task
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index < 0:
            raise ValueError(f"task index must be an int >= 0, got {index!r}")
        index = int(index)
        k = config_key(config)
        if (k, index) in seen:
            raise ValueError(f"duplicate task: index {index} of config {dict(config)!r}")
        seen.add((k, index))
        if runs and runs[-1][0] == k and index == runs[-1][2][-1] + 1:
            runs[-1][2].append(index)
        else:
            runs.append((k, dict(config), [index]))
    lengths = iter(chunk_lengths([len(r[2]) for r in runs], chunk_size, workers))
    chunks: list[_Chunk] = []
    for key, cfg, indices in runs:
        start = 0
        while start < len(indices):
            n = next(lengths)
            chunks.append(_Chunk(len(chunks), key, cfg, tuple(indices[start:start + n])))
            start += n
    return chunks


def _cell(value: Any) -> Any:
    """Config values as DataFrame cells: lists/tuples/dicts as canonical JSON strings."""
    if isinstance(value, (list, tuple, dict, set, frozenset, np.ndarray)):
        return canonical_json(value)
    return value


_SCALARS = (str, int, float, bool, np.generic, type(None))


def _as_rows(out: Any, fn: Callable, index: int, taken: set[str]) -> list[Mapping[str, Any]]:
    name = getattr(fn, "__name__", repr(fn))
    rows = [out] if isinstance(out, Mapping) else out
    if not isinstance(rows, list) or not rows or not all(isinstance(r, Mapping) for r in rows):
        raise TypeError(
            f"{name} must return a dict or a non-empty list of dicts; got {type(out).__name__} "
            f"for task index {index}"
        )
    for row in rows:
        clash = sorted(set(row) & taken)
        if clash:
            raise ValueError(
                f"{name} returned field(s) {clash} that clash with config items or the reserved "
                f"columns {list(RESERVED)}; rename them"
            )
        for field, value in row.items():
            if not isinstance(value, _SCALARS):
                raise TypeError(
                    f"{name} returned field {field!r} = {type(value).__name__}; rows must hold "
                    f"scalars (str, int, float, bool, None)"
                )
    return rows


def _run_chunk(
    fn: ExperimentFn, seq: int, key: str, config: dict, indices: tuple[int, ...], root_seed: int
) -> tuple[int, list[dict]]:
    """Run one chunk (in a worker): ``fn`` for each index, with that task's own generator."""
    cells = {k: _cell(v) for k, v in config.items()}
    taken = set(RESERVED) | set(config)
    rows: list[dict] = []
    for index in indices:
        rng = np.random.default_rng(_seed(root_seed, key, index))
        out = fn(dict(config), index, rng)
        for row in _as_rows(out, fn, index, taken):
            rows.append({"config_key": key, "index": index, **cells, **row})
    return seq, rows


# --------------------------------------------------------------------------- running


def _check_args(root_seed: Any, n_jobs: Any, backend: Any, chunk_size: Any, progress: Any) -> None:
    if isinstance(root_seed, bool) or not isinstance(root_seed, (int, np.integer)) or root_seed < 0:
        raise ValueError(f"parameter 'root_seed' must be an int >= 0, got {root_seed!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(
            f"parameter 'n_jobs' must be a non-zero int (1 = in-process, -1 = all cores), got {n_jobs!r}"
        )
    if backend not in BACKENDS:
        raise ValueError(f"parameter 'backend' must be one of: {', '.join(BACKENDS)}; got {backend!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise ValueError(f"parameter 'chunk_size' must be an int >= 1, got {chunk_size!r}")
    _check_progress(progress)


def _require_dask_client() -> None:
    """Fail early, with instructions, when backend='dask' has no client to talk to."""
    try:
        from distributed import get_client
    except ImportError as exc:  # pragma: no cover - dask is a dependency of the book
        raise RuntimeError("backend='dask' needs dask.distributed: pip install 'dask[distributed]'") from exc
    try:
        get_client()
    except ValueError as exc:
        raise RuntimeError(
            "backend='dask' needs a running dask.distributed Client in this process. Create one "
            "first, e.g.\n"
            "    from dask.distributed import Client, LocalCluster\n"
            "    client = Client(LocalCluster(n_workers=4, threads_per_worker=1))\n"
            "or connect to an existing cluster: Client('tcp://scheduler-address:8786')."
        ) from exc


#: ``prctl`` option: the signal a process gets when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _worker_init(parent_pid: int) -> None:
    """Run in each loky worker as it starts.

    - SIGINT is ignored: Ctrl-C reaches the whole process group, and a worker interrupted inside
      compiled code could crash ("Fatal Python error") instead of stopping; the parent handles
      the interrupt and stops its workers itself.
    - On Linux the worker asks for SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), so that
      after ``kill -9`` of a run its workers do not compute on for minutes, orphaned. Workers
      write nothing (the parent saves each chunk), so killing them loses nothing. Should the
      parent have died before the request took effect, the worker exits at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: workers end with their tasks, as before
        return
    if os.getppid() != parent_pid:
        os._exit(1)


def _execute(
    fn: ExperimentFn, chunks: list[_Chunk], root_seed: int, n_jobs: int, backend: str
) -> Iterator[tuple[int, list[dict]]]:
    """Yield ``(chunk seq, rows)`` as chunks finish (in any order)."""
    if backend == "sequential" or (n_jobs == 1 and backend != "dask"):
        for c in chunks:
            yield _run_chunk(fn, c.seq, c.key, c.config, c.indices, root_seed)
        return
    # joblib's dask backend uses all the cluster's cores, whatever n_jobs says.
    jobs = (joblib.delayed(_run_chunk)(fn, c.seq, c.key, c.config, c.indices, root_seed) for c in chunks)
    # The task function may carry large tables (a chapter's trained weights): Dask sends it to
    # each worker once, instead of inside every chunk's task graph.
    extra = {"scatter": [fn]} if backend == "dask" else {}
    if backend == "loky":
        extra = {"initializer": _worker_init, "initargs": (os.getpid(),)}
    with joblib.parallel_config(backend=backend, **extra):
        parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)
        if backend == "loky":
            _start_workers_with_sigint_blocked()
        yield from parallel(jobs)


def _start_workers_with_sigint_blocked() -> None:
    """Make loky start (and restart) its workers with SIGINT blocked (:func:`_sigint_blocked`).
    Loky starts them inside its executor's ``_adjust_process_count``, on the first chunk
    submitted, so that is where the block goes; if a loky version names it otherwise, workers
    start as before (only the rare traceback comes back)."""
    try:
        from joblib.externals.loky.process_executor import ProcessPoolExecutor
    except ImportError:  # pragma: no cover
        return
    original = getattr(ProcessPoolExecutor, "_adjust_process_count", None)
    if original is None or getattr(original, "_gameai_sigint", False):
        return

    def adjust(self):
        _start_resource_trackers()
        with _sigint_blocked():
            return original(self)

    adjust._gameai_sigint = True
    ProcessPoolExecutor._adjust_process_count = adjust


def _start_resource_trackers() -> None:
    """Start the resource trackers of multiprocessing and loky now, if they are not running:
    starting one unblocks SIGINT (Python 3.11's ``ensure_running`` ends with ``SIG_UNBLOCK``),
    which would undo :func:`_sigint_blocked` if it happened inside it."""
    try:
        from multiprocessing import resource_tracker as stdlib_tracker

        from joblib.externals.loky.backend import resource_tracker as loky_tracker

        stdlib_tracker.ensure_running()
        loky_tracker.ensure_running()
    except Exception:  # pragma: no cover - the trackers start later, as before
        pass


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread while it starts worker processes. A worker inherits the
    blocked signal across fork and exec, so a Ctrl-C in the fraction of a second before its
    initializer ignores SIGINT (:func:`_worker_init`) no longer prints its KeyboardInterrupt
    traceback; it stays blocked there (the parent stops its workers). Here the Ctrl-C waits
    the few milliseconds until the workers are started, then interrupts the run as usual."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def run_tasks(
    fn: ExperimentFn,
    tasks: Iterable[tuple[Mapping[str, Any], int]],
    *,
    root_seed: int,
    n_jobs: int = 1,
    backend: str = "loky",
    chunk_size: int = 50,
    progress: bool | str | Progress = "auto",
    desc: str = "",
    on_chunk: Callable[[pd.DataFrame], None] | None = None,
    warmup: Callable[[], Any] | None = None,
    keep_rows: bool = True,
) -> pd.DataFrame:
    """Run ``fn(config, index, rng)`` for every task and return all rows as one DataFrame.

    Each row carries ``config_key``, ``index`` and the config's items (lists as JSON strings)
    before ``fn``'s own fields, which must not reuse those names. Rows are ordered by config (in
    order of first appearance in ``tasks``), then index, then the order ``fn`` returned them, so the
    result is the same for any ``n_jobs``, ``chunk_size`` and ``backend``. A parallel run makes
    its chunks smaller where needed to give every worker at least :data:`MIN_CHUNKS_PER_WORKER`,
    and smaller still towards the end (:func:`spread_chunk_size`).

    ``n_jobs=1`` runs in this process without joblib. ``backend="dask"`` needs a running
    ``dask.distributed.Client`` and uses all of its workers. ``on_chunk(df)`` is called in this
    process as each chunk finishes; ``warmup()`` once before any task runs (e.g. to compile numba
    functions in the parent, so that loky workers load them from the on-disk cache).

    ``progress`` may also be a :class:`Progress` shared by several calls (the store runs a large
    experiment in batches under one bar); it is then updated but not closed. ``keep_rows=False``
    keeps no rows and returns an empty frame, for a caller that saves each chunk in
    ``on_chunk`` (the store), so that the memory does not grow with the run.
    """
    _check_args(root_seed, n_jobs, backend, chunk_size,
                "auto" if isinstance(progress, Progress) else progress)
    if backend == "dask":
        _require_dask_client()
    tasks = list(tasks)
    chunks = _make_chunks(tasks, int(chunk_size), worker_count(int(n_jobs), backend))
    if not chunks:
        return pd.DataFrame(columns=list(RESERVED))
    if warmup is not None:
        warmup()
    shared = isinstance(progress, Progress)
    reporter = progress if shared else Progress(total=len(tasks), desc=desc, mode=progress)
    results: dict[int, list[dict]] = {}
    try:
        for seq, rows in _execute(fn, chunks, int(root_seed), int(n_jobs), backend):
            if keep_rows:
                results[seq] = rows
            if on_chunk is not None:
                on_chunk(pd.DataFrame(rows))
            reporter.update(len(chunks[seq].indices))
    finally:
        if not shared:
            reporter.close()
    if not keep_rows:
        return pd.DataFrame(columns=list(RESERVED))
    rank: dict[str, int] = {}
    for c in chunks:
        rank.setdefault(c.key, len(rank))
    ordered = sorted(chunks, key=lambda c: (rank[c.key], c.indices[0]))
    return pd.DataFrame([row for c in ordered for row in results[c.seq]])
