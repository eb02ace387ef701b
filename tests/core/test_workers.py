"""Issue 29: loky workers leave SIGINT to their parent and die with it (kill -9 included)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux only")


@linux
def test_worker_init_ignores_sigint_and_asks_for_a_parent_death_signal():
    code = textwrap.dedent("""
        import ctypes, os, signal
        from gameai.core.runner import _worker_init
        _worker_init(os.getppid())
        os.kill(os.getpid(), signal.SIGINT)  # ignored: the process goes on
        sig = ctypes.c_int()
        ctypes.CDLL(None).prctl(2, ctypes.byref(sig), 0, 0, 0)  # PR_GET_PDEATHSIG
        print(sig.value)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(int(signal.SIGKILL))


def test_worker_init_exits_when_its_parent_is_already_gone():
    code = "from gameai.core.runner import _worker_init; _worker_init(1); print('alive')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "Error" not in out.stderr, out.stderr
    if sys.platform.startswith("linux"):
        assert out.returncode == 1 and "alive" not in out.stdout


PARENT = textwrap.dedent("""
    import sys, time
    from gameai.core.runner import run_tasks

    def slow(config, index, rng):
        import os
        with open(sys.argv[1] + f"/{os.getpid()}", "w"):
            pass
        time.sleep(120)
        return {"x": 1}

    run_tasks(slow, [({"a": 1}, i) for i in range(2)], root_seed=1, n_jobs=2, chunk_size=1,
              progress=False)
""")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@linux
def test_loky_workers_exit_when_the_run_is_killed(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    (tmp_path / "pids").mkdir()
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path / "pids")],
                              cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while len(list((tmp_path / "pids").iterdir())) < 2:
            assert time.monotonic() < deadline, "the workers never started"
            assert parent.poll() is None
            time.sleep(0.2)
        workers = [int(p.name) for p in (tmp_path / "pids").iterdir()]
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(30)
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in workers)
    finally:
        if parent.poll() is None:
            parent.kill()
        for p in (tmp_path / "pids").iterdir():
            try:
                os.kill(int(p.name), signal.SIGKILL)  # only the workers this test started
            except ProcessLookupError:
                pass
