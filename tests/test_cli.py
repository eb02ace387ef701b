"""The gameai command: parameters are checked before any work, unknown chapters are refused.

A fake chapter module with a tiny PARAMETERS dict stands in for the real chapters, so these tests
do not depend on (or compile) any game engine.
"""

from __future__ import annotations

import os
import sys
import time
import types
from pathlib import Path

import pytest

from gameai import cli
from gameai.core.params import Param

FAKE = "gameai_test_fake_chapter"


@pytest.fixture
def fake(monkeypatch):
    module = types.ModuleType(FAKE)
    module.PARAMETERS = {
        "games_per_deck": Param(10, int, "games per deck size", minimum=1),
        "agent": Param("random", str, "tested agent", choices=("random", "heuristic")),
        "n_jobs": Param(1, int, "workers", minimum=-1, forbid=(0,)),
        "backend": Param("loky", str, "joblib backend", choices=("loky", "dask", "sequential")),
    }
    module.calls = []

    def run(params, *, data_dir, progress="auto"):
        module.calls.append(dict(params=params, data_dir=data_dir))

    module.run = run
    monkeypatch.setitem(sys.modules, FAKE, module)
    monkeypatch.setattr(cli, "CHAPTERS", {"fake": FAKE})
    return module


def gameai(*argv: str) -> int:
    try:
        return cli.main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        return exc.code


@pytest.mark.parametrize("command", ["run", "rerun"])
@pytest.mark.parametrize(
    "name, value", [("games_per_deck", "-5"), ("games_per_deck", "many"), ("nonsense", "1")]
)
def test_bad_parameter_exits_2_before_any_work(fake, capsys, monkeypatch, tmp_path, command, name, value):
    monkeypatch.chdir(tmp_path)  # no book here: a rerun that got past validation would fail differently
    start = time.perf_counter()
    assert gameai(command, "fake", "-p", name, value) == 2
    assert time.perf_counter() - start < 5
    err = capsys.readouterr().err
    assert name in err
    assert fake.calls == []
    assert not (tmp_path / "_reruns").exists()


def test_unknown_parameter_message_lists_allowed(fake, capsys):
    assert gameai("run", "fake", "-p", "nonsense", "1") == 2
    err = capsys.readouterr().err
    assert "nonsense" in err and "games_per_deck" in err and "agent" in err


def test_bad_choice_names_allowed_values(fake, capsys):
    assert gameai("run", "fake", "-p", "agent", "genius") == 2
    err = capsys.readouterr().err
    assert "agent" in err and "heuristic" in err


@pytest.mark.parametrize("command", ["run", "rerun", "bench", "params"])
def test_unknown_chapter_lists_chapters(fake, capsys, command):
    assert gameai(command, "chess") == 2
    err = capsys.readouterr().err
    assert "chess" in err and "fake" in err


def test_run_passes_validated_parameters(fake, tmp_path):
    assert gameai("run", "fake", "-p", "games_per_deck", "7", "--n-jobs", "2",
                  "--data-dir", str(tmp_path)) == 0
    (call,) = fake.calls
    assert call["params"] == {"games_per_deck": 7, "agent": "random", "n_jobs": 2,
                              "backend": "loky"}
    assert call["data_dir"] == tmp_path.resolve()


def test_params_lists_defaults_and_help(fake, capsys):
    assert gameai("params", "fake") == 0
    out = capsys.readouterr().out
    assert "games_per_deck = 10" in out and "games per deck size" in out


def test_rerun_executes_a_copy_with_papermill(fake, monkeypatch, tmp_path):
    (tmp_path / "_config.yml").write_text("title: t\n")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "intro.md").write_text("# Intro\n")
    (tmp_path / "book" / "fake.ipynb").write_text("{}")
    seen = {}

    def execute_notebook(input_path, output_path, parameters, cwd, **kwargs):
        seen.update(input=input_path, output=output_path, parameters=parameters, cwd=cwd,
                    data_dir=os.environ.get("GAMEAI_DATA_DIR"))

    import papermill

    monkeypatch.setattr(papermill, "execute_notebook", execute_notebook)
    assert gameai("rerun", "fake", "-p", "games_per_deck", "3", "--no-build",
                  "--root", str(tmp_path)) == 0
    assert seen["parameters"] == {"games_per_deck": 3, "compute_missing": True}
    assert seen["data_dir"] == str(tmp_path.resolve() / "_reruns" / Path(seen["output"]).parts[-3]
                                   / "data")
    assert seen["cwd"] == str(tmp_path.resolve() / "book")
    assert seen["input"] == str(tmp_path.resolve() / "book" / "fake.ipynb")
    (rerun,) = (tmp_path / "_reruns").iterdir()
    assert rerun.name.startswith("fake-")
    assert seen["output"] == str(rerun / "book" / "fake.ipynb")
    assert (rerun / "book" / "intro.md").exists()
    assert (tmp_path / "book" / "fake.ipynb").read_text() == "{}"  # committed notebook untouched


