"""Checking an experiment's config dict before any game is played.

Every chapter's task functions take plain JSON-able config dicts; a typo in a key or a missing
required item must fail at once, naming the key and what is allowed.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["check_keys"]


def check_keys(config: Mapping[str, Any], allowed: Mapping[str, Any], what: str) -> dict:
    """``config`` filled with the defaults of ``allowed`` (key -> default; ``None`` = required).

    Raises ``ValueError`` for a config that is not a dict, an unknown key (listing the allowed
    ones) or a missing required key.
    """
    if not isinstance(config, Mapping):
        raise ValueError(f"a {what} config must be a dict, got {type(config).__name__}")
    unknown = sorted(set(config) - set(allowed))
    if unknown:
        raise ValueError(f"unknown {what} config key(s) {unknown}; allowed: {sorted(allowed)}")
    out = dict(allowed)
    out.update(config)
    missing = [k for k, v in out.items() if v is None]
    if missing:
        raise ValueError(f"a {what} config needs {missing}")
    return out
