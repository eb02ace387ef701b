"""Issue 44 at the command line: nothing outside a results folder is touched through a link,
every failure is one line on stderr with a non-zero status and the next step, and every case
resumes byte for byte.

The toy chapter of ``test_cli_data_safety`` (a temporary book with committed results) stands in
for the real chapters, except where a real chapter's parameters are the point.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from gameai import cli
from gameai.core import io as store_io
from gameai.core import lock as lock_module
from gameai.core.params import Param
from test_cli_data_safety import book, digest, gameai  # noqa: F401  (the fixture)


def one_error_line(err: str) -> str:
    """The single line stderr holds (no traceback), returned for further checks."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def results(folder: Path) -> dict[str, bytes]:
    """The result files of a toy results folder that must match byte for byte (the manifest
    records times, so only what it says about the rows is compared)."""
    out = {name: (folder / "toy" / name).read_bytes() for name in ("scores.csv", "claims.csv")}
    manifest = json.loads((folder / "toy" / "scores.json").read_text())
    out["rows"] = str((manifest["rows"], manifest["rows_in_file"], manifest["columns"])).encode()
    return out


# ------------------------------------------------------------------- links


def test_a_chapter_folder_linked_into_data_is_refused_by_run_dry_run_and_rerun(book, capsys):
    before = digest(book / "data")
    mine = book / "mine"
    mine.mkdir()
    os.symlink(book / "data" / "toy", mine / "toy")
    for argv in (("run", "toy", "-p", "profile", "ci", "--data-dir", str(mine)),
                 ("run", "toy", "-p", "games", "9", "--data-dir", str(mine), "--dry-run"),
                 ("rerun", "toy", "--no-build", "--root", str(book), "--data-dir", str(mine)),
                 ("rerun", "toy", "--root", str(book), "--data-dir", str(mine), "--dry-run")):
        assert gameai(*argv) == 2, argv
        line = one_error_line(capsys.readouterr().err)
        assert "link into the committed" in line and "remove the link" in line
    assert digest(book / "data") == before
    assert sorted(p.name for p in mine.iterdir()) == ["toy"]  # nothing made beside the link


# ------------------------------------------------------------------- full disk, read-only folder


def _failing_writes(monkeypatch, code: int, after: int) -> None:
    """Every atomic write after the first ``after`` fails with ``code`` (the chunks of a run and
    its manifest and CSV all go through it), as a full disk or a read-only mount would."""
    real = store_io.atomic_write_text
    calls = {"n": 0}

    def write(path, text, encoding="utf-8"):
        calls["n"] += 1
        if calls["n"] > after:
            raise OSError(code, os.strerror(code), str(path))
        return real(path, text, encoding)

    monkeypatch.setattr(store_io, "atomic_write_text", write)


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "no space left on the disk"),
                                         (errno.EROFS, "cannot be written")])
def test_a_full_disk_or_read_only_folder_is_one_line_and_resumes_byte_for_byte(
        book, capsys, monkeypatch, code, words):
    reference = book / "reference"
    assert gameai("run", "toy", "-p", "games", "10", "--data-dir", str(reference)) == 0
    out = book / "out"
    with monkeypatch.context() as m:
        _failing_writes(m, code, after=3)  # the copied tasks, a chunk and its wall time
        assert gameai("run", "toy", "-p", "games", "10", "--data-dir", str(out)) == 1
    line = one_error_line(capsys.readouterr().err)
    assert words in line and "run the" in line
    assert list((out / "toy" / ".partial" / "scores").glob("*.csv"))  # the chunks are kept
    assert gameai("run", "toy", "-p", "games", "10", "--data-dir", str(out)) == 0
    assert results(out) == results(reference)


def test_verify_record_in_a_read_only_folder_is_one_line(book, capsys, monkeypatch):
    def read_only(path):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(lock_module, "_open_lock_file", read_only)
    before = digest(book / "data")
    assert gameai("verify", "toy", "--record", "--n-jobs", "1") == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    (line,) = [x for x in captured.err.splitlines() if "error" in x]  # progress lines aside
    assert "cannot record" in line and "without --record" in line
    assert "every sampled task reproduced" in captured.out  # the check itself still ran
    assert digest(book / "data") == before


