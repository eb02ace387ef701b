"""Test-wide settings: figures and tables a test shows are saved in a temporary folder, never
beside the repository's notebooks (``gameai.book.plots.figure_dir`` follows this variable)."""

import pytest


@pytest.fixture(autouse=True)
def _figures_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GAMEAI_FIGURES_DIR", str(tmp_path_factory.mktemp("figures")))
