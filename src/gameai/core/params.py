"""Parameter specifications and validation for chapters and the CLI.

Chapters take their sizes, budgets and rule switches as parameters (from a notebook's
``parameters`` cell or from ``gameai run chapter key=value``). A typo or an out-of-range value must
fail at once, with a message naming the parameter and what is allowed, rather than after an hour of
simulation. Values coming from the command line are strings, so :func:`validate` also coerces
``"100"`` to ``100``, ``"true"`` to ``True``, ``"none"`` to ``None`` and ``"2,3,4"`` to ``(2, 3, 4)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

__all__ = ["Param", "validate", "MAX_COUNT", "MAX_INT"]

#: Largest number of games (deals, positions, episodes, samples) a count parameter accepts: ten
#: times the largest the paper runs use (frankszoo's ``sequence_games``, 1,000,000). A count
#: beyond it is a typo, not a plan - 10^23 games would build a task list that fills the memory
#: before the first game (issue 29).
MAX_COUNT = 10_000_000
#: Bound of every int parameter that declares no maximum (the largest int64): values travel
#: through numpy and the CSV files, where a bigger one would overflow.
MAX_INT = 2**63 - 1

_KINDS = (int, float, str, bool, tuple)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_KIND_NAMES = {int: "an int", float: "a float", str: "a string", bool: "a bool (true/false)"}
_PLURAL = {int: "ints", float: "floats", str: "strings", bool: "bools (true/false)"}


@dataclass(frozen=True)
class Param:
    """One parameter: its default, type and allowed values.

    ``kind`` is one of ``int``, ``float``, ``str``, ``bool`` or ``tuple``. For ``kind=tuple`` the
    value is a sequence of ``item_kind`` items (given on the CLI as ``"2,3,4"``); ``choices``,
    ``minimum``, ``maximum`` and ``forbid`` (values inside the bounds that are not allowed, such
    as ``n_jobs = 0``) then apply to each item, and ``length``, if given, is the number of
    items required. A list must not be empty, and its items must be distinct unless
    ``unique=False`` (each item is usually one configuration; twice the same one is a typo that
    would otherwise fail only when the experiment is built).

    Floats must be finite: ``inf`` or ``nan`` as a time budget or a scale is never meant, and
    would fail deep inside a worker. Ints without a ``maximum`` are bounded by :data:`MAX_INT`.
    """

    default: Any
    kind: type
    help: str = ""
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None
    allow_none: bool = False
    item_kind: type | None = None
    forbid: tuple = ()
    length: int | None = None
    unique: bool = True

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"Param.kind must be one of int, float, str, bool, tuple; got {self.kind!r}")
        if self.kind is tuple and self.item_kind not in (int, float, str, bool):
            raise ValueError("Param(kind=tuple) needs item_kind in int, float, str, bool")
        if self.length is not None and self.kind is not tuple:
            raise ValueError("Param(length=...) applies to kind=tuple only")
        if self.choices is not None:
            object.__setattr__(self, "choices", tuple(self.choices))

    def describe(self) -> str:
        """What is allowed, in words: ``an int >= 1``, ``one of: a, b``, ``a list of ints >= 2``."""
        if self.kind is tuple:
            if self.choices is not None:
                text = ("a comma-separated list of one or more " +
                        ("distinct " if self.unique else "") + "items from: " +
                        ", ".join(map(str, self.choices)))
            else:
                count = "one or more " if self.length is None else f"{self.length} "
                distinct = "distinct " if self.unique else ""
                text = ("a comma-separated list of " + count + distinct +
                        _PLURAL[self.item_kind] + self._bounds())
        elif self.choices is not None:
            text = "one of: " + ", ".join(str(c) for c in self.choices)
        else:
            text = _KIND_NAMES[self.kind] + self._bounds()
        if float in (self.kind, self.item_kind) and self.choices is None and self.maximum is None:
            text = text.replace("float", "finite float", 1)  # "between a and b" says it already
        if self.forbid:
            text += ", except " + ", ".join(_fmt(v) for v in self.forbid)
        if self.allow_none:
            text += ", or none"
        return text

    def _bounds(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f" between {_fmt(self.minimum)} and {_fmt(self.maximum)}"
        if self.minimum is not None:
            return f" >= {_fmt(self.minimum)}"
        if self.maximum is not None:
            return f" <= {_fmt(self.maximum)}"
        return ""


def _fmt(x: Any) -> str:
    """Format a bound or a bad value for a message: ``1.0`` as ``1``, CLI strings unquoted."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, str) and x.strip() == x and x:
        return x
    return repr(x)


