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
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

__all__ = ["CHAPTERS", "main"]

#: chapter name -> module providing ``PARAMETERS`` and ``run(params, *, data_dir, n_jobs, backend,
#: progress)``; its package also holds ``bench.py`` with ``main()``.
CHAPTERS: dict[str, str] = {
    "frankszoo": "gameai.frankszoo.chapter",
}

EXIT_USAGE = 2


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


def _data_dir(args: argparse.Namespace) -> Path:
    """``--data-dir``, or ``data/`` at the root of the book."""
    return Path(args.data_dir).resolve() if args.data_dir is not None else find_root() / "data"


def cmd_run(args: argparse.Namespace) -> int:
    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)
    backend = "dask" if args.scheduler else args.backend
    data_dir = _data_dir(args)
    print(f"gameai run {args.chapter}: data in {data_dir}, backend {backend}, n_jobs {args.n_jobs}")
    print("parameters: " + ", ".join(f"{k}={v!r}" for k, v in params.items()), flush=True)
    kwargs = dict(data_dir=data_dir, n_jobs=args.n_jobs, backend=backend, progress="auto")
    if backend == "dask":
        from dask.distributed import Client

        # joblib's Dask backend sends the tasks to the current client: a remote scheduler when
        # --scheduler is given, otherwise a local cluster on this machine.
        with Client(args.scheduler) if args.scheduler else Client() as client:
            print(f"dask client: {client}  (dashboard: {client.dashboard_link})", flush=True)
            module.run(params, **kwargs)
    else:
        module.run(params, **kwargs)
    print(f"gameai run {args.chapter}: done; results are in {data_dir / args.chapter}")
    return 0


def _write_rerun_book(root: Path, out: Path, chapter: str, overrides: dict) -> None:
    """Turn ``out`` into a small book around the executed notebook: the pages of book/ (without
    the other, unexecuted notebooks), a _toc.yml keeping only pages that exist there, and a
    _config.yml that shows the executed outputs as they are (execute_notebooks: off)."""
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8")) or {}
    config.setdefault("execute", {})["execute_notebooks"] = "off"
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
    for key in ("chapters", "parts", "sections"):
        if key in toc:
            toc[key] = prune(toc[key])
    (out / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")


def cmd_rerun(args: argparse.Namespace) -> int:
    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)  # before anything else happens
    overrides = {name: _plain(params[name]) for name, _ in args.param or []}

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


def cmd_verify(args: argparse.Namespace) -> int:
    """Recompute a sample of every cached experiment and compare it with the stored rows."""
    from .core.store import forget, verify

    module = load_chapter(args.chapter)
    params = check_params(args.chapter, module, args.param)
    if args.per_config < 1:
        raise UsageError(f"--per-config must be an int >= 1, got {args.per_config}")
    data_dir = _data_dir(args)
    res = module.results(params, data_dir=data_dir, compute=False, progress=False)
    bad = 0
    print(f"gameai verify {args.chapter}: {args.per_config} task(s) per config, data in {data_dir}")
    for exp in res.experiments.values():
        out = verify(exp, data_dir, per_config=args.per_config, n_jobs=args.n_jobs)
        bad += out["mismatched"]
        flag = "ok" if out["mismatched"] == 0 else "MISMATCH"
        print(f"{exp.name:>24}: {out['checked']:5d} checked, {out['mismatched']:4d} differ  {flag}",
              flush=True)
        for ex in out["examples"][:2]:
            print(f"      task {ex['key']}/{ex['index']}: stored {ex['stored']} "
                  f"recomputed {ex['recomputed']}")
        if out["keys"] and args.forget_mismatched:
            n = forget(exp, data_dir, out["keys"])
            print(f"      forgot {n} rows of {len(out['keys'])} config(s): "
                  f"`gameai run {args.chapter}` recomputes them")
    print(f"gameai verify {args.chapter}: " + ("every sampled task reproduced" if bad == 0 else
          f"{bad} sampled task(s) differ from the stored rows"))
    return 0 if bad == 0 else 1


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
    p.add_argument("--n-jobs", type=int, default=-1,
                   help="worker processes (joblib convention: -1 = all cores; default -1)")
    p.add_argument("--backend", choices=("loky", "dask"), default="loky",
                   help="joblib backend (default loky; dask uses a dask.distributed client)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://host:8786 (implies --backend dask)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: data/ at the root of the book)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("rerun", help="re-execute a chapter notebook with other parameters into _reruns/")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--no-build", action="store_true", help="execute the notebook only; build no book")
    p.add_argument("--root", metavar="DIR", help="root of the book (default: found from the cwd)")
    p.set_defaults(func=cmd_rerun)

    p = sub.add_parser("verify", help="recompute a sample of the cached results and compare")
    p.add_argument("chapter")
    _add_param_option(p)
    p.add_argument("--per-config", type=int, default=2,
                   help="tasks recomputed per config (default 2)")
    p.add_argument("--forget-mismatched", action="store_true",
                   help="remove the cached rows of every config with a differing task")
    p.add_argument("--n-jobs", type=int, default=-1, help="worker processes (default -1: all)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="results folder (default: data/ at the root of the book)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("bench", help="run a chapter's speed benchmarks")
    p.add_argument("chapter")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"gameai: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
