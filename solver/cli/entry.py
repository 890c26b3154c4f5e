"""The ``ronda-solve`` console script: signals are taken in hand before
anything else is loaded, so that Ctrl-C, SIGTERM or SIGHUP in the first
moments of any command exits with 128 plus the signal and one line on
stderr (``interrupted (SIGINT)``), never a traceback
(:mod:`solver.runtime.interrupt`); then the command line runs
(:mod:`solver.cli.main`)."""

from __future__ import annotations


def run() -> None:
    """Install the early signal handlers, load the command line, run it."""
    from ..runtime.interrupt import (Interrupted, early_signals, exit_if_interrupted,
                                     exit_interrupted)
    early_signals()
    try:
        from .main import main
    except Interrupted as e:
        exit_interrupted(e)
    except KeyboardInterrupt as e:      # pragma: no cover - before the handlers
        exit_interrupted(e)
    except (ImportError, RuntimeError) as e:    # an import the signal landed in
        exit_if_interrupted(e)
        raise
    main()
