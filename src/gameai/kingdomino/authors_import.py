"""Copy the authors' own games behind every Table III cell into ``data/kingdomino/authors_games.csv``.

Gedda, Lagerkvist & Butler published the raw result file of every experiment with their code
(kdom-ai, github.com/mgedda/kdom-ai, ``experiments/runs/<run>/<file>.dat``: 19 header lines,
then one line of 72 numbers per game). Their Table III comes from the table script
``experiments/process_experiment_8.m`` (the 16 searching strategies x 10 budgets, read with
``dlmread(file, ' ', 19, 0)``, the mean of column 69 per file) and its FG row from
``experiments/process_experiment_4.m`` (one file of FG against three FG, loaded for all ten
budgets: FG ignores the budget). This module follows those two scripts: it reads which file
each cell loads from the scripts themselves, then copies from each file, per game, the columns
the scripts' helpers name (``m_files/result_matrix_functions.m``): 1 win (1/0/-1), 2 the
player's final score, 69 its margin over the best opponent, 70-72 the three opponents' scores.

One exception, on purpose: for UCT_B at 10 s the table script loads the *UCT_W* 10 s files
(a copy-paste slip, so the paper's UCT_B 10 s column repeats UCT_W's); the authors' own UCT_B
10 s files lie in the same run folder (``kdom_exp_UCTB_<policy>_..._G200_T10_P0.dat``), and
those are the games copied for that cell (the header says so cell by cell).

The CSV's header lists every cell's file with the commit that last changed it, so that each
game can be traced to its source. Run it once on a local copy of the authors' repository (a
bare git mirror is enough); the book and the tests read only the committed CSV::

    python -m gameai.kingdomino.authors_import --git-dir /path/to/kdom-ai.git
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd

from . import paper

REPOSITORY = "github.com/mgedda/kdom-ai"
TABLE_SCRIPT = "experiments/process_experiment_8.m"
FG_SCRIPT = "experiments/process_experiment_4.m"
#: ``dlmread(file, ' ', 19, 0)``: the scripts skip 19 header lines.
HEADER_LINES = 19
#: Columns (1-based, as the scripts' helpers number them) copied per game.
COLUMNS = {"win": 1, "score": 2, "score_diff": 69, "opp1": 70, "opp2": 71, "opp3": 72}
OUT_COLUMNS = ["strategy", "T", "game", *COLUMNS]

_LOAD = re.compile(r"^\s*strat(\d+)_t(\w+?)\s*=\s*dlmread\('runs/([^']+)'", re.M)
_NAME = re.compile(r'getScoreDiffsCellArray\(strats_(\d+),\s*"([^"]+)"\)')


def paper_name(script_name: str) -> str:
    """The paper's name of a strategy the scripts call ``"MCE-EG/R"``, ``"UCTW-TR"``, ...:
    ``"MCE-εG/R"``, ``"UCT_W-TR"``."""
    name = script_name.replace("EG", "εG")
    return re.sub(r"^UCT([WB])-", r"UCT_\1-", name)


def _budget(tag: str) -> float:
    """``0_5`` -> 0.5, ``10`` -> 10.0 (the scripts' variable suffixes)."""
    return float(tag.replace("_", "."))


def script_cells(script: str, names: dict[int, str] | None = None) -> list[tuple[str, float, str]]:
    """``(strategy, T, path under experiments/runs/)`` of every file a table script loads, in
    its order; ``names`` maps the script's strategy index to the paper's name (default: the
    script's own ``getScoreDiffsCellArray`` names)."""
    if names is None:
        names = {int(i): paper_name(s) for i, s in _NAME.findall(script)}
    return [(names[int(i)], _budget(t), path) for i, t, path in _LOAD.findall(script)
            if int(i) in names]


def uct_b_10s_file(path: str) -> str:
    """The authors' own UCT_B 10 s file in the folder of the UCT_W file their script loads."""
    folder, name = path.rsplit("/", 1)
    return f"{folder}/{name.replace('kdom_exp_UCTW_', 'kdom_exp_UCTB_', 1)}"


def read_games(text: str) -> pd.DataFrame:
    """One result file's games (the columns of :data:`COLUMNS`), as ``dlmread`` reads them."""
    body = "\n".join(text.splitlines()[HEADER_LINES:])
    rows = [line.split() for line in body.splitlines() if line.strip()]
    a = np.array([[float(v) for v in r[:72]] for r in rows])
    if a.ndim != 2 or a.shape[1] != 72:
        raise ValueError(f"expected 72 numbers per game, got shape {a.shape}")
    out = pd.DataFrame({k: a[:, c - 1] for k, c in COLUMNS.items()}).astype(int)
    out.insert(0, "game", range(len(out)))
    return out


class Mirror:
    """Read-only access to a git copy of the authors' repository at one commit."""

    def __init__(self, git_dir: str | Path, rev: str = "HEAD"):
        self.git = ["git", f"--git-dir={git_dir}"]
        self.rev = self._run("rev-parse", rev).strip()

    def _run(self, *args: str) -> str:
        return subprocess.run([*self.git, *args], check=True, capture_output=True,
                              text=True).stdout

    def show(self, path: str) -> str:
        return self._run("show", f"{self.rev}:{path}")

    def last_commit(self, path: str) -> str:
        """The commit that last changed ``path`` (as of :attr:`rev`)."""
        return self._run("log", "-1", "--format=%H", self.rev, "--", path).strip()


def table3_sources(mirror: Mirror) -> list[dict]:
    """Every Table III cell's source file, as the two table scripts load them (FG from
    :data:`FG_SCRIPT`, whose fifth strategy is FG against three FG), with the UCT_B 10 s
    cells moved to the authors' own UCT_B files (module docstring)."""
    cells = []
    for strategy, T, path in script_cells(mirror.show(TABLE_SCRIPT)):
        note = ""
        if strategy.startswith("UCT_B-") and T == 10 and "_UCTW_" in path:
            note = (f"the table script loads {path} (UCT_W's file) here; copied: UCT_B's own "
                    "file of the same run")
            path = uct_b_10s_file(path)
        cells.append({"strategy": strategy, "T": T, "path": f"experiments/runs/{path}",
                      "note": note})
    for strategy, T, path in script_cells(mirror.show(FG_SCRIPT), names={5: "FG"}):
        cells.append({"strategy": strategy, "T": T, "path": f"experiments/runs/{path}",
                      "note": "one file of FG against three FG, loaded for every budget "
                              f"({FG_SCRIPT})"})
    return cells


def import_games(mirror: Mirror) -> tuple[pd.DataFrame, list[dict]]:
    """The games of every Table III cell (:data:`OUT_COLUMNS`) and their sources (with each
    file's last commit)."""
    sources, frames = table3_sources(mirror), []
    for src in sources:
        games = read_games(mirror.show(src["path"]))
        src["commit"] = mirror.last_commit(src["path"])
        src["games"] = len(games)
        frames.append(games.assign(strategy=src["strategy"], T=src["T"]))
    out = pd.concat(frames, ignore_index=True)[OUT_COLUMNS]
    order = {s: i for i, s in enumerate(paper.TABLE3)}
    out = out.sort_values(["strategy", "T", "game"], key=lambda c: c.map(order)
                          if c.name == "strategy" else c, kind="stable")
    return out.reset_index(drop=True), sources


def header(sources: list[dict], rev: str) -> str:
    """The CSV's provenance header (``#`` lines): the repository, the scripts, every file."""
    lines = [
        "The authors' own games behind every cell of their Table III (Gedda, Lagerkvist & Butler, "
        f"kdom-ai, {REPOSITORY}, read at commit {rev}), one row per game: the player's win "
        "(1/0/-1), final score, victory margin over the best opponent (score_diff) and its three "
        "opponents' final scores (columns 1, 2, 69 and 70-72 of each result file).",
        f"Copied by gameai.kingdomino.authors_import from the files that {TABLE_SCRIPT} (the "
        f"searching strategies) and {FG_SCRIPT} (FG) load; each cell's file and the commit that "
        "last changed it:",
    ]
    for s in sources:
        lines.append(f"  {s['strategy']} T={s['T']:g}: {s['path']} (commit {s['commit']}, "
                     f"{s['games']} games)" + (f" - {s['note']}" if s["note"] else ""))
    return "".join(f"# {line}\n" for line in lines)


def write(games: pd.DataFrame, sources: list[dict], rev: str, path: Path) -> Path:
    """Write the CSV with its header (``#`` lines, which ``paper.authors_games`` skips)."""
    buf = io.StringIO()
    games.to_csv(buf, index=False, float_format="%g")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header(sources, rev) + buf.getvalue(), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", required=True, help="a git copy of the authors' repository")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--out", type=Path, default=None, help="default: data/kingdomino/"
                    + paper.AUTHORS_GAMES_FILE)
    args = ap.parse_args(argv)
    mirror = Mirror(args.git_dir, args.rev)
    games, sources = import_games(mirror)
    out = write(games, sources, mirror.rev, args.out or paper.authors_games_path())
    print(f"{out}: {games.groupby(['strategy', 'T']).ngroups} cells, {len(games):,} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
