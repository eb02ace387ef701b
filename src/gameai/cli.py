"""The ``gameai`` command: compute, rerun and benchmark the chapters of the book.

::

    gameai params CHAPTER                      list the chapter's parameters
    gameai run CHAPTER [-p NAME VALUE]...      compute every missing result at full scale
    gameai rerun CHAPTER [-p NAME VALUE]...    re-execute the chapter notebook into _reruns/
    gameai bench CHAPTER                       speed benchmarks

Parameters are checked with :func:`gameai.core.params.validate` before any work starts; a bad one
exits with status 2 and a message naming it. Chapter modules are imported lazily, so ``gameai
params`` or a bad parameter never pays for compiling an engine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
from contextlib import ExitStack, contextmanager
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping, Sequence

__all__ = ["CHAPTERS", "main"]

#: chapter name -> module providing ``PARAMETERS`` and ``run(params, *, data_dir, n_jobs, backend,
#: progress)``; its package also holds ``bench.py`` with ``main()``.
CHAPTERS: dict[str, str] = {
    "frankszoo": "gameai.frankszoo.chapter",
    "kingdomino": "gameai.kingdomino.chapter",
    "tarok": "gameai.tarok.chapter",
    "durak": "gameai.durak.chapter",
    "crossgame": "gameai.crossgame.chapter",
}

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: The status of a process killed by SIGPIPE (128 + 13), as ``yes | head -1`` leaves it.
EXIT_BROKEN_PIPE = 141
#: How ``gameai rerun`` tells the notebook's kernel where its results go (gameai.core.datadirs).
DATA_DIR_ENV = "GAMEAI_DATA_DIR"


class UsageError(Exception):
    """A mistake in the command line: printed without a traceback, exit status 2."""


# --------------------------------------------------------------------------------------------
# helpers


def find_root(start: str | Path | None = None) -> Path:
    """The book's root: the nearest folder holding ``_config.yml`` at or above ``start`` (cwd),
    else the checkout this package was installed from in editable mode."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "_config.yml").is_file():
            return folder
    source_checkout = Path(__file__).resolve().parents[2]
    if (source_checkout / "_config.yml").is_file():
        return source_checkout
    raise UsageError(f"no _config.yml found at or above {here}; run gameai from inside the book")


def chapter_module_name(name: str) -> str:
    """The chapter's module path; a :class:`UsageError` listing the chapters if it is unknown."""
    if name not in CHAPTERS:
        allowed = ", ".join(sorted(CHAPTERS)) or "(none)"
        raise UsageError(f"unknown chapter {name!r}; allowed: {allowed}")
    return CHAPTERS[name]


def load_chapter(name: str) -> ModuleType:
    return importlib.import_module(chapter_module_name(name))