# ------------------------------------------------------------------- Dask


@pytest.fixture
def fast_dask(monkeypatch):
    monkeypatch.setattr(cli, "DASK_TIMEOUT", 1.0)


class _Server:
    """A TCP server on loopback that is not Dask: ``banner`` bytes sent on accept (an HTTP
    server sends none, waiting for a request), or no ``accept`` at all."""

    def __init__(self, banner: bytes = b"", accept: bool = True) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.banner, self.stop = banner, threading.Event()
        self.conns: list[socket.socket] = []
        if accept:
            threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():  # bounded by the test's close()
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.conns.append(conn)
            if self.banner:
                conn.sendall(self.banner)

    def close(self) -> None:
        self.stop.set()
        for conn in self.conns:
            conn.close()
        self.sock.close()


@pytest.mark.parametrize("server, words", [
    (dict(banner=b""), "not a Dask scheduler"),  # an HTTP server: says nothing first
    (dict(banner=b"HTTP/1.1 400 Bad Request\r\n\r\n"), "not a Dask scheduler"),
    (dict(accept=False), "not a Dask scheduler"),  # a port that never answers
])
def test_a_port_where_no_dask_scheduler_answers_is_refused_within_the_timeout(
        book, capsys, fast_dask, server, words):
    fake = _Server(**server)
    try:
        t0 = time.monotonic()
        code = gameai("run", "toy", "-p", "games", "8", "--scheduler", fake.address,
                      "--data-dir", str(book / "out"))
        elapsed = time.monotonic() - t0
    finally:
        fake.close()
    assert code == 2 and elapsed < 10
    line = one_error_line(capsys.readouterr().err)
    assert words in line and fake.address in line and "8786" in line
    assert not (book / "out").exists()


