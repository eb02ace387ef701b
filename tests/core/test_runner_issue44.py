"""Issue 44: a Ctrl-C while loky starts its workers prints no worker tracebacks.

A worker ignores SIGINT once its initializer has run; before that (about 0.2 s of imports) a
Ctrl-C at the terminal, which reaches the whole process group, raised KeyboardInterrupt in it.
The workers are now started with SIGINT blocked, which they inherit across fork and exec: the
blocked signal shows in each worker's ``SigBlk`` mask, as it could not without the fix.
"""

from __future__ import annotations

import signal
import sys

import pytest

from gameai.core.runner import _sigint_blocked, run_tasks

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def sigint_blocked_here(config, index, rng):
    with open("/proc/self/status") as fh:
        fields = dict(line.split(":", 1) for line in fh)
    return {"blocked": bool(int(fields["SigBlk"].strip(), 16) >> (signal.SIGINT - 1) & 1)}


def test_loky_workers_start_with_sigint_blocked():
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)  # fresh workers, started by this run
    df = run_tasks(sigint_blocked_here, [({"a": 1}, i) for i in range(4)], root_seed=1,
                   n_jobs=2, chunk_size=1, progress=False)
    assert df["blocked"].all()
    # ... and the parent takes Ctrl-C as before once they are started
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_the_block_is_lifted_after_the_workers_start():
    with _sigint_blocked():
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
