"""Three-player tarok (Luštrek & Gams, CIT 2003; Luštrek's 2002 thesis): engine, search, players.

Layers: ``rules`` (numba engine: deal, bidding, talon, tricks, counting, scoring) -> ``search``
(three-player alpha-beta with the four switchable enhancements) -> ``sampling`` (Monte Carlo
deals consistent with what a player knows, the program's card choice) -> ``agents`` (card
players by name, Silicon Tarokist's bidding, talon and announcements) -> ``experiments`` (pure
task functions); ``paper`` holds the paper's numbers for comparison; ``bench`` measures speed.
"""
