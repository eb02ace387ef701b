import pytest

from gameai.core.params import Param, validate

SPEC = {
    "games_per_deck": Param(100, int, "games per deck", minimum=1),
    "rate": Param(0.5, float, "a rate", minimum=0, maximum=1),
    "agent": Param("heuristic", str, "agent", choices=("heuristic", "random")),
    "full": Param(False, bool, "full scale"),
    "budget": Param(None, int, "time budget", allow_none=True, minimum=1),
    "players": Param((2, 3, 4), tuple, "player counts", item_kind=int, minimum=2, maximum=7),
}


def test_defaults():
    assert validate(SPEC, {}) == {"games_per_deck": 100, "rate": 0.5, "agent": "heuristic",
                                  "full": False, "budget": None, "players": (2, 3, 4)}


def test_cli_strings_are_coerced():
    got = validate(SPEC, {"games_per_deck": "250", "rate": "0.25", "full": "true", "budget": "none",
                          "players": "2, 5"})
    assert got["games_per_deck"] == 250 and got["rate"] == 0.25 and got["full"] is True
    assert got["budget"] is None and got["players"] == (2, 5)
    assert validate(SPEC, {"full": "False", "budget": "30", "players": [3]})["budget"] == 30


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"games_per_deck": -5}, "parameter 'games_per_deck' must be an int >= 1, got -5"),
        ({"games_per_deck": "ten"}, "parameter 'games_per_deck' must be an int >= 1, got ten"),
        ({"games_per_deck": 2.5}, "parameter 'games_per_deck' must be an int >= 1, got 2.5"),
        ({"rate": 2}, "parameter 'rate' must be a float between 0 and 1, got 2"),
        ({"agent": "mcts"}, "parameter 'agent' must be one of: heuristic, random, got mcts"),
        ({"full": "maybe"}, "parameter 'full' must be a bool (true/false), got maybe"),
        ({"budget": 0}, "parameter 'budget' must be an int >= 1, or none, got 0"),
        ({"players": "2,8"}, "parameter 'players' must be a comma-separated list of ints between 2 and 7"),
        ({"games_per_deck": None}, "parameter 'games_per_deck' must be an int >= 1, got None"),
    ],
)
def test_bad_values_name_the_parameter(overrides, message):
    with pytest.raises(ValueError) as err:
        validate(SPEC, overrides)
    assert str(err.value).startswith(message)


def test_unknown_parameter_lists_allowed():
    with pytest.raises(ValueError) as err:
        validate(SPEC, {"nonsense": 1}, context="frankszoo")
    assert str(err.value) == (
        "unknown parameter 'nonsense' for chapter frankszoo; allowed: agent, budget, full, "
        "games_per_deck, players, rate"
    )


def test_context_in_value_errors():
    with pytest.raises(ValueError, match="parameter 'rate' for chapter frankszoo must be"):
        validate(SPEC, {"rate": "x"}, context="frankszoo")


def test_bad_spec():
    with pytest.raises(ValueError):
        Param(1, list, "lists need kind=tuple")
    with pytest.raises(ValueError):
        Param((1,), tuple, "needs item_kind")


def test_forbidden_value_inside_the_bounds_is_refused_by_name():
    spec = {"n_jobs": Param(-1, int, "workers", minimum=-1, forbid=(0,))}
    assert validate(spec, {"n_jobs": "2"})["n_jobs"] == 2
    with pytest.raises(ValueError, match=r"'n_jobs' must be an int >= -1, except 0, got 0"):
        validate(spec, {"n_jobs": "0"})


def test_tuple_length_is_enforced_and_named():
    spec = {"depths": Param((9, 12, 15), tuple, "three depths", item_kind=int, minimum=1, length=3)}
    assert validate(spec, {"depths": "3,4,5"})["depths"] == (3, 4, 5)
    with pytest.raises(ValueError, match=r"'depths'.*list of 3 ints >= 1, got 3,4"):
        validate(spec, {"depths": "3,4"})
    with pytest.raises(ValueError, match="kind=tuple only"):
        Param(1, int, "a scalar has no length", length=3)
