"""Scale-out on a real Dask cluster (issue 29): a ``dask scheduler`` and two ``dask worker``
processes on loopback, driven through ``gameai run durak --scheduler tcp://127.0.0.1:PORT``.

1. The files of a small Durak experiment computed on the cluster are byte for byte those of a
   loky run (the manifests differ only in how and when they were computed).
2. One worker killed with SIGKILL while the run is computing: the run finishes on the other
   worker, and its files are again byte for byte the loky run's; nothing is lost.

Every process the test starts is stopped by its pid (never by name: other runs share the
machine). ``make test`` runs this file as its own stage (``cluster``); it takes about a minute
on 2 cores once the Durak engine is in numba's cache.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

BIN = Path(sys.executable).parent
GAMEAI = [str(BIN / "gameai")]
DASK = str(BIN / "dask")

#: A small Durak experiment: 2 EvalAI variants x 2 decks, 8,000 games each in tasks of 100
#: games, chunks of 20 tasks: 16 chunks of about a second each. Its own seed, so that no task
#: is shared with the committed data/ (every row is computed, none copied).
SMALL = ["-p", "experiments", "ablations", "-p", "ablations", "EvalAI-norankbonus,EvalAI-truediv",
         "-p", "ablation_players", "2", "-p", "decks", "24,36", "-p", "ablation_games", "8000",
         "-p", "seed", "4242"]
EXPERIMENT = "ablations"
CHUNKS = 16
#: Manifest fields that say how and when the rows were computed, not what they are. The git
#: fields name the commit and the dirty paths of the whole work tree at the time, which other
#: commits between the loky run and the cluster's change; the package code that computed the
#: rows is compared through ``source_hash``, which stays in the comparison.
HOW = ("backend", "n_jobs", "wall_time_s", "core_seconds", "created", "updated", "cpu_count",
       "git_commit", "git_dirty", "git_diff_sha256", "git_dirty_paths")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _stop(proc: subprocess.Popen) -> None:
    """Stop one process this test started, by its pid: SIGTERM, then SIGKILL."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(15)


