"""The numba cache is keyed by the package's engine source, so a change to anything compiled code
can depend on recompiles everything, and an edit to the book's presentation code does not."""

import ast
from pathlib import Path

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


def test_engine_hash_ignores_presentation_files_only(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "agents.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "report.py").write_text("Y = 2\n")
    engine, whole = jit.engine_hash(tmp_path), jit.source_hash(tmp_path)
    (tmp_path / "pkg" / "report.py").write_text("Y = 3\n")
    assert jit.engine_hash(tmp_path) == engine
    assert jit.source_hash(tmp_path) != whole  # manifests still see the edit
    (tmp_path / "pkg" / "agents.py").write_text("X = 3\n")
    assert jit.engine_hash(tmp_path) != engine


def test_cache_dir_honours_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEAI_NUMBA_CACHE", str(tmp_path))
    assert jit.cache_dir().parent == tmp_path
    assert jit.cache_dir().name == jit.engine_hash()


def test_importing_gameai_points_numba_at_the_engine_keyed_cache():
    assert numba.config.CACHE_DIR == str(gameai.NUMBA_CACHE_DIR)
    assert gameai.NUMBA_CACHE_DIR.name == jit.engine_hash()


def _imports(path: Path, root: Path) -> set[str]:
    """The package files (relative paths) that module ``path`` imports, at any depth of code."""
    package = path.relative_to(root).parent.parts
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[:len(package) - node.level + 1])
            elif (node.module or "").startswith("gameai"):
                base, node_module = [], node.module.split(".", 1)[1] if "." in node.module else ""
                node = ast.ImportFrom(module=node_module, names=node.names, level=0)
            else:
                continue
            parts = base + (node.module.split(".") if node.module else [])
            names = [parts + [a.name] for a in node.names] + [parts]
        elif isinstance(node, ast.Import):
            names = [n.name.split(".")[1:] for n in node.names if n.name.startswith("gameai.")]
        else:
            continue
        for name in names:
            for candidate in (root.joinpath(*name).with_suffix(".py"), root.joinpath(*name, "__init__.py")):
                if name and candidate.is_file():
                    out.add(candidate.relative_to(root).as_posix())
    return out


def test_no_module_that_compiled_code_can_reach_is_left_out_of_the_cache_key():
    root = jit.PACKAGE_ROOT
    numba_users = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
                   if "numba" in p.read_text() and not jit.is_presentation(p.relative_to(root).as_posix())]
    assert "kingdomino/rules.py" in numba_users and "book/plots.py" not in numba_users
    reach, todo = set(), list(numba_users)
    while todo:
        module = todo.pop()
        if module in reach:
            continue
        reach.add(module)
        todo.extend(_imports(root / module, root))
    assert "core/runner.py" in reach  # the walk follows imports
    assert not [m for m in reach if jit.is_presentation(m)]
