"""Set-up shared by every test file."""

from __future__ import annotations

import signal


def pytest_configure(config) -> None:
    """A suite started in the background of a non-interactive shell
    (``pytest ... &``) inherits SIGINT ignored, and so would every command
    it starts; the commands keep an ignored SIGINT ignored (``nohup``,
    solver.runtime.interrupt.early_signals), so the Ctrl-C tests would
    test nohup instead. They test a terminal's Ctrl-C: SIGINT is given
    back its default (each xdist worker loads this file too)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