def test_a_closed_port_and_a_bad_address_are_one_line(book, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens once it is closed
    assert gameai("run", "toy", "--scheduler", f"tcp://127.0.0.1:{port}") == 2
    assert "cannot reach the Dask scheduler" in one_error_line(capsys.readouterr().err)
    assert gameai("run", "toy", "--scheduler", "not-an-address") == 2
    assert "tcp://HOST:PORT" in one_error_line(capsys.readouterr().err)


def test_a_cluster_lost_mid_run_is_one_line(book, capsys, monkeypatch):
    """What distributed raises when the last worker is gone, as one line (the real cluster's
    loss is tested in test_cluster.py)."""
    class Client:
        dashboard_link = "-"

        def close(self, timeout=None):
            raise OSError("the scheduler is gone too")

    def lost(*args, **kwargs):
        raise TimeoutError("No valid workers found")

    monkeypatch.setattr(cli, "_dask_client", lambda address: Client())
    module = sys.modules["toychapter"] if "toychapter" in sys.modules else __import__("toychapter")
    monkeypatch.setattr(module, "run", lost)
    assert gameai("run", "toy", "--backend", "dask", "--data-dir", str(book / "out")) == 1
    line = one_error_line(capsys.readouterr().err)
    assert "stopped computing" in line and "No valid workers found" in line
    assert "run the same command again" in line


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf"])
def test_a_bad_wait_for_a_lost_scheduler_is_refused_before_the_run(book, capsys, monkeypatch,
                                                                   value):
    monkeypatch.setenv(cli.LOST_AFTER_ENV, value)
    monkeypatch.setattr(cli, "_dask_client", lambda address: pytest.fail("a client was made"))
    assert gameai("run", "toy", "--backend", "dask", "--data-dir", str(book / "out")) == 2
    line = one_error_line(capsys.readouterr().err)
    assert cli.LOST_AFTER_ENV in line and "positive number of seconds" in line and value in line
    assert not (book / "out").exists()


def test_the_wait_for_a_lost_scheduler_is_five_seconds_unless_set(monkeypatch):
    monkeypatch.delenv(cli.LOST_AFTER_ENV, raising=False)
    assert cli._lost_after() == cli.DASK_LOST_AFTER_S == 5.0
    monkeypatch.setenv(cli.LOST_AFTER_ENV, "1.5")
    assert cli._lost_after() == 1.5


def test_a_lost_scheduler_stops_a_run_started_in_the_background(monkeypatch):
    """The watchdog: a client never connected stops the run after the wait, with one error,
    also where SIGINT is ignored (a run started with ``cmd &`` inherits it so, and the CI that
    found this ran its tests that way)."""
    import signal

    class Client:
        status = "connecting"
        dashboard_link = "-"

        def close(self, timeout=None):
            pass

    started = []

    def run(params, data_dir, progress):
        started.append(time.monotonic())
        time.sleep(10)  # a run that would finish its chunks here, unasked
        return "finished"

    monkeypatch.setattr(cli, "_dask_client", lambda address: Client())
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(cli.DaskLost, match="has not answered for 0.4 s"):
            cli._run_on_dask(types.SimpleNamespace(run=run), {}, Path("."), None, after=0.4)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert 0.4 <= time.monotonic() - started[0] < 5
    assert signal.getsignal(cli.LOST_SIGNAL) == signal.SIG_DFL  # the handler is removed again


# ------------------------------------------------------------------- parameters and hints


def test_budgets_and_scales_have_upper_bounds(capsys):
    """Values that passed validation and then failed deep inside: a file name with '+' and an
    infinite budget. Refused at once, naming the bound."""
    for name, value in (("table3_T", "1e20"), ("time_scale", "1e308"), ("table2_T", "1e300")):
        assert gameai("run", "kingdomino", "-p", name, value, "--dry-run") == 2
        line = one_error_line(capsys.readouterr().err)
        assert name in line and "between" in line
    import importlib

    for chapter, module in cli.CHAPTERS.items():
        for name, param in importlib.import_module(module).PARAMETERS.items():
            if float in (param.kind, param.item_kind):
                assert param.maximum is not None, f"{chapter}: {name} has no upper bound"
    from gameai.kingdomino.chapter import _table3_cell_key

    assert _table3_cell_key(1e20) == "table3_T1e20"  # a valid file name even past the bound


@pytest.fixture
def restricted(monkeypatch, tmp_path):
    """A chapter whose experiment ``b`` is built from ``a``'s results (as Frank's Zoo's Monte
    Carlo AIs from Table 4's weights), and which shrinks ``games`` in the ci profile."""
    from gameai.core.chapter import ChapterPlan, run_settings

    spec = {**run_settings(1),
            "games": Param(100, int, "games", minimum=1),
            "experiments": Param(("a", "b"), tuple, "groups", item_kind=str, choices=("a", "b")),
            "compute_missing": Param(False, bool, "compute")}

    def play(config, index, rng):
        return {"x": int(rng.integers(5))}

    def step_a(res):
        res.get("a", "a", play, [{"k": 1}], res.params["games"], chunk_size=5,
                description="a", compute=res.computes("a"))

    def step_b(res):
        if res["a"] is None:
            return  # built from a's results
        res.get("b", "b", play, [{"k": 2}], res.params["games"], chunk_size=5,
                description="b", compute=res.computes("b"))

    plan = ChapterPlan("dep", "1", spec, {"games": 3}, [step_a, step_b], lambda res: [],
                       run_only=("profile", "n_jobs", "backend", "compute_missing",
                                 "experiments"))
    module = types.ModuleType("gameai_test_dep_chapter")
    module.PARAMETERS, module.RUN_ONLY = spec, plan.run_only
    module.COMMITTED_DATA_DIR = tmp_path / "committed"
    module.resolve, module.results, module.run = plan.resolve, plan.results, plan.run
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(cli, "CHAPTERS", {"dep": module.__name__})
    return tmp_path


def test_an_experiment_whose_inputs_are_left_out_names_them_and_the_command(restricted, capsys):
    out = str(restricted / "out")
    assert gameai("run", "dep", "-p", "experiments", "b", "-p", "games", "4",
                  "--n-jobs", "1", "--data-dir", out, "--dry-run") == 0
    text = capsys.readouterr().out
    assert "all: 0 tasks to compute" in text
    assert "b: computes nothing until a" in text
    hint = "gameai run dep -p games 4 -p experiments a,b --data-dir " + out
    assert hint in text
    assert gameai("run", "dep", "-p", "experiments", "b", "-p", "games", "4",
                  "--n-jobs", "1", "--data-dir", out) == 1
    line = one_error_line(capsys.readouterr().err)
    assert "computes nothing until a" in line and hint in line
    assert gameai(*hint.split()[1:], "--n-jobs", "1") == 0  # the hint works as printed
    assert (Path(out) / "dep" / "b.csv").exists()


def test_the_parameters_line_of_a_ci_run_shows_the_sizes_it_uses(restricted, capsys):
    assert gameai("run", "dep", "-p", "profile", "ci", "--n-jobs", "1",
                  "--data-dir", str(restricted / "ci")) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("parameters:"))
    assert "games=3" in line and "games=100" not in line


