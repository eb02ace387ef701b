"""Committed results stay as they are: reruns, other parameters, the ci profile and bad settings
never change ``data/`` (issue: keep committed results safe).

A toy chapter (``tests/fixtures/toychapter.py``) is copied into a temporary book with a notebook,
so that ``gameai run`` and ``gameai rerun`` (real papermill, a real kernel) are exercised end to
end in seconds.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from gameai import cli

FIXTURE = Path(__file__).parent / "fixtures" / "toychapter.py"


def digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (the lock file aside) and its hash."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A book with the toy chapter and its committed results in ``data/``."""
    root = tmp_path / "book-root"
    (root / "book").mkdir(parents=True)
    (root / "_config.yml").write_text("title: toy\nexecute:\n  execute_notebooks: off\n")
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n- file: book/toy\n")
    (root / "book" / "intro.md").write_text("# Intro\n")
    shutil.copy(FIXTURE, root / "toychapter.py")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    params = nbformat.v4.new_code_cell("games = 6\ncompute_missing = False")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(
        "import toychapter\nres = toychapter.results({'games': games, "
        "'compute_missing': compute_missing})\nprint(len(res.frame), res.data_dir)")]
    nbformat.write(nb, root / "book" / "toy.ipynb")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.delenv("GAMEAI_DATA_DIR", raising=False)
    monkeypatch.setattr(cli, "CHAPTERS", {"toy": "toychapter"})
    sys.modules.pop("toychapter", None)
    assert gameai("run", "toy") == 0
    assert (root / "data" / "toy" / "scores.csv").exists()
    yield root
    sys.modules.pop("toychapter", None)


def gameai(*argv: str) -> int:
    try:
        return cli.main(list(argv))
    except SystemExit as exc:
        return exc.code


def reruns(root: Path) -> list[Path]:
    return sorted((root / "_reruns").glob("toy-*"))


def test_rerun_writes_its_own_folder_and_never_data(book, capsys):
    before = digest(book / "data")
    assert gameai("rerun", "toy", "-p", "games", "9", "--no-build", "--root", str(book)) == 0
    assert digest(book / "data") == before
    (out,) = reruns(book)
    scores = (out / "data" / "toy" / "scores.csv").read_text().splitlines()
    assert len(scores) == 1 + 9
    assert (out / "data" / "toy" / "claims.csv").exists()
    assert "GAMEAI_DATA_DIR" not in os.environ


def test_run_at_other_parameters_goes_to_a_fresh_folder_seeded_from_data(book, capsys):
    before = digest(book / "data")
    assert gameai("run", "toy", "-p", "games", "9") == 0
    assert digest(book / "data") == before
    (out,) = reruns(book)
    assert "finished tasks taken from" in capsys.readouterr().out
    committed = (book / "data" / "toy" / "scores.csv").read_text().splitlines()
    rerun = (out / "data" / "toy" / "scores.csv").read_text().splitlines()
    assert rerun[:7] == committed  # the shared tasks are the committed rows


@pytest.mark.parametrize("argv", [
    ("run", "toy", "-p", "profile", "ci"),
    ("run", "toy", "-p", "games", "3"),
])
def test_no_profile_or_parameter_changes_data(book, argv):
    before = digest(book / "data")
    assert gameai(*argv) == 0
    assert digest(book / "data") == before


def test_naming_data_for_other_parameters_is_refused(book, capsys):
    before = digest(book / "data")
    assert gameai("run", "toy", "-p", "games", "9", "--data-dir", str(book / "data")) == 2
    assert "never go into the committed" in capsys.readouterr().err
    assert gameai("rerun", "toy", "--no-build", "--root", str(book),
                  "--data-dir", str(book / "data")) == 2
    assert digest(book / "data") == before


