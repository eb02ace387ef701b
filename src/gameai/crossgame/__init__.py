"""Beyond the four papers: flat Monte Carlo, determinized UCT and SO-ISMCTS on every engine."""
