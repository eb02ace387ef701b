"""The book's presentation: tables, figures, the claims tables, the Sphinx extension and the checks
of the built HTML. The run machinery (parameters, runner, store, statistics, claims) is
:mod:`gameai.core`, which never imports this package."""