def test_n_jobs_has_one_source_of_truth(book, monkeypatch, capsys):
    import toychapter

    seen = {}
    monkeypatch.setattr(toychapter, "run", lambda params, **kw: seen.update(params))
    assert gameai("run", "toy", "-p", "n_jobs", "2") == 0
    assert seen["n_jobs"] == 2 and "n_jobs=2" in capsys.readouterr().out
    assert gameai("run", "toy", "--n-jobs", "2", "--backend", "sequential") == 0
    assert seen["n_jobs"] == 2 and seen["backend"] == "sequential"
    assert gameai("run", "toy", "-p", "n_jobs", "1", "--n-jobs", "2") == 2
    assert "disagree" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (("run", "toy", "--n-jobs", "0"), "'n_jobs'"),
    (("run", "toy", "--n-jobs", "-5"), "'n_jobs'"),
    (("run", "toy", "-p", "n_jobs", "0"), "'n_jobs'"),
    (("verify", "toy", "--n-jobs", "0"), "--n-jobs"),
    (("verify", "toy", "--data-dir", "/nonexistent/place"), "no results of chapter toy"),
    (("rerun", "toy", "--root", "/nonexistent"), "--root /nonexistent"),
])
def test_bad_settings_give_one_line_and_exit_2(book, capsys, argv, words):
    before = digest(book / "data")
    assert gameai(*argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1
    assert digest(book / "data") == before


def test_a_data_dir_that_cannot_be_written_is_refused_before_any_work(book, capsys, monkeypatch):
    import toychapter

    monkeypatch.setattr(toychapter, "run", lambda *a, **k: pytest.fail("work started"))
    blocker = book / "a-file"
    blocker.write_text("")
    assert gameai("run", "toy", "--data-dir", str(blocker / "sub")) == 2
    assert "is not a writable folder" in capsys.readouterr().err


def test_verify_that_checked_nothing_fails(book, capsys):
    assert gameai("verify", "toy", "--n-jobs", "1") == 0
    assert gameai("verify", "toy", "--n-jobs", "1", "--data-dir", str(book / "empty")) == 2
    (book / "other" / "toy").mkdir(parents=True)
    assert gameai("verify", "toy", "--n-jobs", "1", "--data-dir", str(book / "other")) == 1
    assert "nothing was verified" in capsys.readouterr().err


def _hold(folder, ready, release):
    from gameai.core.lock import folder_lock

    with folder_lock(folder):
        ready.set()
        release.wait(30)


def test_a_second_run_on_the_same_folder_is_refused_naming_the_holder(book, capsys):
    ctx = mp.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(book / "data" / "toy", ready, release))
    holder.start()
    try:
        assert ready.wait(30)
        assert gameai("run", "toy") == 2
        assert f"pid {holder.pid}" in capsys.readouterr().err
    finally:
        release.set()
        holder.join(30)


def test_ctrl_c_is_one_line_about_resuming(book, capsys, monkeypatch):
    import toychapter

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(toychapter, "run", interrupted)
    assert gameai("run", "toy") == 130
    err = capsys.readouterr().err
    assert "run the same command again to resume" in err and "Traceback" not in err


# --------------------------------------------------------------------------- issue 29


def test_a_folder_inside_data_is_refused_for_run_and_rerun(book, capsys):
    before = digest(book / "data")
    for games in ("6", "9"):  # the paper's parameters or not: data/ holds data/<chapter> only
        assert gameai("run", "toy", "-p", "games", games, "--data-dir", str(book / "data" / "x")) == 2
        err = capsys.readouterr().err
        assert "inside the committed" in err and err.count("\n") == 1
    assert gameai("rerun", "toy", "--no-build", "--root", str(book),
                  "--data-dir", str(book / "data" / "x")) == 2
    assert "never writes into the committed" in capsys.readouterr().err
    assert not (book / "data" / "x").exists() and digest(book / "data") == before


def test_n_jobs_far_beyond_the_cores_is_refused(book, capsys, monkeypatch):
    import toychapter

    from gameai.core.chapter import max_n_jobs

    monkeypatch.setattr(toychapter, "run", lambda *a, **k: pytest.fail("work started"))
    too_many = str(max_n_jobs() + 1)
    for argv in (("run", "toy", "--n-jobs", too_many), ("verify", "toy", "--n-jobs", too_many),
                 ("run", "toy", "--n-jobs", "100000")):
        assert gameai(*argv) == 2
        err = capsys.readouterr().err
        assert "--n-jobs must be -1 (all cores) or an int between 1 and" in err
        assert "Traceback" not in err and err.count("\n") == 1


