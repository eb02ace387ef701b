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
        ({"players": "2,8"}, "parameter 'players' must be a comma-separated list of one or more distinct ints "
                                  "between 2 and 7"),
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
    with pytest.raises(ValueError, match=r"'depths'.*list of 3 distinct ints >= 1, got 3,4"):
        validate(spec, {"depths": "3,4"})
    with pytest.raises(ValueError, match="kind=tuple only"):
        Param(1, int, "a scalar has no length", length=3)


# --------------------------------------------------------------------------- issue 29: bad input


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", float("inf"), float("nan")])
def test_non_finite_floats_are_refused(value):
    spec = {"T": Param(1.0, float, "seconds per ply", minimum=0)}
    with pytest.raises(ValueError, match=r"'T' must be a finite float >= 0, got"):
        validate(spec, {"T": value})


def test_non_finite_list_items_are_refused():
    spec = {"Ts": Param((0.1, 1.0), tuple, "budgets", item_kind=float, minimum=0)}
    assert validate(spec, {"Ts": "0.5,2"})["Ts"] == (0.5, 2.0)
    for value in ("0.5,inf", "nan", [1.0, float("inf")]):
        with pytest.raises(ValueError, match=r"'Ts' must be a comma-separated list of one or "
                                             r"more distinct finite floats >= 0"):
            validate(spec, {"Ts": value})


@pytest.mark.parametrize("value", ["2,2", "2, 3, 2", [3, 3]])
def test_duplicate_list_items_are_refused(value):
    with pytest.raises(ValueError, match=r"'players' must be a comma-separated list of one or "
                                         r"more distinct ints between 2 and 7"):
        validate(SPEC, {"players": value})


def test_a_list_may_repeat_items_when_its_param_says_so():
    spec = {"depths": Param((9, 12, 15), tuple, "schedule", item_kind=int, minimum=1, length=3,
                            unique=False)}
    assert validate(spec, {"depths": "3,3,3"})["depths"] == (3, 3, 3)
    with pytest.raises(ValueError, match=r"list of 3 ints >= 1, got 3,3"):
        validate(spec, {"depths": "3,3"})


@pytest.mark.parametrize("value", ["", " , ", [], ()])
def test_empty_lists_are_refused(value):
    with pytest.raises(ValueError, match=r"'players' must be a comma-separated list of one or "
                                         r"more"):
        validate(SPEC, {"players": value})


def test_ints_without_a_maximum_stay_within_int64():
    from gameai.core.params import MAX_INT

    spec = {"seed": Param(1, int, "seed", minimum=0)}
    assert validate(spec, {"seed": str(MAX_INT)})["seed"] == MAX_INT
    with pytest.raises(ValueError, match=r"'seed' must be an int >= 0 \(at most "
                                         r"9,223,372,036,854,775,807\), got 99999999999999999999999"):
        validate(spec, {"seed": "99999999999999999999999"})


CHAPTER_MODULES = ["durak", "frankszoo", "kingdomino", "tarok"]


@pytest.mark.parametrize("chapter", CHAPTER_MODULES)
def test_every_count_of_every_chapter_has_a_maximum(chapter):
    """A count of games (deals, positions, samples...) beyond MAX_COUNT is refused at once: 10^23
    games would build a task list that fills the memory before the first game."""
    import importlib

    from gameai.core.chapter import max_n_jobs
    from gameai.core.params import MAX_COUNT

    spec = importlib.import_module(f"gameai.{chapter}.chapter").PARAMETERS
    counts = [name for name, p in spec.items() if p.kind is int and name not in
              ("n_jobs", "seed", "table1_depth", "fig7_max_types")]
    assert counts
    for name in counts:
        assert spec[name].maximum == MAX_COUNT, name
        with pytest.raises(ValueError, match=rf"'{name}' for chapter {chapter} must be an int "
                                             rf"between \d and 10000000, got 99999999999999999999999"):
            validate(spec, {name: "99999999999999999999999"}, context=chapter)
    assert spec["n_jobs"].maximum == max_n_jobs()
    with pytest.raises(ValueError, match="'n_jobs'"):
        validate(spec, {"n_jobs": str(max_n_jobs() + 1)})
    validate(spec, {})  # the defaults pass the new checks