def test_verify_reports_and_forgets_results_the_code_no_longer_gives(fake, capsys, tmp_path):
    from gameai.core.store import Experiment, load_or_run, status

    def toy(offset):
        def fn(config, index, rng):
            return {"x": int(rng.integers(100)) + offset * (index == 1)}
        return Experiment(chapter="fake", name="toy", fn=fn, configs=[{"a": 1}], n=4, seed=3,
                          version="1")

    load_or_run(toy(0), data_dir=tmp_path, progress=False)
    current = {"exp": toy(0)}
    fake.results = lambda params, **kw: types.SimpleNamespace(experiments={"toy": current["exp"]})
    args = ("verify", "fake", "--per-config", "4", "--n-jobs", "1", "--data-dir", str(tmp_path))
    assert gameai(*args) == 0
    assert "every sampled task reproduced" in capsys.readouterr().out
    current["exp"] = toy(1)  # the code changed without a version bump
    assert gameai(*args) == 1
    assert "1 differ  MISMATCH" in capsys.readouterr().out
    assert status(current["exp"], tmp_path)["done"] == 4
    assert gameai(*args, "--forget-mismatched") == 1
    assert status(current["exp"], tmp_path)["done"] == 0
    assert gameai("verify", "fake", "--per-config", "0") == 2


def test_prune_drops_rows_no_experiment_uses(fake, capsys, tmp_path):
    from gameai.core.store import Experiment, load_or_run, status

    def fn(config, index, rng):
        return {"x": int(rng.integers(100))}

    def toy(configs):
        return Experiment(chapter="fake", name="toy", fn=fn, configs=configs, n=3, seed=3,
                          version="1")

    load_or_run(toy([{"a": 1}, {"a": 2}]), data_dir=tmp_path, progress=False)
    now = toy([{"a": 1}])  # configuration a=2 changed its key: its rows are unused
    fake.results = lambda params, **kw: types.SimpleNamespace(experiments={"toy": now})
    args = ("prune", "fake", "--data-dir", str(tmp_path))
    assert gameai(*args, "--dry-run") == 0
    assert "would remove 3 rows of 1 unused task key(s), kept 3" in capsys.readouterr().out
    assert status(toy([{"a": 2}]), tmp_path)["done"] == 3  # a dry run changes nothing
    assert gameai(*args) == 0
    assert "removed 3 rows" in capsys.readouterr().out
    assert status(toy([{"a": 2}]), tmp_path)["done"] == 0
    assert status(now, tmp_path)["done"] == 3
    assert load_or_run(now, data_dir=tmp_path, progress=False, compute=False)["x"].size == 3
    assert gameai(*args) == 0
    assert "no unused rows" in capsys.readouterr().out
    assert gameai("prune", "fake", "--data-dir", str(tmp_path / "none")) == 2


def test_status_counts_cached_tasks_and_names_a_running_run(fake, capsys, tmp_path):
    import fcntl

    from gameai.core.store import Experiment, load_or_run

    def fn(config, index, rng):
        return {"x": int(rng.integers(100))}

    def toy(n):
        return Experiment(chapter="fake", name="toy", fn=fn, configs=[{"a": 1}, {"a": 2}], n=n,
                          seed=3, version="1")

    load_or_run(toy(3), data_dir=tmp_path, progress=False)
    fake.results = lambda params, **kw: types.SimpleNamespace(experiments={"toy": toy(4)})
    args = ("status", "fake", "--data-dir", str(tmp_path))
    assert gameai(*args) == 0
    out = capsys.readouterr().out
    assert "toy:       6 of       8 tasks ( 75.0 %)" in out
    assert "no run is computing now" in out
    with open(tmp_path / "fake" / ".lock", "a+") as fh:  # another run's lock (own open file)
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        fh.write("pid 4242 on host: gameai run fake\n")
        fh.flush()
        assert gameai(*args) == 0
    assert "a run is computing now (pid 4242 on host: gameai run fake)" in capsys.readouterr().out
    assert gameai(*args) == 0  # the lock is free again
    assert "no run is computing now" in capsys.readouterr().out
    assert gameai("status", "fake", "--data-dir", str(tmp_path / "nowhere")) == 2
    fake.results = lambda params, **kw: types.SimpleNamespace(experiments={"toy": toy(3)})
    assert gameai(*args) == 0
    assert "6 of       6 tasks cached; complete" in capsys.readouterr().out