class Cluster:
    """A scheduler and workers, each a process of its own (no nanny: a killed worker stays dead,
    as a lost machine would)."""

    def __init__(self, folder: Path, n_workers: int = 2) -> None:
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.folder = folder
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self._start("scheduler", [DASK, "scheduler", "--host", "127.0.0.1", "--port",
                                  str(self.port), "--no-dashboard"])
        for i in range(n_workers):
            self.workers.append(self._start(f"worker{i}", [
                DASK, "worker", self.address, "--name", f"w{i}", "--nthreads", "1",
                "--no-nanny", "--no-dashboard", "--memory-limit", "0",
                "--local-directory", str(folder / f"worker{i}")]))
        self.wait_for_workers(n_workers)

    def _start(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = self.folder / f"{name}.log"
        self.logs.append(log)
        with open(log, "wb") as out:
            # A session of its own: a Ctrl-C at the terminal running pytest does not reach it;
            # the teardown stops it.
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(proc)
        return proc

    def n_workers(self) -> int:
        from distributed import Client

        with Client(self.address, timeout="20s") as client:
            return len(client.scheduler_info()["workers"])

    def wait_for_workers(self, n: int, timeout: float = 120) -> None:
        from distributed import Client

        deadline = time.monotonic() + 30
        while True:  # the scheduler needs a moment to listen
            try:
                client = Client(self.address, timeout="5s")
                break
            except (OSError, TimeoutError):
                assert time.monotonic() < deadline, self.log_tail()
                time.sleep(0.5)
        with client:
            try:
                client.wait_for_workers(n, timeout=timeout)
            except TimeoutError:
                pytest.fail(f"{n} workers did not join the scheduler\n" + self.log_tail())

    def log_tail(self) -> str:
        return "\n".join(f"--- {p.name}\n" + p.read_text(errors="replace")[-2000:]
                         for p in self.logs if p.exists())

    def stop(self) -> None:
        for proc in reversed(self.procs):  # workers first, the scheduler last
            _stop(proc)


@pytest.fixture
def cluster(tmp_path):
    scratch = tmp_path / "cluster"
    scratch.mkdir()
    c = Cluster(scratch)
    try:
        yield c
    finally:
        c.stop()
        assert not any(_alive(p.pid) for p in c.procs)


@pytest.fixture(scope="module")
def loky_run(tmp_path_factory):
    """The reference: the same experiment with joblib's loky backend on this machine."""
    out = tmp_path_factory.mktemp("loky") / "data"
    run = _gameai("run", "durak", *SMALL, "--n-jobs", "2", "--data-dir", str(out))
    assert run.returncode == 0, run.stdout + run.stderr
    return out / "durak"


def _gameai(*argv: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([*GAMEAI, *argv], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def _files(folder: Path) -> dict[str, bytes]:
    """Every result file of a results folder (the lock file aside)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and p.name != ".lock"}


def _assert_same_results(ours: Path, reference: Path) -> None:
    mine, theirs = _files(ours), _files(reference)
    assert sorted(mine) == sorted(theirs) == sorted([f"{EXPERIMENT}.csv", f"{EXPERIMENT}.json",
                                                     "claims.csv"])
    assert not (ours / ".partial").exists(), "chunks were left unmerged"
    for name in (f"{EXPERIMENT}.csv", "claims.csv"):
        assert mine[name] == theirs[name], f"{name} differs from the loky run's"
    a, b = json.loads(mine[f"{EXPERIMENT}.json"]), json.loads(theirs[f"{EXPERIMENT}.json"])
    assert a["backend"] == "dask" and b["backend"] == "loky"
    assert {k: v for k, v in a.items() if k not in HOW} == \
           {k: v for k, v in b.items() if k not in HOW}
    rows = mine[f"{EXPERIMENT}.csv"].decode().splitlines()
    assert len(rows) == 1 + a["rows"] == 1 + CHUNKS * 20  # every task, once


def test_a_real_cluster_computes_the_loky_run_byte_for_byte(cluster, loky_run, tmp_path):
    out = tmp_path / "dask-data"
    run = _gameai("run", "durak", *SMALL, "--scheduler", cluster.address, "--data-dir", str(out))
    assert run.returncode == 0, run.stdout + run.stderr + cluster.log_tail()
    assert f"dask client: <Client: '{cluster.address}'" in run.stdout
    _assert_same_results(out / "durak", loky_run)


def test_a_worker_killed_mid_run_loses_nothing(cluster, loky_run, tmp_path):
    out = tmp_path / "dask-data"
    partial = out / "durak" / ".partial" / EXPERIMENT
    log = tmp_path / "run.log"
    with open(log, "wb") as fh:
        run = subprocess.Popen([*GAMEAI, "run", "durak", *SMALL, "--scheduler", cluster.address,
                                "--data-dir", str(out)], stdout=fh, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        # Wait until the cluster has delivered its first chunks: the workers are computing.
        while len(list(partial.glob("*.csv"))) < 2:
            assert run.poll() is None, "the run ended before a worker could be killed:\n" + \
                log.read_text(errors="replace")
            assert time.monotonic() < deadline, "no chunk arrived\n" + cluster.log_tail()
            time.sleep(0.05)
        victim = cluster.workers[0]
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(30)
        saved_at_kill = len(list(partial.glob("*.csv")))
        assert saved_at_kill < CHUNKS and run.poll() is None, "the kill came after the work"
        assert run.wait(600) == 0, log.read_text(errors="replace") + cluster.log_tail()
    finally:
        _stop(run)
    assert victim.returncode == -signal.SIGKILL
    assert cluster.n_workers() == 1  # the run finished without the killed worker
    _assert_same_results(out / "durak", loky_run)


# ----------------------------------------------------------------------- issue 44: a lost cluster


#: How long the runs of the lost-cluster test wait for a lost scheduler: the default 5 s is
#: about as long as joblib takes to finish the chunks left after the kill on this machine (about
#: 6 s with the faster Durak engine), so the test would race them.
LOST_AFTER_S = "1"


def _start_run(out: Path, address: str, log: Path) -> subprocess.Popen:
    from gameai.cli import LOST_AFTER_ENV

    with open(log, "wb") as fh:
        return subprocess.Popen([*GAMEAI, "run", "durak", *SMALL, "--scheduler", address,
                                 "--data-dir", str(out)], stdout=fh, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL,
                                env={**os.environ, LOST_AFTER_ENV: LOST_AFTER_S})


def _wait_for_chunks(run: subprocess.Popen, partial: Path, log: Path, cluster) -> None:
    deadline = time.monotonic() + 300
    while len(list(partial.glob("*.csv"))) < 2:
        assert run.poll() is None, "the run ended early:\n" + log.read_text(errors="replace")
        assert time.monotonic() < deadline, "no chunk arrived\n" + cluster.log_tail()
        time.sleep(0.05)


def _one_error_line(log: Path) -> str:
    """The run's failure is one line (its progress lines aside), with no traceback."""
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text
    errors = [line for line in text.splitlines() if "error" in line.lower()]
    assert len(errors) == 1, text
    return errors[0]


@pytest.mark.parametrize("victim", ["last worker", "scheduler"])
def test_a_cluster_lost_mid_run_is_one_line_and_resumes_byte_for_byte(tmp_path, loky_run, victim):
    scratch = tmp_path / "cluster"
    scratch.mkdir()
    cluster = Cluster(scratch, n_workers=1)
    out = tmp_path / "dask-data"
    log = tmp_path / "run.log"
    try:
        run = _start_run(out, cluster.address, log)
        try:
            _wait_for_chunks(run, out / "durak" / ".partial" / EXPERIMENT, log, cluster)
            target = cluster.workers[0] if victim == "last worker" else cluster.procs[0]
            os.kill(target.pid, signal.SIGKILL)
            target.wait(30)
            partial = out / "durak" / ".partial" / EXPERIMENT
            assert len(list(partial.glob("*.csv"))) < CHUNKS and run.poll() is None, \
                "the kill came after the work"
            code = run.wait(300)  # never hangs: bounded by the timeouts of the client
        finally:
            _stop(run)
    finally:
        cluster.stop()
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and " - ERROR - " not in text, text
    if victim == "scheduler":
        # The scheduler's loss stops the run with one line and status 1: nothing is computed on
        # this machine unasked (joblib would quietly finish the remaining chunks here).
        assert code == 1, text
    if code != 0:
        # (The worker's loss reaches the run as an error, or the killed process's orphaned worker
        # finishes the chunks it holds and the run ends normally, on the cluster.)
        assert code == 1, text
        line = _one_error_line(log)
        assert "stopped computing" in line and "run the same command again" in line
    # Resumed on this machine (a lost scheduler's address is gone): the same files as loky's.
    again = _gameai("run", "durak", *SMALL, "--n-jobs", "2", "--data-dir", str(out))
    assert again.returncode == 0, again.stdout + again.stderr
    for name in (f"{EXPERIMENT}.csv", "claims.csv"):
        assert (out / "durak" / name).read_bytes() == (loky_run / name).read_bytes()
