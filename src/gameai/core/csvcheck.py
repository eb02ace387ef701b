"""Reading the store's CSV files without trusting them.

Every file the store writes is written atomically and ends with a newline, holds one header line
naming ``key`` and ``index`` and rows with exactly as many fields. A file that breaks any of this
was damaged after the fact (a copy cut short, a disk error, a hand edit), and a damaged row must
never be taken as a finished game: pandas would read a truncated last row as empty cells, the store
would count the game as done, and the book would show NaN scores. So :func:`read_checked` keeps only
*intact tasks* and says what it dropped; the store recomputes the dropped tasks (or reports them as
missing when it may not compute).

A task (one game) may span several rows, so whenever one of its rows is damaged, or the file may
have lost rows at its end, the whole task is dropped, never part of it.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

__all__ = ["Checked", "read_checked", "bad_value_tasks", "CHUNK_NAME"]

_KEY = r"[0-9a-f]{16}"
#: Name of a chunk file under ``.partial/<experiment>/``: ``<task key>-<start>-<stop>.csv``.
CHUNK_NAME = re.compile(rf"^(?P<key>{_KEY})-(?P<start>\d+)-(?P<stop>\d+)\.csv$")


@dataclass
class Checked:
    """The intact rows of one file (cells as text, ``index`` as int64) and what was wrong."""

    rows: pd.DataFrame
    problems: list[str] = field(default_factory=list)
    unreadable: bool = False
    #: Rows beyond the count its manifest records that could not be traced to a task: the file
    #: holds rows of unknown origin (a run refuses to adopt it, see the store).
    unlocated_extra: int = 0


def _empty(usecols: Sequence[str] | None = None) -> pd.DataFrame:
    cols = ["key", "index"] if usecols is None else list(usecols)
    df = pd.DataFrame({c: pd.Series(dtype=str) for c in cols})
    df["index"] = df["index"].astype("int64")
    return df


def _field_counts(lines: list[str]) -> list[int]:
    """Fields per line; a plain comma count unless some field is quoted."""
    if not any('"' in line for line in lines):
        return [line.count(",") + 1 for line in lines]
    return [len(row) for row in csv.reader(lines)]


def read_checked(path: Path, usecols: Sequence[str] | None = None, *,
                 expected_rows: int | None = None) -> Checked:
    """Read a store CSV keeping every intact task's rows as text.

    ``expected_rows``: the row count its manifest records (``None``: unknown). A file with fewer
    rows lost its end, so its last task is dropped too. A chunk file (named as
    :data:`CHUNK_NAME`) must hold exactly the indices its name says, or it is dropped whole.
    """
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return Checked(_empty(usecols), ["is not UTF-8 text"], unreadable=True)
    lines = text.split("\n")
    problems: list[str] = []
    truncated = not text.endswith("\n")
    lines.pop()  # "" after the final newline, or the cut-off last line
    if truncated and text:
        problems.append("its last line is cut off (no newline at the end)")
    if not lines:
        return Checked(_empty(usecols), ["has no header line"], unreadable=True)
    header, body = lines[0], lines[1:]
    names = next(csv.reader([header]))
    if "key" not in names or "index" not in names or len(set(names)) != len(names):
        return Checked(_empty(usecols), [f"has no store header (got {header[:60]!r})"],
                       unreadable=True)

    counts = _field_counts(body)
    good = [line for line, n in zip(body, counts) if n == len(names)]
    if len(good) < len(body):
        problems.append(f"{len(body) - len(good)} row(s) with the wrong number of fields")
    try:
        df = pd.read_csv(io.StringIO("\n".join([header, *good]) + "\n"), dtype=str,
                         keep_default_na=False)
    except (pd.errors.ParserError, ValueError) as exc:
        return Checked(_empty(usecols), [f"cannot be parsed ({exc})"], unreadable=True)

    ok = df["key"].str.fullmatch(_KEY) & df["index"].str.fullmatch(r"\d+")
    if not ok.all():
        problems.append(f"{int((~ok).sum())} row(s) with a malformed key or index")
        df = df[ok]
    df = df.copy()
    df["index"] = df["index"].astype("int64")

    drop: set[tuple[str, int]] = set()
    bad_rows = len(body) - len(good)
    if bad_rows:  # a malformed line's task is unknown: drop its neighbours' tasks
        drop |= _tasks_near_bad_lines(body, counts, len(names))
    if truncated and text:
        # The cut-off row's task is lost with it: name it among the dropped tasks, so that the
        # count said here is the count `gameai status` then finds missing.
        cut = _task_of(text.rpartition("\n")[2])
        if cut is not None:
            drop.add(cut)
        else:
            problems.append("the cut-off row's task is lost with it")
    lost_end = truncated or (expected_rows is not None and len(body) < expected_rows)
    if expected_rows is not None and len(body) != expected_rows:
        problems.append(f"holds {len(body)} rows where its manifest says {expected_rows}")
    if lost_end and len(df):
        last = df.iloc[-1]
        drop.add((last["key"], int(last["index"])))
    twice = _split_tasks(df)
    if twice:
        problems.append(f"{len(twice)} task(s) occur twice, rows apart (a copied row?)")
        drop |= twice
    unlocated = 0
    if expected_rows is not None and len(body) > expected_rows:
        extra, unlocated = _extra_rows(df, len(body) - expected_rows)
        drop |= extra
        if unlocated:
            problems.append(f"{unlocated} row(s) beyond what its manifest records cannot be "
                            "traced to a task")

    chunk = CHUNK_NAME.match(path.name)
    if chunk is not None:
        want = set(range(int(chunk["start"]), int(chunk["stop"])))
        if problems or set(df["index"]) != want or (df["key"] != chunk["key"]).any():
            if not problems:
                problems.append("does not hold the tasks its name says")
            return Checked(_empty(usecols), problems + ["(the whole chunk is dropped)"])

    if drop:
        tasks = pd.MultiIndex.from_frame(df[["key", "index"]])
        df = df[~tasks.isin(list(drop))]
        problems.append(f"{len(drop)} task(s) dropped to be recomputed")
    if usecols is not None:
        df = df[[c for c in df.columns if c in usecols]]
    return Checked(df.reset_index(drop=True), problems, unlocated_extra=unlocated)


def _split_tasks(df: pd.DataFrame) -> set[tuple[str, int]]:
    """Tasks whose rows are not one block: the store writes a task's rows together (the file
    sorted by key and index), so a task met again after another task's rows was copied or
    edited in, and neither copy can be trusted."""
    if df.empty:
        return set()
    starts = df["key"].ne(df["key"].shift()) | df["index"].ne(df["index"].shift())
    blocks = df.loc[starts, ["key", "index"]]
    again = blocks[blocks.duplicated(keep=False)]
    return set(zip(again["key"], again["index"].astype(int)))


def _extra_rows(df: pd.DataFrame, extra: int) -> tuple[set[tuple[str, int]], int]:
    """The tasks holding ``extra`` rows more than the manifest records, where they can be told:
    in a configuration whose tasks all have the same number of rows (most experiments: one row
    per game), a task with more rows than its siblings holds a copied row. Returns those tasks
    and the count of extra rows not traced to one."""
    found: set[tuple[str, int]] = set()
    traced = 0
    for key, counts in df.groupby("key")["index"].value_counts().groupby(level=0):
        usual = counts.mode().iloc[0]
        over = counts[counts > usual]
        if len(counts) - len(over) < 2 or (counts < usual).any():
            continue  # rows per task vary in this configuration: no usual count to go by
        traced += int((over - usual).sum())
        found |= {(key, int(index)) for (_, index) in over.index}
    if traced != extra:
        return set(), extra
    return found, 0


def _task_of(line: str) -> tuple[str, int] | None:
    """The task (key, index) a store row begins with; ``None`` when a cut leaves it unknown
    (only an index followed by its comma is known to be whole)."""
    parts = line.split(",", 2)
    if len(parts) == 3 and re.fullmatch(_KEY, parts[0]) and parts[1].isdigit():
        return parts[0], int(parts[1])
    return None


def _tasks_near_bad_lines(body: list[str], counts: list[int], width: int) -> set[tuple[str, int]]:
    """The tasks of the intact lines just before and after each malformed line (a damaged line
    of a multi-row task sits between rows of that task)."""
    out: set[tuple[str, int]] = set()
    for i, n in enumerate(counts):
        if n == width:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(body) and counts[j] == width:
                key, index = body[j].split(",", 2)[:2]
                if re.fullmatch(_KEY, key) and index.isdigit():
                    out.add((key, int(index)))
    return out


_PATTERNS = {
    "int64": r"-?\d+",
    "bool": r"True|False",
}


def bad_value_tasks(rows: pd.DataFrame, dtypes: Mapping[str, str]) -> set[tuple[str, int]]:
    """Tasks with a cell that does not fit its column's recorded dtype (``int64``, ``float64``,
    ``bool``, others unchecked). Empty cells are allowed in float columns (NaN is written empty)."""
    bad = pd.Series(False, index=rows.index)
    for col, dtype in dtypes.items():
        if col not in rows.columns:
            continue
        cells = rows[col].astype(str)
        if dtype in _PATTERNS:
            bad |= ~cells.str.fullmatch(_PATTERNS[dtype])
        elif dtype == "float64":
            bad |= pd.to_numeric(cells, errors="coerce").isna() & (cells != "") & \
                ~cells.str.lower().isin(["nan", "inf", "-inf"])
    return set(zip(rows.loc[bad, "key"], rows.loc[bad, "index"].astype(int)))
