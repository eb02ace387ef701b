#!/bin/bash
# Weak scaling of `gameai run`: the same work per worker on 1, N and 4 workers (loky), and on a
# Dask scheduler with N workers started beforehand. The tasks are the cross-game chapter's Durak
# 2-player games of determinized UCT at 1,000 iterations, each run into a fresh results folder.
#
#   benchmarks/scale_out.sh [N] [TASKS_PER_WORKER] [RESULTS_FOLDER]    (defaults: 16 48 /tmp/scale_out)
#
# Run from the repository root, with `gameai` importable (the venv, or PYTHONPATH=src) and, for
# the Dask row, `dask` and `distributed` installed. PY names the Python (default python3).
# The JIT cache is warmed first by a one-worker run of two games, so no run below compiles.
# For every run the summary gives the wall time of the command, the efficiency against one
# worker (the one-worker wall over this wall, the work per worker being the same), the busy
# share (the task seconds the rows record over workers x wall: what the scheduler loses) and the
# per-task slowdown on the deals every run shares (what a busier machine costs each task).
set -u
N=${1:-16}
TPW=${2:-48}
D=${3:-/tmp/scale_out}
PY=${PY:-python3}
G="$PY -m gameai"
COMMON="-p experiments strength -p games durak2 -p budgets 1000 -p searches det_uct -p confirm_games 0 -p seed 9"
rm -rf "$D" && mkdir -p "$D"
echo "machine: $(nproc) cores; $($PY -V); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

timed() {  # timed NAME COMMAND...: run, log, record the wall time in $D/NAME.wall
    local name=$1; shift
    local s e
    s=$(date +%s.%N); "$@" > "$D/$name.log" 2>&1; local rc=$?; e=$(date +%s.%N)
    $PY -c "print(round($e - $s, 2))" > "$D/$name.wall"
    echo "$name: exit $rc, $(cat "$D/$name.wall") s"
}

loky() {  # loky N: the run on N loky workers
    timed "loky$1" $G run crossgame $COMMON -p n_games $((TPW * $1)) --n-jobs "$1" --data-dir "$D/loky$1"
}
timed warm $G run crossgame $COMMON -p n_games 2 --n-jobs 1 --data-dir "$D/warm"
loky 1
loky "$N"

if $PY -c "import distributed" 2>/dev/null; then
    PORT=8797
    $PY -m distributed.cli.dask_scheduler --port $PORT --no-dashboard > "$D/scheduler.log" 2>&1 &
    SP=$!
    $PY -m distributed.cli.dask_worker tcp://127.0.0.1:$PORT --nworkers "$N" --nthreads 1 \
        --no-dashboard > "$D/workers.log" 2>&1 &
    WP=$!
    $PY - "$PORT" "$N" <<'EOF'  # wait until every worker has joined (at most 120 s)
import sys, time
from distributed import Client
c = Client(f"tcp://127.0.0.1:{sys.argv[1]}", timeout=30)
c.wait_for_workers(int(sys.argv[2]), timeout=120)
c.close()
EOF
    timed "dask$N" $G run crossgame $COMMON -p n_games $((TPW * N)) --scheduler tcp://127.0.0.1:$PORT \
        --data-dir "$D/dask$N"
    kill $WP $SP 2>/dev/null; wait 2>/dev/null
fi
[ "$N" -gt 4 ] && loky 4

$PY - "$D" "$N" <<'EOF'
import sys
from pathlib import Path
import pandas as pd
d, n_max = Path(sys.argv[1]), int(sys.argv[2])
runs = [(f"loky{n}", n) for n in sorted({1, 4, n_max})] + [(f"dask{n_max}", n_max)]
rows = {}
for name, n in runs:
    csv = d / name / "crossgame" / "durak2_b1000.csv"
    if csv.exists() and (d / f"{name}.wall").exists():
        rows[name] = (n, pd.read_csv(csv).sort_values("index"), float((d / f"{name}.wall").read_text()))
one = rows["loky1"]
shared = one[1]["index"]
print(f"{'run':>8} {'workers':>7} {'tasks':>6} {'wall s':>7} {'efficiency':>10} {'busy':>6} {'per-task slowdown':>17}")
for name, (n, df, wall) in rows.items():
    eff = one[2] / wall
    busy = df["seconds"].sum() / (n * wall)
    slow = df.set_index("index").loc[shared, "seconds"].mean() / one[1]["seconds"].mean()
    print(f"{name:>8} {n:>7} {len(df):>6} {wall:>7.1f} {eff:>10.0%} {busy:>6.0%} {slow:>17.2f}")
if f"dask{n_max}" in rows:
    a, b = rows[f"loky{n_max}"][1], rows[f"dask{n_max}"][1]
    same = a.drop(columns="seconds").reset_index(drop=True).equals(b.drop(columns="seconds").reset_index(drop=True))
    print(f"loky and Dask rows equal but for the timing column: {same}; "
          f"loky wall / Dask wall: {rows[f'loky{n_max}'][2] / rows[f'dask{n_max}'][2]:.2f}")
EOF