def check_params(chapter: str, module: ModuleType, pairs: Sequence[Sequence[str]] | None) -> dict:
    """Validate ``-p NAME VALUE`` pairs against the chapter's ``PARAMETERS``.

    Returns the full validated parameter dict (defaults updated by the overrides). Values stay
    strings here: :func:`gameai.core.params.validate` coerces them by each parameter's kind.
    Raises :class:`UsageError` with the validator's message when a name or value is bad.
    """
    from gameai.core.params import validate

    overrides: dict[str, str] = {}
    for name, value in pairs or []:
        if name in overrides:
            raise UsageError(f"parameter {name!r} given twice")
        overrides[name] = value
    try:
        return validate(module.PARAMETERS, overrides, context=chapter)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _plain(value: Any) -> Any:
    """Tuples become lists so that papermill writes them as Python literals."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _utc_stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _git_commit(root: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


def _jupyter_book() -> str:
    """The ``jupyter-book`` executable of this environment (beside the running Python)."""
    beside = Path(sys.executable).with_name("jupyter-book")
    if beside.exists():
        return str(beside)
    found = shutil.which("jupyter-book")
    if found is None:
        raise UsageError("jupyter-book is not installed in this environment (see requirements.txt)")
    return found


# --------------------------------------------------------------------------------------------
# commands


def cmd_params(args: argparse.Namespace) -> int:
    module = load_chapter(args.chapter)
    print(f"Parameters of chapter {args.chapter} (set with -p NAME VALUE):")
    for name, param in module.PARAMETERS.items():
        print(f"  {name} = {param.default!r}")
        print(f"      {param.describe()}")
        if param.help:
            print(f"      {param.help}")
    return 0


def _merge_settings(module: ModuleType, pairs: Sequence[Sequence[str]] | None,
                    settings: dict[str, str | None]) -> list[list[str]]:
    """Fold ``--n-jobs``/``--backend`` into the ``-p`` pairs: they are the chapter's ``n_jobs``
    and ``backend`` parameters, so each setting has one value, checked once, printed and used."""
    pairs = [list(pair) for pair in pairs or []]
    given = {name: value for name, value in pairs}
    for name, value in settings.items():
        if value is None:
            continue
        option = "--" + name.replace("_", "-")
        if name not in module.PARAMETERS:
            raise UsageError(f"{option} is not a setting of this chapter")
        if name in given and given[name] != value:
            raise UsageError(f"{option} {value} and -p {name} {given[name]} disagree; give one")
        if name not in given:
            pairs.append([name, value])
    return pairs


def _check_n_jobs(n_jobs: int, option: str = "--n-jobs") -> None:
    """Refuse far more workers than cores (each loads its own engine: 100,000 of them fill the
    memory before the first game); warn when they share the cores."""
    from .core.chapter import MAX_JOBS_PER_CORE, max_n_jobs

    cores = os.cpu_count() or 1
    if n_jobs > max_n_jobs():
        raise UsageError(f"{option} must be -1 (all cores) or an int between 1 and "
                         f"{max_n_jobs()} ({MAX_JOBS_PER_CORE} per core on {cores} cores), "
                         f"got {n_jobs}")
    if n_jobs > cores:
        print(f"gameai: warning: n_jobs {n_jobs} starts {n_jobs} worker processes on {cores} "
              "cores; they will share them", file=sys.stderr)


def _choose_dirs(chapter: str, module: ModuleType, params: dict, requested: str | None,
                 compute: bool, check_writable: bool = True):
    """The results folder (see gameai.core.datadirs), checked writable before any work (a dry
    run neither checks nor creates it)."""
    from .core import datadirs

    run_only = getattr(module, "RUN_ONLY", ("profile", "n_jobs", "backend", "compute_missing"))
    try:
        dirs = datadirs.choose(chapter, module.PARAMETERS, params, run_only,
                               requested=requested, compute=compute,
                               committed=getattr(module, "COMMITTED_DATA_DIR", None))
        if compute and check_writable:
            datadirs.ensure_writable(dirs.path / chapter,
                                     "--data-dir" if requested else "the results folder")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return dirs


#: Seconds a Dask scheduler has to answer: to accept the connection, and then to send the
#: handshake a Dask server sends first on every connection.
DASK_TIMEOUT = 10.0


def _dask_address(address: str) -> tuple[str, int]:
    """``(host, port)`` of ``tcp://host:port`` (or ``host:port``); a :class:`UsageError` for
    anything else, before any connection is tried."""
    from urllib.parse import urlsplit

    text = address if "://" in address else "tcp://" + address
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
        ok = parts.scheme == "tcp" and bool(host) and port is not None and parts.path in ("", "/")
    except ValueError:  # a port that is not a number, or out of range
        ok = False
    if not ok:
        raise UsageError(f"--scheduler {address} is not a Dask scheduler address; give "
                         "tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786")
    return host, port


def _probe_dask(address: str, timeout: float | None = None) -> None:
    """Check that a Dask scheduler answers at ``address`` before a client is made: connect, and
    read the start of the handshake that a Dask server sends first. Something else on the port
    (a web server, the dashboard) sends nothing or other bytes - the client would then wait
    forever, or read their first bytes as a message length and fail allocating exabytes - so it
    is refused here, within ``timeout`` seconds, in one line."""
    import socket
    import struct

    timeout = DASK_TIMEOUT if timeout is None else timeout
    host, port = _dask_address(address)
    advice = ("start it with `dask scheduler` (it listens on port 8786 by default; 8787 is its "
              "dashboard) or check the address")
    try:
        conn = socket.create_connection((host, port), timeout=timeout)
    except socket.timeout:
        raise UsageError(f"the Dask scheduler at {address} did not answer within {timeout:g} s; "
                         + advice) from None
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address} "
                         f"({exc.strerror or exc}); " + advice) from None
    with conn:
        conn.settimeout(timeout)
        head = b""
        try:
            while len(head) < 16:
                got = conn.recv(16 - len(head))
                if not got:
                    break
                head += got
        except (socket.timeout, OSError):
            pass
    if len(head) == 16:
        total, frames = struct.unpack("<QQ", head)
        if 16 <= total < 2**20 and 1 <= frames <= 64:
            return
    raise UsageError(f"something answers at {address}, but not a Dask scheduler (no Dask "
                     f"handshake within {timeout:g} s); " + advice)


def _dask_client(address: str | None):
    """A dask.distributed client: the scheduler at ``address`` (checked by :func:`_probe_dask`
    first), else a local cluster."""
    from dask.distributed import Client

    if not address:
        return Client()
    _probe_dask(address)
    try:
        return Client(address, timeout=f"{DASK_TIMEOUT:g}s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address} ({exc})") from None


class DaskLost(Exception):
    """The Dask cluster stopped computing mid-run (its scheduler or its last worker is gone)."""


def _is_dask_failure(exc: BaseException) -> bool:
    """Whether ``exc`` says the cluster is gone, rather than something about this machine (a
    full disk is an ``OSError`` too, and is reported as such)."""
    import errno

    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EROFS, errno.EACCES,
                                                  errno.EPERM, errno.EDQUOT):
        return False
    module = type(exc).__module__ or ""
    return (module.startswith(("distributed", "tornado")) or isinstance(exc, (OSError, TimeoutError))
            or "No valid workers" in str(exc))


@contextmanager
def _quiet_dask_logs():
    """distributed logs each lost connection with a traceback (81 lines for a killed
    scheduler); the run reports the loss itself in one line, so only critical lines pass."""
    import logging

    # dask's configuration gives some child loggers (distributed.client, ...) levels of their
    # own, which a parent's level does not override: each is quietened.
    import distributed  # noqa: F401  (its import creates and configures those loggers)

    roots = ("distributed", "tornado", "asyncio")
    names = [name for name in list(logging.root.manager.loggerDict)
             if name.split(".")[0] in roots] + list(roots)
    loggers = [logging.getLogger(name) for name in dict.fromkeys(names)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


#: Seconds a Dask client may be disconnected from its scheduler before the run is stopped; the
#: environment variable of :data:`LOST_AFTER_ENV` sets another (a flaky network may want more; the
#: cluster test wants less, so that its short run cannot finish on this machine first).
DASK_LOST_AFTER_S = 5.0
LOST_AFTER_ENV = "GAMEAI_DASK_LOST_AFTER_S"


def _lost_after() -> float:
    """The seconds without a scheduler after which a run stops (:data:`DASK_LOST_AFTER_S`, or
    the environment's :data:`LOST_AFTER_ENV`); a :class:`UsageError` for a value that is not a
    positive number, before the run starts."""
    text = os.environ.get(LOST_AFTER_ENV)
    if text is None:
        return DASK_LOST_AFTER_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise UsageError(f"{LOST_AFTER_ENV} must be a positive number of seconds (how long a run "
                         f"waits for a lost Dask scheduler), got {text!r}")
    return seconds


#: The signal the watchdog sends the main thread (raised as KeyboardInterrupt, by a handler
#: :func:`_run_on_dask` installs): not SIGINT, which a run started in the background (``cmd &``)
#: inherits as ignored - Python then installs no handler for it, and interrupting the main thread
#: with it does nothing (the run went on, on this machine).
LOST_SIGNAL = signal.SIGUSR1


def _watch_cluster(client, lost, done, after: float = DASK_LOST_AFTER_S) -> None:
    """Set ``lost`` and interrupt the main thread once ``client`` has not been connected to its
    scheduler for ``after`` seconds (until ``done`` is set). Without it, joblib quietly
    finishes the remaining chunks on this machine when the scheduler dies: a run a user sent
    to a cluster would go on for hours where it was started, unasked."""
    import threading
    import time

    since = None
    while not done.wait(min(0.5, after / 4)):
        if getattr(client, "status", "running") == "running":
            since = None
            continue
        since = since or time.monotonic()
        if time.monotonic() - since >= after:
            lost.set()
            # a real signal, not interrupt_main's simulated one: it also wakes a main thread
            # blocked in a wait (a lock, a sleep) at once
            signal.pthread_kill(threading.main_thread().ident, LOST_SIGNAL)
            return


def _run_on_dask(module: ModuleType, params: dict, data_dir: Path, address: str | None,
                 after: float = DASK_LOST_AFTER_S):
    """``module.run`` on a Dask cluster; the cluster's loss mid-run (its scheduler gone for
    ``after`` seconds, or its last worker) becomes :class:`DaskLost`: every chunk that came
    back is saved, nothing more is computed here, and the same command resumes."""
    import threading

    where = address or "the local cluster"
    lost, done = threading.Event(), threading.Event()
    previous = signal.signal(LOST_SIGNAL, signal.default_int_handler)
    with ExitStack() as stack, _quiet_dask_logs():
        stack.callback(signal.signal, LOST_SIGNAL, previous)
        client = _dask_client(address)
        watchdog = threading.Thread(target=_watch_cluster, args=(client, lost, done, after),
                                    daemon=True)
        try:
            print(f"dask client: {client}  (dashboard: {client.dashboard_link})", flush=True)
            watchdog.start()
            return module.run(params, data_dir=data_dir, progress="auto")
        except KeyboardInterrupt:
            if not lost.is_set():
                raise
            raise DaskLost(f"the Dask cluster at {where} stopped computing (its scheduler has not "
                           f"answered for {after:g} s); every finished chunk is saved: "
                           "restart the scheduler and its workers and run the same command again, "
                           "or run it without --scheduler to finish on this machine") from None
        except Exception as exc:
            if not _is_dask_failure(exc):
                raise
            raise DaskLost(f"the Dask cluster at {where} stopped computing "
                           f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'connection lost'}); "
                           "every finished chunk is saved: restart the scheduler or its workers "
                           "and run the same command again") from None
        finally:
            done.set()
            # the watchdog is gone before its signal's handler is (a signal sent at the very end
            # would otherwise meet the default action, which ends the process)
            if watchdog.is_alive():
                watchdog.join(5)
            try:
                client.close(timeout=5)
            except Exception:  # a scheduler that is gone cannot be said goodbye to
                pass


def _print_plan(command: str, chapter: str, module: ModuleType, params: dict,
                requested: str | os.PathLike | None,
                pairs: Sequence[Sequence[str]] | None = None, from_scratch: bool = False) -> int:
    """``--dry-run``: the tasks a run would compute per experiment, and an estimate of their
    core-hours from the wall times its manifests record, so that a run at unpublished sizes is
    not a surprise of hours. Computes and writes nothing (see gameai.core.store.dry_run)."""
    from .core.runner import worker_count
    from .core.store import dry_run, plan, wall_hours

    dirs = _choose_dirs(chapter, module, params, requested, compute=True, check_writable=False)
    with dry_run() as computed:
        res = module.results(params, data_dir=dirs.path, compute=True, progress=False)
    seed_from = None if from_scratch else dirs.seed_from
    print(f"gameai {command} {chapter} --dry-run: results in {dirs.path / chapter}"
          + ("" if seed_from is None else f" (finished tasks copied from {seed_from})")
          + ("; as if from scratch (nothing cached or copied; costs recorded in "
             f"{dirs.committed_dir})" if from_scratch else "")
          + "; nothing is computed or written")
    if from_scratch:
        import tempfile

        with tempfile.TemporaryDirectory() as empty:
            rows = plan(computed, empty, None, costs_from=dirs.committed_dir)
    else:
        rows = plan(computed, dirs.path, seed_from, costs_from=dirs.committed_dir)
    todo = hours = 0.0
    unknown = []
    for row in rows:
        text = (f"{row['experiment']:>24}: {row['tasks']:>10,} tasks, {row['cached']:>10,} cached, "
                + ("" if seed_from is None else f"{row['copied']:>10,} copied, ")
                + f"{row['compute']:>10,} to compute")
        if row["compute"]:
            if row["core_hours"] is None:
                unknown.append(row["experiment"])
                text += ", core-hours unknown (no stored wall time)"
            else:
                text += f", about {_core_time(row['core_hours'])}"
                if row.get("checked"):
                    text += f" (timed by the check of {row['checked'][:10]})"
                hours += row["core_hours"]
        todo += row["compute"]
        print(text)
    total = f"{'all':>24}: {int(todo):,} tasks to compute"
    known = [row for row in rows if row["compute"] and row["core_hours"] is not None]
    if todo and not known:
        total += ", core-hours unknown (no stored wall time)"
    elif todo:
        total += f", about {_core_time(hours)}"
        if unknown:
            total += " plus those of " + ", ".join(unknown)
        total += (" (from the wall times of earlier runs, or of the later timed checks named; "
                  "experiments built from the results of pending ones are listed once those "
                  "exist)")
    print(total)
    if todo and known and not unknown:
        workers = worker_count(int(params.get("n_jobs", 1)), str(params.get("backend", "loky")))
        wall = wall_hours(rows, workers)
        if wall is not None:
            print(f"{'':>24}  wall time on {workers} worker{'s' if workers > 1 else ''}: about "
                  f"{_wall_time(wall)} (the recorded cost per task, chunked and scheduled as the "
                  "run would; --n-jobs N for another number of workers)")
    blocked = _unreached(chapter, module, params, res,
                         None if requested is None else str(requested), pairs)
    if blocked:
        print(f"{'':>24}  {blocked}")
    return 0


def _wall_time(hours: float) -> str:
    """A wall time as a reader plans with it: hours from one hour up, else minutes or seconds."""
    if hours >= 1:
        return f"{hours:,.1f} hours"
    if hours * 60 >= 1:
        return f"{hours * 60:.0f} minutes"
    return f"{max(1, round(hours * 3600))} seconds"


def _core_time(hours: float) -> str:
    """Compute time in a unit that shows it: core-hours from one hour up, else core-minutes or
    core-seconds - never "0.00 core-hours" for work that takes time."""
    seconds = hours * 3600
    if hours >= 1:
        return f"{hours:,.1f} core-hours"
    if seconds >= 60:
        return f"{seconds / 60:.0f} core-minutes"
    if seconds >= 1:
        return f"{seconds:.0f} core-seconds"
    return "under 1 core-second"


def _command_line(command: str, chapter: str, pairs: Sequence[Sequence[str]] | None,
                  data_dir: str | None, experiments: Sequence[str] | None = None) -> str:
    """``gameai COMMAND CHAPTER`` with the ``-p`` settings and ``--data-dir`` the user gave
    (a hint that drops them would, taken literally, run the paper-scale chapter on the
    committed data/); ``experiments`` replaces the ``experiments`` setting."""
    import shlex

    words = ["gameai", command, chapter]
    for name, value in pairs or []:
        if name == "experiments" and experiments is not None:
            continue
        words += ["-p", name, value]
    if experiments is not None:
        words += ["-p", "experiments", ",".join(experiments)]
    if data_dir:
        words += ["--data-dir", data_dir]
    return " ".join(shlex.quote(w) for w in words)


def _unreached(chapter: str, module: ModuleType, params: dict, res: Any,
               data_dir: str | None, pairs: Sequence[Sequence[str]] | None = None) -> str:
    """When ``-p experiments`` names groups the run never reached (the chapter skips what is
    built from pending results, as Frank's Zoo's Monte Carlo AIs from Table 4's weights), the
    line that says so and the command that includes what they need; "" otherwise."""
    spec = module.PARAMETERS.get("experiments")
    asked = getattr(res, "asked", None)
    wanted = params.get("experiments")
    if spec is None or asked is None or not wanted or tuple(wanted) == tuple(spec.default):
        return ""
    unreached = [g for g in wanted if g not in asked]
    if not unreached:
        return ""
    pending = [k for k in (res.pending() if hasattr(res, "pending") else [])
               if k in (spec.choices or ()) and k not in wanted]
    what = ", ".join(unreached)
    if not pending:
        return (f"{what}: computes nothing at these parameters (the results it is built from "
                "are missing); see `gameai params " + chapter + "`")
    need = ", ".join(pending)
    groups = [g for g in spec.choices if g in set(pending) | set(wanted)]
    return (f"{what}: computes nothing until {need} (not in the results folder) is computed; "
            f"include it: `{_command_line('run', chapter, pairs, data_dir, groups)}`")


def cmd_run(args: argparse.Namespace) -> int:
    from .core.lock import folder_lock

    module = load_chapter(args.chapter)
    if args.scheduler and args.backend not in (None, "dask"):
        raise UsageError(f"--scheduler needs --backend dask, got --backend {args.backend}")
    backend = "dask" if args.scheduler else args.backend
    pairs = _merge_settings(module, args.param, {
        "n_jobs": None if args.n_jobs is None else str(args.n_jobs), "backend": backend})
    params = check_params(args.chapter, module, pairs)
    _check_n_jobs(params.get("n_jobs", 1))
    if args.from_scratch and not args.dry_run:
        raise UsageError("--from-scratch goes with --dry-run (it plans a recomputation of "
                         "everything; to recompute, run into an empty --data-dir at other parameters)")
    if args.dry_run:
        return _print_plan("run", args.chapter, module, params, args.data_dir, args.param,
                           from_scratch=args.from_scratch)
    if args.scheduler:
        _probe_dask(args.scheduler)  # before any folder is made: a wrong address is a typo
    # a bad wait for a lost scheduler is refused here too, before any folder is made
    lost_after = _lost_after() if params.get("backend") == "dask" else None
    dirs = _choose_dirs(args.chapter, module, params, args.data_dir, compute=True)
    print(f"gameai run {args.chapter}: results in {dirs.path / args.chapter}"
          + ("" if dirs.seed_from is None else f" (finished tasks taken from {dirs.seed_from})"))
    print("parameters: " + ", ".join(f"{k}={v!r}" for k, v in _used(module, params).items()),
          flush=True)
    # Held for the whole run, so that a second run on the folder is refused before any work.
    with folder_lock(dirs.path / args.chapter):
        if params.get("backend") == "dask":
            res = _run_on_dask(module, params, dirs.path, args.scheduler, lost_after)
        else:
            res = module.run(params, data_dir=dirs.path, progress="auto")
    blocked = _unreached(args.chapter, module, params, res, args.data_dir, args.param)
    if blocked:
        print(f"gameai run {args.chapter}: error: {blocked}", file=sys.stderr)
        return 1
    print(f"gameai run {args.chapter}: done; results are in {dirs.path / args.chapter}")
    return 0


def _used(module: ModuleType, params: dict) -> dict:
    """The parameters a run computes with: in the ci profile the chapter shrinks the sizes left
    at their paper default (its ``resolve``), and the printed line must show those."""
    resolve = getattr(module, "resolve", None)
    if resolve is None or params.get("profile") != "ci":
        return params
    return resolve(params)


def _write_rerun_book(root: Path, out: Path, chapter: str, overrides: dict) -> None:
    """Turn ``out`` into a small book around the executed notebook: the pages of book/ (without
    the other, unexecuted notebooks), a _toc.yml keeping only pages that exist there, and a
    _config.yml that shows the executed outputs as they are (execute_notebooks: off)."""
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8")) or {}
    # The chapter notebook was executed by papermill: shown as it is. The pages around it that
    # compute (the intro's scorecard, the methods' worked example) still execute.
    execute = config.setdefault("execute", {})
    execute["execute_notebooks"] = "force"
    execute["exclude_patterns"] = [*execute.get("exclude_patterns", []), f"*{chapter}.ipynb"]
    _hide_defaults(out / "book" / f"{chapter}.ipynb")
    _move_logs_out(out / "book" / f"{chapter}.ipynb", out / "rerun.log")
    _add_banner(out / "book" / f"{chapter}.ipynb", overrides, _commit(root))
    settings = ", ".join(f"{k}={v}" for k, v in overrides.items()) or "default parameters"
    config["title"] = f"{config.get('title', 'Book')} (rerun of {chapter}: {settings})"
    (out / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")

    def exists(entry: dict) -> bool:
        if "file" not in entry:
            return True
        stem = out / entry["file"]
        return any(stem.with_suffix(s).exists() for s in (".md", ".ipynb", ".rst")) or stem.exists()

    def prune(entries: list) -> list:
        kept = []
        for entry in entries:
            if not exists(entry):
                continue
            for key in ("chapters", "sections", "parts"):
                if key in entry:
                    entry[key] = prune(entry[key])
            kept.append(entry)
        return kept

    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    _stub_other_chapters(root, out, toc)
    for key in ("chapters", "parts", "sections"):
        if key in toc:
            toc[key] = prune(toc[key])
    (out / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")


def _stub_other_chapters(root: Path, out: Path, toc: dict) -> None:
    """A page in place of each chapter notebook the rerun did not execute, so that the rerun
    book numbers its chapters - and so its tables and figures, "Table 5.2" - as the published
    book does, and no link to another chapter is dead."""
    for entry in toc.get("chapters", []):
        stem = entry.get("file", "")
        source = root / f"{stem}.ipynb"
        if not source.exists() or any((out / stem).with_suffix(s).exists()
                                      for s in (".md", ".ipynb", ".rst")):
            continue
        cells = json.loads(source.read_text(encoding="utf-8")).get("cells", [])
        first = next(("".join(c["source"]) for c in cells if c.get("cell_type") == "markdown"), "")
        title = next((line[2:].strip() for line in first.splitlines() if line.startswith("# ")),
                     Path(stem).name)
        (out / stem).with_suffix(".md").write_text(
            f"# {title}\n\nThis chapter is not part of this rerun: see the published book. The "
            "page keeps the published book's chapter numbers, so that the rerun chapter's tables "
            "and figures carry the numbers and links they have there.\n", encoding="utf-8")


def _move_logs_out(executed: Path, log: Path) -> None:
    """A rerun's page shows no run log: the progress lines and messages the chapter wrote to
    standard error (papermill also streamed them to the terminal) move to ``log``."""
    if not executed.exists():
        return
    nb = json.loads(executed.read_text(encoding="utf-8"))
    moved = []
    for cell in nb.get("cells", []):
        keep = []
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream" and o.get("name") == "stderr":
                moved.append("".join(o.get("text", "")))
            else:
                keep.append(o)
        if "outputs" in cell:
            cell["outputs"] = keep
    if moved:
        log.write_text("".join(moved), encoding="utf-8")
    executed.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _commit(root: Path) -> str:
    """The book's git commit (short), or "unknown" outside a repository."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                             capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def _add_banner(executed: Path, overrides: dict, commit: str) -> None:
    """A banner under the rerun chapter's title: the parameters that differ from the published
    book, the date and the commit, and what that means for its verdicts."""
    if not executed.exists():
        return
    from datetime import datetime, timezone

    nb = json.loads(executed.read_text(encoding="utf-8"))
    cell = next((c for c in nb.get("cells", []) if c.get("cell_type") == "markdown"), None)
    if cell is None:
        return
    settings = ", ".join(f"`{k} = {v!r}`" for k, v in overrides.items()
                         if k != "compute_missing") or "none (the published parameters)"
    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    banner = (":::{admonition} A rerun, not the published chapter\n:class: warning\n\n"
              f"Executed on {day} at commit `{commit}` with these parameters changed from the "
              f"published book: {settings}. Every number, figure and verdict on this page comes "
              "from this run; a verdict judged on fewer games than the paper used is less "
              "certain than the published one, whatever its word.\n:::\n")
    lines = "".join(cell["source"]).split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
    cell["source"] = "\n".join(lines[:at] + ["", banner] + lines[at:])
    executed.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _hide_defaults(executed: Path) -> None:
    """A rerun's page shows its own parameters (papermill's injected cell), not the chapter's
    defaults above them: the notebook's original ``parameters`` cell is removed from the page."""
    if not executed.exists():
        return
    nb = json.loads(executed.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        if "parameters" in tags and "remove-cell" not in tags:
            tags.append("remove-cell")
    executed.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _refuse_committed(data_dir: Path, given: str | None, root: Path, chapter: str) -> None:
    """A rerun never writes into a committed ``data/``, nor into a folder below one: neither the
    book's at ``root`` (``--root``) nor the one beside this package (the data/ the notebook's
    kernel reads). Checked here, before the notebook starts, not inside it."""
    from .core.datadirs import check_chapter_folder, committed_data_dir, inside

    candidates = sorted({(root / "data").resolve(), committed_data_dir().resolve()})
    for committed in candidates:
        if data_dir == committed or inside(data_dir, committed):
            raise UsageError(f"--data-dir {given}: a rerun never writes into the committed "
                             f"{committed} or a folder inside it; name another folder")
    # Nor through a chapter folder that links into one of them, or anywhere else: the message
    # names the committed folder it leads into, if any.
    linked = Path(os.path.realpath(data_dir / chapter))
    target = next((c for c in candidates if linked == c or linked.is_relative_to(c)),
                  candidates[0])
    try:
        check_chapter_folder(data_dir, chapter, target)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_rerun(args: argparse.Namespace) -> int:
    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)  # before anything else happens
    overrides = {name: _plain(params[name]) for name, _ in args.param or []}

    if args.root is not None and not (Path(args.root) / "_config.yml").is_file():
        raise UsageError(f"--root {args.root} is not the root of a book (no _config.yml there)")
    root = find_root(args.root)
    notebook = root / "book" / f"{args.chapter}.ipynb"
    if not notebook.is_file():
        raise UsageError(f"chapter notebook {notebook} not found")

    stamp = _utc_stamp()
    out = root / "_reruns" / f"{args.chapter}-{stamp}"
    n = 1
    while out.exists():
        n += 1
        out = root / "_reruns" / f"{args.chapter}-{stamp}-{n}"
    # The rerun's results: its own folder (or the one named), never the committed data/; the
    # notebook's kernel finds it in GAMEAI_DATA_DIR (see gameai.core.datadirs).
    data_dir = Path(args.data_dir).expanduser().resolve() if args.data_dir else out / "data"
    _refuse_committed(data_dir, args.data_dir, root, args.chapter)
    if args.dry_run:
        return _print_plan("rerun", args.chapter, module, {**params, "compute_missing": True},
                           data_dir, args.param)
    from .core.lock import FolderBusy, folder_lock

    try:
        from .core.datadirs import ensure_writable

        ensure_writable(data_dir / args.chapter)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    # The folder is held from here until the notebook has finished - between its experiments
    # too, when no experiment computes: a `gameai run` into it would otherwise be let in and
    # rewrite the rerun's claims. The kernel computes under this lock (lent through its
    # environment), since it cannot take its own while this process holds it.
    held = ExitStack()
    try:
        held.enter_context(folder_lock(data_dir / args.chapter))
    except FolderBusy as exc:  # refused here, not halfway through the notebook
        raise UsageError(f"--data-dir {data_dir}: a run is computing into it now ({exc}); "
                         "wait for it to finish or name another folder") from None
    with held:
        return _rerun_into(args, root, out, notebook, data_dir, stamp, overrides)


def _rerun_into(args: argparse.Namespace, root: Path, out: Path, notebook: Path,
                data_dir: Path, stamp: str, overrides: dict) -> int:
    """Execute the notebook into ``out`` with its results in ``data_dir`` (whose lock the caller
    holds), then build the small book around it."""
    from .core.lock import passed_on

    # The pages around the chapter (intro, methods, references, bibliography, images), but none of
    # the committed notebooks: the executed one is written there by papermill.
    shutil.copytree(
        root / "book",
        out / "book",
        ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__", "_build"),
    )
    executed = out / "book" / notebook.name
    parameters = {**overrides, "compute_missing": True}
    (out / "rerun.json").write_text(
        json.dumps(
            {
                "chapter": args.chapter,
                "parameters": parameters,
                "data_dir": str(data_dir),
                "started_utc": stamp,
                "git_commit": _git_commit(root),
                "notebook": str(notebook.relative_to(root)),
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"gameai rerun {args.chapter}: executing {notebook.relative_to(root)} -> {executed}")
    print("parameters: " + ", ".join(f"{k}={v!r}" for k, v in parameters.items()), flush=True)

    import papermill

    os.environ[DATA_DIR_ENV] = str(data_dir)
    lent = passed_on(data_dir / args.chapter)
    os.environ.update(lent)
    try:
        papermill.execute_notebook(
            str(notebook),
            str(executed),
            parameters=parameters,
            kernel_name="python3",
            cwd=str(root / "book"),
            log_output=True,
            stdout_file=sys.stdout,
            stderr_file=sys.stderr,
        )
    except papermill.PapermillExecutionError as exc:
        print(f"gameai rerun {args.chapter}: the notebook failed; the partly executed notebook is "
              f"{executed}\n{exc}", file=sys.stderr)
        return 1
    finally:
        os.environ.pop(DATA_DIR_ENV, None)
        for name in lent:
            os.environ.pop(name, None)
    print(f"gameai rerun {args.chapter}: results in {data_dir / args.chapter}")

    if args.no_build:
        print(f"gameai rerun {args.chapter}: executed notebook: {executed}")
        return 0
    _write_rerun_book(root, out, args.chapter, overrides)
    build = subprocess.run([_jupyter_book(), "build", str(out)], cwd=out)
    if build.returncode != 0:
        print(f"gameai rerun {args.chapter}: the book build failed (executed notebook: {executed})",
              file=sys.stderr)
        return build.returncode
    print(f"gameai rerun {args.chapter}: HTML in {out / '_build' / 'html' / 'index.html'}")
    return 0


def _existing_results(args: argparse.Namespace, module: ModuleType) -> Path:
    """The results folder that ``verify`` and ``prune`` read: ``--data-dir``, else the book's
    ``data/``; a :class:`UsageError` when it holds no folder of the chapter."""
    from .core.datadirs import committed_data_dir

    data_dir = (Path(args.data_dir).resolve() if args.data_dir else
                getattr(module, "COMMITTED_DATA_DIR", None) or committed_data_dir())
    if not (data_dir / args.chapter).is_dir():
        raise UsageError(f"no results of chapter {args.chapter} in {data_dir} "
                         f"(no folder {data_dir / args.chapter})")
    return data_dir


def _float_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (value > 0 and value != float("inf")):  # refuses nan, inf and <= 0
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def _one_per_file(experiments: Mapping[str, Any]) -> dict[str, Any]:
    """The experiments to verify, one per results file: a chapter that asks for 20 and then 200
    deals of the same configs (two experiments, one file) is checked once, at the larger ``n``,
    whose sample spreads over every stored task of the smaller too. Experiments sharing a file
    with configs of their own are each kept."""
    keys = {label: {exp.task_key(c) for c in exp.configs} for label, exp in experiments.items()}
    keep = dict(experiments)
    for label, exp in experiments.items():
        for other_label, other in experiments.items():
            if other_label == label or other.name != exp.name or other_label not in keep:
                continue
            larger = other.n > exp.n or (other.n == exp.n and other_label < label)
            if larger and keys[label] <= keys[other_label]:
                keep.pop(label, None)
                break
    return keep


def cmd_verify(args: argparse.Namespace) -> int:
    """Recompute a sample of every cached experiment and compare it with the stored rows."""
    from .core.lock import FolderBusy
    from .core.store import forget, record_verified, verify

    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)
    if args.per_config < 1:
        raise UsageError(f"--per-config must be an int >= 1, got {args.per_config}")
    if args.n_jobs == 0 or args.n_jobs < -1:
        raise UsageError(f"--n-jobs must be -1 (all cores) or an int >= 1, got {args.n_jobs}")
    _check_n_jobs(args.n_jobs)
    data_dir = _existing_results(args, module)
    res = module.results(params, data_dir=data_dir, compute=False, progress=False)
    skip = [name.strip() for name in (args.skip or "").split(",") if name.strip()]
    names = {exp.name for exp in res.experiments.values()} | set(res.experiments)
    unknown = sorted(set(skip) - names)
    if unknown:
        raise UsageError(f"--skip names no experiment of {args.chapter}: {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted({e.name for e in res.experiments.values()}))}")
    bad = checked = 0
    unrecorded = ""
    damaged: dict[Path, list[str]] = {}
    notes: list[str] = []
    bound = "" if args.max_seconds is None else f", at most {args.max_seconds:g} s per experiment"
    print(f"gameai verify {args.chapter}: {args.per_config} task(s) per config{bound}, "
          f"data in {data_dir}", flush=True)
    for label, exp in _one_per_file(res.experiments).items():
        if exp.name in skip or label in skip:
            print(f"{exp.name:>24}: skipped (--skip)", flush=True)
            notes.append(f"{exp.name}: skipped (--skip)")
            continue
        out = verify(exp, data_dir, per_config=args.per_config, n_jobs=args.n_jobs,
                     max_seconds=args.max_seconds, progress="auto",
                     announce=lambda line: print(f"gameai verify {args.chapter}: {line}",
                                                 file=sys.stderr, flush=True))
        bad += out["mismatched"]
        checked += out["checked"]
        for path, problems in out["damaged"]:
            damaged.setdefault(path, problems)
        note, skipped = out.get("note", ""), out.get("skipped", 0)
        flag = "ok" if out["mismatched"] == 0 else "MISMATCH"
        if out["checked"] == 0 and skipped:
            flag = "NOT CHECKED"
        of = f" of {out['sampled']:d}" if skipped else ""
        print(f"{exp.name:>24}: {out['checked']:5d}{of} checked, {out['mismatched']:4d} differ  "
              f"{flag}" + (f"  ({note})" if note else ""), flush=True)
        if note:
            notes.append(f"{exp.name}: {note}")
        for ex in out["examples"][:2]:
            print(f"      task {ex['key']}/{ex['index']}: stored {ex['stored']} "
                  f"recomputed {ex['recomputed']}")
        if out["keys"] and args.forget_mismatched:
            n = forget(exp, data_dir, out["keys"])
            print(f"      forgot {n} rows of {len(out['keys'])} config(s): "
                  f"`{_command_line('run', args.chapter, args.param, args.data_dir)}` "
                  "recomputes them")
        if args.record and out["checked"] and not unrecorded:
            try:
                entry = record_verified(exp, data_dir, out, args.per_config)
            except FolderBusy as exc:
                print(f"      not recorded: {exc}", file=sys.stderr)
            except OSError as exc:  # a read-only folder: say it once, keep verifying
                unrecorded = (f"gameai verify {args.chapter}: error: cannot record in "
                              f"{data_dir / args.chapter} ({exc.strerror or exc}); run verify "
                              "without --record, or on a writable copy of the folder")
                print(unrecorded, file=sys.stderr)
            else:
                if entry is not None:
                    print(f"      recorded in {exp.name}.json under 'verified' ({entry['date']})")
    # A damaged file fails the verification even when every intact task reproduces: its dropped
    # tasks were not checked, and the book would show them missing.
    for path, problems in damaged.items():
        print(f"gameai verify {args.chapter}: DAMAGED {path}: " + "; ".join(problems),
              file=sys.stderr)
    if damaged:
        print(f"gameai verify {args.chapter}: {len(damaged)} damaged file(s); "
              f"`{_command_line('run', args.chapter, args.param, args.data_dir)}` recomputes "
              "the tasks they lost", file=sys.stderr)
    if notes:
        print(f"gameai verify {args.chapter}: note: {len(notes)} experiment(s) not checked in "
              "full: " + "; ".join(notes))
    if checked == 0:
        cause = ("the stored files are damaged (above)" if damaged else
                 "every experiment was skipped or out of time (notes above)" if notes else
                 f"no stored task in {data_dir} matches these parameters")
        print(f"gameai verify {args.chapter}: nothing was verified: {cause}", file=sys.stderr)
        return 1
    print(f"gameai verify {args.chapter}: " + ("every sampled task reproduced" if bad == 0 else
          f"{bad} sampled task(s) differ from the stored rows")
          + (" (of those checked: see the note)" if notes and bad == 0 else "")
          + (f"; but {len(damaged)} file(s) are damaged (above)" if damaged else ""))
    return 0 if bad == 0 and not damaged and not unrecorded else 1


def cmd_status(args: argparse.Namespace) -> int:
    """How far a chapter's results are: per experiment the tasks cached and the compute time
    spent so far (wall time, interrupted runs included), and whether a run is computing into the folder
    now. Reads only: safe beside a running ``gameai run``."""
    from .core.lock import holder
    from .core.store import status, wall_time

    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)
    data_dir = _existing_results(args, module)
    res = module.results(params, data_dir=data_dir, compute=False, progress=False)
    print(f"gameai status {args.chapter}: results in {data_dir / args.chapter}")
    done = total = 0
    damaged: list[Path] = []
    for exp in res.experiments.values():
        st = status(exp, data_dir)
        done, total = done + st["done"], total + st["total"]
        damaged += [path for path in st["damaged"] if path not in damaged]
        share = 100 * st["done"] / st["total"] if st["total"] else 100.0
        wall = wall_time(exp, data_dir)
        spent = "unknown" if wall is None else f"{wall / 3600:6.2f} h"
        print(f"{exp.name:>24}: {st['done']:>7,} of {st['total']:>7,} tasks ({share:5.1f} %), "
              f"{spent} of run time so far" + ("  DAMAGED" if st["damaged"] else ""))
    resume = _command_line("run", args.chapter, args.param, args.data_dir)
    running = holder(data_dir / args.chapter)
    if running:
        state = f"a run is computing now ({running})"
    elif damaged:
        state = (f"{len(damaged)} damaged file(s) (warnings above; `gameai verify` names them): "
                 f"`{resume}` recomputes what they lost")
    elif done < total:
        state = f"no run is computing now (`{resume}` resumes)"
    else:
        state = "complete"
    print(f"{'all':>24}: {done:>7,} of {total:>7,} tasks cached; {state}")
    return 1 if damaged and not running else 0


def cmd_prune(args: argparse.Namespace) -> int:
    """Drop rows that no experiment of the chapter uses any more (old task keys)."""
    from .core.store import prune

    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)
    data_dir = _existing_results(args, module)
    res = module.results(params, data_dir=data_dir, compute=False, progress=False)
    found = prune(res.experiments.values(), data_dir, dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    for f in found:
        print(f"{f['file'].relative_to(data_dir)}: {verb} {f['removed']:,} rows of "
              f"{len(f['keys'])} unused task key(s), kept {f['kept']:,}")
    print(f"gameai prune {args.chapter}: " + (f"{len(found)} file(s) with unused rows"
                                              if found else "no unused rows"))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    package = chapter_module_name(args.chapter).rpartition(".")[0]  # gameai.frankszoo
    bench = importlib.import_module(package + ".bench")
    result = bench.main()
    return result if isinstance(result, int) else 0


# --------------------------------------------------------------------------------------------
# parser


def _add_param_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"),
        help="set a chapter parameter (repeatable); see `gameai params CHAPTER`",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gameai", description="Compute, rerun and benchmark the chapters of the book."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("params", help="list a chapter's parameters, defaults and help")
    p.add_argument("chapter")
    p.set_defaults(func=cmd_params)

    p = sub.add_parser("run", help="compute every missing result of a chapter at full scale")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--n-jobs", type=int, default=None,
                   help="worker processes, the chapter's n_jobs parameter (-1 = all cores)")
    p.add_argument("--backend", choices=("loky", "dask", "sequential"), default=None,
                   help="joblib backend, the chapter's backend parameter (dask uses a "
                        "dask.distributed client)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://host:8786 (implies --backend dask)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: data/ at the paper's parameters, else a new "
                        "folder under _reruns/)")
    p.add_argument("--dry-run", action="store_true",
                   help="only print the tasks to compute per experiment and an estimate of "
                        "their core-hours and of the wall time on --n-jobs workers; compute and "
                        "write nothing")
    p.add_argument("--from-scratch", action="store_true",
                   help="with --dry-run: plan recomputing everything, as if nothing were cached "
                        "(costs from the committed manifests)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("rerun", help="re-execute a chapter notebook with other parameters into _reruns/")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--no-build", action="store_true", help="execute the notebook only; build no book")
    p.add_argument("--dry-run", action="store_true",
                   help="only print the tasks the notebook would compute and an estimate of "
                        "their core-hours; execute nothing")
    p.add_argument("--root", metavar="DIR", help="root of the book (default: found from the cwd)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: _reruns/<chapter>-<time>/data; it first takes "
                        "the finished tasks it shares with data/)")
    p.set_defaults(func=cmd_rerun)

    p = sub.add_parser("verify", help="recompute a sample of the cached results and compare")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--per-config", type=int, default=2,
                   help="tasks recomputed per config (default 2)")
    p.add_argument("--forget-mismatched", action="store_true",
                   help="remove the cached rows of every config with a differing task")
    p.add_argument("--n-jobs", type=int, default=-1, help="worker processes (default -1: all)")
    p.add_argument("--max-seconds", type=_float_arg, default=None, metavar="S",
                   help="time bound per experiment: sample only the tasks that fit by the time "
                        "per task its manifest records (skip the experiment if one task takes "
                        "longer) and start none after S seconds; a note says what was left out")
    p.add_argument("--skip", metavar="NAMES",
                   help="comma-separated experiments not to check (e.g. the costly ones)")
    p.add_argument("--record", action="store_true",
                   help="add the outcome to each checked experiment's manifest under "
                        "'verified' (date, code, tasks checked); only the manifest changes")
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: data/ at the root of the book)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("status", help="how far a chapter's results are: tasks cached and run "
                                      "time per experiment, and whether a run is on")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: data/ at the root of the book)")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("prune", help="drop cached rows that no experiment uses any more "
                                     "(task keys of changed configurations)")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--dry-run", action="store_true", help="only say what would be removed")
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: data/ at the root of the book)")
    p.set_defaults(func=cmd_prune)

    p = sub.add_parser("bench", help="run a chapter's speed benchmarks")
    p.add_argument("chapter")
    p.set_defaults(func=cmd_bench)
    return parser