def test_a_rerun_book_executes_the_pages_around_the_chapter_and_hides_its_defaults(tmp_path):
    """The intro's scorecard and the methods' example compute at build time, so a rerun's book
    executes every page but the chapter papermill already ran; the chapter shows only the
    rerun's own parameters (the defaults' cell is removed from the page)."""
    import json

    import yaml

    from gameai import cli

    root, out = tmp_path / "root", tmp_path / "out"
    (root).mkdir()
    (out / "book").mkdir(parents=True)
    (root / "_config.yml").write_text("title: toy\nexecute:\n  execute_notebooks: force\n")
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n"
                                   "  - file: book/durak\n  - file: book/tarok\n")
    (out / "book" / "intro.md").write_text("# toy\n")
    cells = [{"cell_type": "code", "metadata": {"tags": ["parameters"]}, "source": "games = 10",
              "outputs": [], "execution_count": None},
             {"cell_type": "code", "metadata": {"tags": ["injected-parameters"]},
              "source": "games = 3", "outputs": [], "execution_count": None}]
    (out / "book" / "durak.ipynb").write_text(json.dumps({"cells": cells, "metadata": {},
                                                          "nbformat": 4, "nbformat_minor": 5}))
    cli._write_rerun_book(root, out, "durak", {"games": 3})
    config = yaml.safe_load((out / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "force"
    assert config["execute"]["exclude_patterns"] == ["*durak.ipynb"]
    tags = [c["metadata"]["tags"] for c in
            json.loads((out / "book" / "durak.ipynb").read_text())["cells"]]
    assert tags == [["parameters", "remove-cell"], ["injected-parameters"]]
    toc = yaml.safe_load((out / "_toc.yml").read_text())
    assert [c["file"] for c in toc["chapters"]] == ["book/durak"]  # tarok has no page at all


def test_a_rerun_book_keeps_the_chapter_numbers_moves_logs_out_and_shows_a_banner(tmp_path):
    """Another chapter of the published book gets a stub page (so the rerun chapter keeps its
    number, and its tables and figures theirs); the progress lines on standard error leave
    the page for rerun.log; a banner under the title names the changed parameters."""
    import json

    import yaml

    from gameai import cli

    root, out = tmp_path / "root", tmp_path / "out"
    (root / "book").mkdir(parents=True)
    (out / "book").mkdir(parents=True)
    (root / "_config.yml").write_text("title: toy\n")
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n"
                                   "  - file: book/tarok\n  - file: book/durak\n")
    (out / "book" / "intro.md").write_text("# toy\n")
    md = lambda text: {"cell_type": "markdown", "metadata": {}, "source": text}
    (root / "book" / "tarok.ipynb").write_text(json.dumps(
        {"cells": [md("# 3. Tarok: alpha-beta\n\ntext")], "metadata": {}, "nbformat": 4,
         "nbformat_minor": 5}))
    progress = {"output_type": "stream", "name": "stderr", "text": "durak/hands: 200/3200 tasks\n"}
    shown = {"output_type": "display_data", "data": {"text/plain": "a table"}, "metadata": {}}
    cells = [md("# Durak\n\nIntro."),
             {"cell_type": "code", "metadata": {}, "source": "run()", "execution_count": 1,
              "outputs": [progress, shown]}]
    (out / "book" / "durak.ipynb").write_text(json.dumps({"cells": cells, "metadata": {},
                                                          "nbformat": 4, "nbformat_minor": 5}))
    cli._write_rerun_book(root, out, "durak", {"games": 200, "compute_missing": True})
    toc = yaml.safe_load((out / "_toc.yml").read_text())
    assert [c["file"] for c in toc["chapters"]] == ["book/tarok", "book/durak"]
    assert (out / "book" / "tarok.md").read_text().startswith("# 3. Tarok: alpha-beta\n")
    nb = json.loads((out / "book" / "durak.ipynb").read_text())
    assert nb["cells"][1]["outputs"] == [shown]
    assert "200/3200 tasks" in (out / "rerun.log").read_text()
    head = nb["cells"][0]["source"]
    assert head.startswith("# Durak\n") and "A rerun, not the published chapter" in head
    assert "`games = 200`" in head and "compute_missing" not in head
    assert head.index("A rerun") < head.index("Intro.")