def test_hints_after_a_damaged_copy_keep_the_profile_and_the_data_dir(book, capsys):
    copy = book / "copy"
    assert gameai("run", "toy", "-p", "profile", "ci", "--data-dir", str(copy)) == 0
    csv = copy / "toy" / "scores.csv"
    csv.write_text(csv.read_text()[:-3])
    capsys.readouterr()
    assert gameai("verify", "toy", "-p", "profile", "ci", "--data-dir", str(copy),
                  "--n-jobs", "1") == 1
    hint = f"`gameai run toy -p profile ci --data-dir {copy}`"
    assert hint in capsys.readouterr().err
    assert gameai("status", "toy", "-p", "profile", "ci", "--data-dir", str(copy)) == 1
    assert hint in capsys.readouterr().out


# ------------------------------------------------------------------- rerun holds its folder


def test_a_rerun_holds_its_folder_for_the_whole_notebook(book, capsys):
    """A cell before any experiment asks who holds the folder: the rerun does (so a `gameai
    run` there is refused between experiments too), and the kernel still computes under it."""
    import nbformat

    nb_path = book / "book" / "toy.ipynb"
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells.insert(1, nbformat.v4.new_code_cell(
        "import os\nfrom pathlib import Path\nfrom gameai.core.lock import holder\n"
        "print('HELD BY', holder(Path(os.environ['GAMEAI_DATA_DIR']) / 'toy'))"))
    nbformat.write(nb, nb_path)
    out = book / "rr"
    assert gameai("rerun", "toy", "-p", "games", "9", "--no-build", "--root", str(book),
                  "--data-dir", str(out)) == 0
    executed = next((book / "_reruns").glob("toy-*")) / "book" / "toy.ipynb"
    text = executed.read_text()
    assert f"HELD BY pid {os.getpid()} " in text
    assert len((out / "toy" / "scores.csv").read_text().splitlines()) == 1 + 9
    assert lock_module.holder(out / "toy") is None  # released at the end


# ------------------------------------------------------------------- JIT cache folder


def test_an_unwritable_jit_cache_falls_back_to_a_fresh_temporary_folder(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a folder cannot be made below a file, not even by root
    env = {**os.environ, "GAMEAI_NUMBA_CACHE": str(blocker / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    run = subprocess.run([sys.executable, "-c", "import gameai, numba; "
                          "print(numba.config.CACHE_DIR)"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    cache = Path(run.stdout.strip())
    assert "__pycache__" not in str(cache) and not str(cache).startswith(str(blocker))
    try:
        assert cache.parent.is_dir() and cache.parent.name.startswith("gameai-numba-")
        line = one_error_line(run.stderr)
        assert "cannot be written" in line and str(cache.parent) in line
    finally:
        shutil.rmtree(cache.parent, ignore_errors=True)