def _coerce_scalar(value: Any, kind: type) -> Any:
    """Coerce one value to ``kind``; raise ``ValueError``/``TypeError`` when it does not fit."""
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise ValueError
    if kind is int:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            return int(value.strip().replace("_", ""))
        if hasattr(value, "__index__"):  # numpy integers
            return int(value)
        raise TypeError
    if kind is float:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, (int, float, str)) or hasattr(value, "__float__"):
            out = float(value.strip() if isinstance(value, str) else value)
            if not math.isfinite(out):  # inf and nan: never a budget or a scale
                raise ValueError
            return out
        raise TypeError
    if kind is str:
        if isinstance(value, str):
            return value
        raise TypeError
    raise TypeError


def _is_none(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in {"none", "null"})


def _check_item(param: Param, value: Any, kind: type) -> Any:
    """Coerce one scalar and check it against choices and bounds; ``ValueError`` if it fails."""
    try:
        out = _coerce_scalar(value, kind)
    except (TypeError, ValueError, OverflowError):
        raise ValueError from None
    if param.choices is not None and out not in param.choices:
        raise ValueError
    if param.minimum is not None and out < param.minimum:
        raise ValueError
    if param.maximum is not None and out > param.maximum:
        raise ValueError
    if kind is int and param.maximum is None and abs(out) > MAX_INT:
        raise ValueError(f" (at most {MAX_INT:,})")
    if out in param.forbid:
        raise ValueError
    return out


def _coerce(name: str, param: Param, value: Any, where: str) -> Any:
    if param.allow_none and _is_none(value):
        return None
    try:
        if param.kind is tuple:
            if isinstance(value, str):
                items = [v for v in (s.strip() for s in value.split(",")) if v != ""]
            elif isinstance(value, (list, tuple)):
                items = list(value)
            else:
                raise ValueError
            if not items or (param.length is not None and len(items) != param.length):
                raise ValueError
            out = tuple(_check_item(param, v, param.item_kind) for v in items)
            if param.unique and len(set(out)) != len(out):
                raise ValueError
            return out
        return _check_item(param, value, param.kind)
    except ValueError as exc:
        extra = exc.args[0] if exc.args and isinstance(exc.args[0], str) else ""
        raise ValueError(
            f"parameter {name!r}{where} must be {param.describe()}{extra}, got {_fmt(value)}"
        ) from None


def validate(
    spec: Mapping[str, Param], overrides: Mapping[str, Any] | None = None, context: str | None = None
) -> dict[str, Any]:
    """Return the defaults of ``spec`` updated by ``overrides``, coerced and checked.

    ``context`` names the chapter in error messages. Raises ``ValueError`` for unknown names and for
    values of the wrong type or out of range; defaults are checked too, so a bad spec fails early.
    """
    overrides = dict(overrides or {})
    where = f" for chapter {context}" if context else ""
    unknown = [k for k in overrides if k not in spec]
    if unknown:
        allowed = ", ".join(sorted(spec)) or "(none)"
        raise ValueError(f"unknown parameter {unknown[0]!r}{where}; allowed: {allowed}")
    out: dict[str, Any] = {}
    for name, param in spec.items():
        value = overrides.get(name, param.default)
        out[name] = _coerce(name, param, value, where)
    return out
