"""Stopping a command cleanly on SIGINT (Ctrl-C), SIGTERM or SIGHUP.

Inside ``with Signals() as sig:`` the first of these signals raises
:class:`Interrupted` (a ``KeyboardInterrupt``, so every place that already
stops its workers on Ctrl-C does the same for SIGTERM and SIGHUP) in the
main thread, and ``sig.signum`` remembers which signal it was. The command
then stops its workers, keeps what is finished, says so on stderr and
exits with ``sig.exit_code``: 128 plus the signal's number (130 for
SIGINT, 143 for SIGTERM, 129 for SIGHUP), as a shell reports a process
ended by that signal. A second signal while the command is finishing up
ends the process at once, by that signal.

>>> Interrupted(signal.SIGTERM).exit_code
143
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading

#: the signals that stop a command
SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                if hasattr(signal, name))


#: the first signal received and not yet reported (:func:`exit_interrupted`),
#: remembered when it arrives: a library that swallows the KeyboardInterrupt
#: (a bare ``except:`` around an optional import) cannot make it forgotten
_received: int | None = None


def _note(signum: int) -> None:
    global _received
    if _received is None:
        _received = int(signum)


#: above 0 while the main thread (the only one a signal's handler runs in)
#: is in a library callback that an exception raised in it would leave
#: half done (:func:`shielded`)
_shielded = 0


def shielded(fn):
    """``fn`` (a library's callback from native code) run with the signals'
    exceptions held off: a signal that lands while it runs is delivered
    once more 50 ms later (:func:`_later`) instead of raising inside it.
    llvmlite's object cache hands numba's cached machine code to LLVM
    through such a callback: cut short (before it writes the code's
    address, or between the address and its length), it can leave LLVM
    without the code or reading a length never written. That is the
    likely cause, not reproduced, of a SIGSEGV on a SIGTERM while
    ``ronda-solve`` started (docs/performance.md)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        global _shielded
        if threading.current_thread() is not threading.main_thread():
            return fn(*args, **kwargs)      # no handler runs here
        _shielded += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _shielded -= 1
    run.shielded = True
    return run


def _later(signum: int) -> None:
    """Deliver ``signum`` to the main thread again in 50 ms (from a daemon
    thread), for a handler that could not raise where it landed: a real
    signal to that thread, which wakes it from a blocking call such as a
    sleep or a wait, as the first one did (``_thread.interrupt_main`` only
    marks the handler as due: a main thread asleep for 30 s heard it 30 s
    later)."""
    timer = threading.Timer(0.05, signal.pthread_kill,
                            args=(threading.main_thread().ident, signum))
    timer.daemon = True
    timer.start()


class Interrupted(KeyboardInterrupt):
    """A stop asked for by signal ``signum``."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = int(signum)

    @property
    def exit_code(self) -> int:
        """128 plus the signal's number."""
        return 128 + self.signum


class Signals:
    """A context manager turning SIGINT, SIGTERM and SIGHUP into
    :class:`Interrupted` in the main thread (see the module docstring).
    Outside the main thread it installs nothing (a plain Ctrl-C still
    raises KeyboardInterrupt, counted as SIGINT). The old handlers are
    restored on exit. An interruption that leaves the block (nothing
    caught it to keep what was done) says so on stderr and exits with
    :attr:`exit_code`, never with a traceback."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._old: dict[int, object] = {}
        self._old_hook = None
        self._again = False
        self._handled = False

    def __enter__(self) -> "Signals":
        if _received is not None:
            # a signal before the block that something swallowed: the
            # command has done nothing yet; it stops here
            exit_interrupted(_received)
        if threading.current_thread() is threading.main_thread():
            for s in SIGNALS:
                self._old[s] = signal.signal(s, self._handle)
            self._old_hook = sys.unraisablehook
            sys.unraisablehook = self._unraisable
        return self

    def __exit__(self, kind, exc, _tb) -> None:
        for s, old in self._old.items():
            signal.signal(s, old)  # type: ignore[arg-type]
        self._old.clear()
        if self._old_hook is not None:
            sys.unraisablehook = self._old_hook
            self._old_hook = None
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            self.caught(exc)
            self.exit()
        if kind is None and self.signum is not None and not self._handled:
            # the Interrupted was swallowed on its way (a library's bare
            # ``except:``) and the command ran on: it was still interrupted
            self.exit()

    def _handle(self, signum: int, _frame) -> None:
        _note(signum)
        if _shielded:
            _later(signum)
            return
        if self.signum is None or self._again:
            self.signum = signum
            self._again = False
            raise Interrupted(signum)
        # a second signal: stop now, as the signal would without a handler
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    def _unraisable(self, unraisable) -> None:
        """Python ignores an exception raised where it cannot propagate (a
        weakref callback, a ``__del__`` the main thread happened to be
        running when the signal came): deliver the signal once more, from
        another thread so that it lands after the callback."""
        if isinstance(unraisable.exc_value, Interrupted):
            self._again = True
            _later(unraisable.exc_value.signum)
            return
        if self.signum is not None or _received is not None:
            return      # a finaliser the signal left half built: the stop says it
        (self._old_hook or sys.__unraisablehook__)(unraisable)

    def caught(self, exc: BaseException | None = None) -> int:
        """Note a KeyboardInterrupt that reached the command (one raised
        without a handler counts as SIGINT); returns the signal's number."""
        if self.signum is None:
            self.signum = getattr(exc, "signum", signal.SIGINT)
        return self.signum

    def handled(self) -> int:
        """Note that the command caught the interruption to keep what it
        did: the block's end then leaves the exit to the command (its
        summary first, then :func:`exit_interrupted` with this signal);
        returns the signal's number."""
        self._handled = True
        return self.caught()

    @property
    def interrupted(self) -> bool:
        """Whether a signal arrived."""
        return self.signum is not None

    @property
    def exit_code(self) -> int:
        """128 plus the signal's number (130 when none was noted)."""
        return 128 + (self.signum or signal.SIGINT)

    @property
    def name(self) -> str:
        """The signal's name (``SIGINT``...)."""
        return signal.Signals(self.signum or signal.SIGINT).name

    def exit(self, kept: str = "") -> None:
        """Say on stderr that the command was interrupted (and ``kept``:
        what was kept, e.g. ``"3 of 10 games finished"``) and exit with
        :attr:`exit_code`."""
        exit_interrupted(self.signum or signal.SIGINT, kept)


#: seconds an interrupted command may spend exiting once it has said so
EXIT_GRACE = 30.0


def exit_interrupted(signum: int | BaseException, kept: str = "") -> None:
    """Say on stderr ``interrupted (SIGTERM): kept`` and exit with 128 plus
    the signal; ``signum`` may be the KeyboardInterrupt caught (one
    without a signal number counts as SIGINT). Everything kept is written
    by then; should Python's own exit hang (it waits for the threads of
    libraries' pools, and a process pool whose workers were terminated
    can leave it waiting on a lock for ever), the process ends anyway
    ``EXIT_GRACE`` seconds later, with the same status."""
    global _received
    if isinstance(signum, BaseException):
        signum = getattr(signum, "signum", signal.SIGINT)
    _received = None        # reported now
    sys.stdout.flush()
    message = f"interrupted ({signal.Signals(signum).name})" + (f": {kept}" if kept else "")
    print(message, file=sys.stderr, flush=True)
    _exit_watchdog(128 + int(signum))
    sys.exit(128 + int(signum))


def _after_interrupt(_unraisable) -> None:
    """The exception hook of a process ending on a signal
    (:func:`_exit_watchdog`): a finaliser's error is dropped."""


def _exit_watchdog(code: int) -> None:
    """From the moment Python starts to exit, end the process with ``code``
    after ``EXIT_GRACE`` seconds, from a daemon thread (it still runs while
    Python's exit waits; what was to be kept is flushed already, and
    flushing again could wait on the stuck thread's lock). Armed at the
    exit itself (the first of the threading module's exit calls, which run
    newest first), not now: a caller that catches the SystemExit (click's
    test runner) goes on living."""
    def arm() -> None:
        # the process only ends now: a library object the signal left half
        # built (llvmlite's, when it landed in a compile) fails in its
        # finaliser at exit, which Python would print as "Exception
        # ignored"; the user's one line is said already
        sys.unraisablehook = _after_interrupt
        timer = threading.Timer(EXIT_GRACE, os._exit, args=(code,))
        timer.daemon = True
        timer.start()
    try:
        threading._register_atexit(arm)     # type: ignore[attr-defined]
    except (AttributeError, RuntimeError):  # another Python; already exiting
        pass


def interruption_in(exc: BaseException | None) -> KeyboardInterrupt | None:
    """The interruption behind ``exc``, or None: ``exc`` itself when it is
    one, else the first in its chain of causes and contexts. A signal that
    lands inside an extension module's import makes that import fail with
    an ImportError whose context is the :class:`Interrupted` (numba:
    "numba._devicearray failed to import"), and one that lands in a
    class's making (a dataclass field's ``__set_name__``) makes it a
    RuntimeError caused by it.

    >>> try:
    ...     try:
    ...         raise Interrupted(signal.SIGTERM)
    ...     except Interrupted:
    ...         raise ImportError("failed to import")
    ... except ImportError as e:
    ...     interruption_in(e).signum, interruption_in(ValueError())
    (15, None)
    >>> class Field:
    ...     def __set_name__(self, owner, name):
    ...         raise Interrupted(signal.SIGINT)
    >>> try:
    ...     class Made:
    ...         f = Field()
    ... except RuntimeError as e:
    ...     interruption_in(e).signum
    2
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def exit_if_interrupted(exc: BaseException) -> None:
    """Exit as :func:`exit_interrupted` does when ``exc`` comes of an
    interruption (:func:`interruption_in`: a signal that landed in an
    import); else return, for the caller to raise ``exc`` again."""
    cause = interruption_in(exc)
    if cause is not None:
        exit_interrupted(cause)


def exit_if_signalled() -> None:
    """Exit as :func:`exit_interrupted` does when a signal arrived and was
    never reported (its KeyboardInterrupt swallowed on the way); else
    return. For the end of a command that ran on regardless."""
    if _received is not None:
        exit_interrupted(_received)


def _early(signum: int, _frame) -> None:
    _note(signum)
    if _shielded:
        _later(signum)
        return
    raise Interrupted(signum)


def _early_unraisable(unraisable) -> None:
    """As :meth:`Signals._unraisable`: a signal that landed where Python
    cannot raise (a callback of the import system, a finaliser) is
    delivered once more, from another thread, so that it lands after."""
    if isinstance(unraisable.exc_value, Interrupted):
        _later(unraisable.exc_value.signum)
        return
    if _received is not None:
        return          # a finaliser the signal left half built: the stop says it
    sys.__unraisablehook__(unraisable)


def early_signals() -> None:
    """Turn SIGINT, SIGTERM and SIGHUP into :class:`Interrupted` from now
    on (in the main thread), before any command has taken them in hand:
    the command line catches it and exits with 128 plus the signal
    (:func:`exit_interrupted`). :class:`Signals` blocks replace these
    handlers while they run and put them back."""
    if threading.current_thread() is not threading.main_thread():
        return
    for s in SIGNALS:
        if signal.getsignal(s) is signal.SIG_IGN:      # nohup: keep ignoring
            continue
        signal.signal(s, _early)
    sys.unraisablehook = _early_unraisable


def stoppable(command):
    """Run ``command`` inside :class:`Signals`: for a command with nothing
    to keep, an interruption says so on stderr and exits with 128 plus
    the signal (not click's "Aborted!" and exit 1)."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        with Signals():
            return command(*args, **kwargs)
    return run
