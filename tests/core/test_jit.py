"""The numba cache is keyed by the package's source, so a change anywhere recompiles everything."""

import numba

import gameai
from gameai.core import jit


def test_source_hash_changes_with_any_file_and_only_then(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "agents.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "play.py").write_text("Y = 2\n")
    before = jit.source_hash(tmp_path)
    assert jit.source_hash(tmp_path) == before
    (tmp_path / "pkg" / "agents.py").write_text("X = 3\n")  # a callee's file, not the caller's
    assert jit.source_hash(tmp_path) != before
    (tmp_path / "pkg" / "agents.py").write_text("X = 1\n")
    assert jit.source_hash(tmp_path) == before
    (tmp_path / "pkg" / "notes.txt").write_text("not code")
    assert jit.source_hash(tmp_path) == before


def test_cache_dir_honours_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEAI_NUMBA_CACHE", str(tmp_path))
    assert jit.cache_dir().parent == tmp_path
    assert jit.cache_dir().name == jit.source_hash()


def test_importing_gameai_points_numba_at_the_source_keyed_cache():
    assert numba.config.CACHE_DIR == str(gameai.NUMBA_CACHE_DIR)
    assert gameai.NUMBA_CACHE_DIR.name == jit.source_hash()