def _quiet_broken_pipe() -> int:
    """``gameai ... | head -1``: the reader has gone, so stop quietly, as a process killed by
    SIGPIPE would, instead of printing a traceback. stdout is pointed at /dev/null so that
    Python's final flush at exit does not fail again. Whatever a run computed is saved (each
    chunk as it finishes); the same command resumes it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout replaced by an object without a file
        pass
    return EXIT_BROKEN_PIPE


def _os_error(exc: OSError) -> str:
    """One line for a file-system failure, with what to do: a full disk or a read-only folder
    is not a bug of the program, and the state it leaves is fine (every chunk is written
    atomically), so no traceback."""
    import errno

    where = exc.filename or "the results folder"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return (f"no space left on the disk holding {where}: every finished chunk is saved; "
                "free some space (or give --data-dir a folder on another disk) and run the "
                "same command again to resume")
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return (f"{where} cannot be written ({exc.strerror}): give --data-dir a writable "
                "folder, or make this one writable, and run the command again")
    return f"{where}: {exc.strerror or exc}; fix it and run the same command again to resume"


def main(argv: Sequence[str] | None = None) -> int:
    from .core.io import OutsideFolder
    from .core.lock import FolderBusy
    from .core.store import DamagedResults

    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except (UsageError, FolderBusy, OutsideFolder) as exc:
        print(f"gameai: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (DamagedResults, DaskLost) as exc:
        print(f"gameai: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"gameai: error: {_os_error(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ngameai: interrupted; every finished chunk is saved: run the same command again "
              "to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
