"""One adapter per game: the engine's state packed into one flat array and the functions of
:mod:`gameai.crossgame.games` implemented on it (see that module for the contract)."""
