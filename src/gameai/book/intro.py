"""The introduction's summaries over all chapters: each paper's verdict in one line."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pandas as pd

from ..core.claims import FILENAME, read_claims

#: The chapters in book order: (package and results folder, title, page).
CHAPTERS = (("frankszoo", "Frank's Zoo", "frankszoo.html"),
            ("kingdomino", "Kingdomino", "kingdomino.html"),
            ("tarok", "Three-player tarok", "tarok.html"),
            ("durak", "Durak", "durak.html"),
            ("crossgame", "One search, four games", "crossgame.html"))


def one_line_table(data_dir: str | os.PathLike) -> pd.DataFrame:
    """One row per chapter: its title, its page and its verdict in one sentence (the chapter's
    ``report.one_line`` over its ``claims.csv``), or a note where this build has no claims of it
    (a rerun of another chapter)."""
    rows = []
    for key, title, page in CHAPTERS:
        path = Path(data_dir) / key / FILENAME
        if path.is_file():
            report = importlib.import_module(f"gameai.{key}.report")
            line = report.one_line(read_claims(key, data_dir))
        else:
            line = "Not in this build (its results were not computed here)."
        rows.append({"chapter": title, "page": page, "verdict": line})
    return pd.DataFrame(rows)


def one_lines(data_dir: str | os.PathLike):
    """The introduction's list of one-line verdicts, as Markdown for the page."""
    from IPython.display import Markdown

    table = one_line_table(data_dir)
    return Markdown("\n".join(f"- **[{r.chapter}]({r.page})**: {r.verdict}" for r in table.itertuples()))