def test_dry_run_prints_the_tasks_to_compute_and_writes_nothing(book, capsys):
    manifest = book / "data" / "toy" / "scores.json"
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=3600.0, n_jobs=1)  # 600 s a task (6 tasks)
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    manifest.write_text(json.dumps(m))
    before = digest(book)
    assert gameai("run", "toy", "-p", "games", "12", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "scores:         12 tasks,          0 cached,          6 copied,          6 to compute, " \
           "about 1.0 core-hours" in out
    assert "all: 6 tasks to compute, about 1.0 core-hours" in out
    assert gameai("run", "toy", "--dry-run") == 0
    assert "all: 0 tasks to compute" in capsys.readouterr().out
    assert gameai("rerun", "toy", "-p", "games", "9", "--root", str(book), "--dry-run") == 0
    assert "all: 3 tasks to compute, about 30 core-minutes" in capsys.readouterr().out
    assert digest(book) == before and not (book / "_reruns").exists()


def test_dry_run_never_says_zero_core_hours_for_work_that_takes_time(book, capsys):
    """Issue 44: "about 0.00 core-hours" for 6 tasks of 2 s each."""
    manifest = book / "data" / "toy" / "scores.json"
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=12.0, n_jobs=1)  # 2 s a task
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    manifest.write_text(json.dumps(m))
    assert gameai("run", "toy", "-p", "games", "12", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "0.00" not in out
    assert "all: 6 tasks to compute, about 12 core-seconds" in out


@pytest.mark.parametrize("damage, words", [
    ("cut", "its last line is cut off"),
    ("shape", "row(s) with the wrong number of fields"),
    ("utf8", "is not UTF-8 text"),
])
def test_verify_fails_on_a_damaged_file_and_names_it(book, capsys, damage, words):
    copy = book / "copy"
    shutil.copytree(book / "data", copy)
    csv = copy / "toy" / "scores.csv"
    text = csv.read_text()
    if damage == "cut":
        csv.write_text(text[:-2])
    elif damage == "shape":
        lines = text.splitlines(keepends=True)
        csv.write_text("".join(lines[:3] + ["0,1,2,3\n"] + lines[3:]))
    else:
        csv.write_bytes(text.encode()[:25] + b"\xff" + text.encode()[25:])
    assert gameai("verify", "toy", "--n-jobs", "1", "--data-dir", str(copy)) == 1
    err = capsys.readouterr().err
    assert f"DAMAGED {csv}" in err and words in err
    assert "no stored task" not in err


def test_a_closed_stdout_ends_quietly(book):
    """`gameai ... | head -1`: no BrokenPipeError traceback (the pipe is closed before the first
    write here, so the error comes for sure)."""
    code = ("import sys; from gameai import cli; cli.CHAPTERS['toy'] = 'toychapter'; "
            "sys.exit(cli.main(['params', 'toy']))")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=book)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_rerun_into_a_folder_a_run_holds_is_refused_before_the_notebook(book, capsys):
    ctx = mp.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    busy = book / "busy"
    holder = ctx.Process(target=_hold, args=(busy / "toy", ready, release))
    holder.start()
    try:
        assert ready.wait(60)
        assert gameai("rerun", "toy", "--no-build", "--root", str(book),
                      "--data-dir", str(busy)) == 2
        assert "a run is computing into it now" in capsys.readouterr().err
        assert not (book / "_reruns").exists()
    finally:
        release.set()
        holder.join(30)


def test_dry_run_names_the_timed_check_a_cost_rests_on(book, capsys):
    """A recorded check newer than the run that timed ten tasks, all equal, costs the plan in
    place of the run's wall time, and the dry run says so."""
    manifest = book / "data" / "toy" / "scores.json"
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=12.0, n_jobs=1)  # 2 s a task by the run
    m.pop("core_seconds", None)
    configs = len(m["configs"])
    m["verified"] = [{"date": "2999-01-01T00:00:00+00:00", "per_config": 10, "sampled": 10,
                      "checked": 10, "mismatched": 0, "damaged_files": 0, "core_seconds": 5.0,
                      "configs_checked": configs, "configs": configs, "cpu": "test"}]
    manifest.write_text(json.dumps(m))
    assert gameai("run", "toy", "-p", "games", "12", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "about 3 core-seconds (timed by the check of 2999-01-01)" in out  # 6 tasks x 0.5 s
