"""``ronda-solve serve``: start the web app (docs/web.md)."""

from __future__ import annotations

import contextlib
import os
import signal

import click

from .params import Positive, Whole

#: positive finite numbers up to a million (``nan`` and ``inf`` refused)
SECONDS = Positive(0, 1e6, min_open=True, unit="seconds")
MEGABYTES = Positive(0, 1e6, min_open=True, unit="megabytes")


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but 127.0.0.1 lets other machines use "
                   "the server (README: what that means).")
@click.option("--port", type=Whole(0, 65535), default=8000, show_default=True)
@click.option("--searches", type=Whole(1), default=2, show_default=True,
              help="Searches at once (worker processes); more wait in the queue.")
@click.option("--queue", type=Whole(0), default=8, show_default=True,
              help="Searches that may wait; one more is refused (HTTP 429).")
@click.option("--time", "time_budget", type=SECONDS, default=10.0, show_default=True,
              help="Seconds a position's search may take (as the CLI's --time).")
@click.option("--memory", "memory_mb", type=MEGABYTES, default=2048.0, show_default=True,
              help="MB a search's tables may take (as the CLI's --memory).")
@click.option("--timeout", type=SECONDS, default=300.0, show_default=True,
              help="Seconds a game annotation may take.")
@click.option("--max-upload", type=Whole(1000), default=1_000_000, show_default=True,
              help="Bytes a request may send (a record, a puzzle set).")
@click.option("--db", default="ronda-analysis.db", show_default=True,
              help="The analysis store (the file batch uses) where the play page keeps "
                   "its games and their reviews.")
def serve(host, port, searches, queue, time_budget, memory_mb, timeout, max_upload,
          db) -> None:
    """Serve the analysis board, the game viewer, the puzzle trainer and
    the play page at http://HOST:PORT/ (nothing is opened: point a browser
    there)."""
    import sys
    import uvicorn
    from ..batch.store import StoreError
    from ..runtime.interrupt import SIGNALS, exit_interrupted
    from ..web.app import Config, create_app
    config = Config(searches=searches, queue=queue, time=time_budget, memory=memory_mb,
                    timeout=timeout, max_body=max_upload, db=db)
    shown = f"[{host}]" if ":" in host else host
    problem = _cannot_listen(host, port)
    if problem is not None:
        click.echo(f"error: {problem}", err=True)
        sys.exit(2)
    try:
        app = create_app(config)
    except StoreError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    # a request still open 3 s after a stop is cancelled (the searches in
    # flight are stopped at once, so their requests end first)
    server = _Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                    timeout_graceful_shutdown=3))

    orig = server.startup

    async def startup(sockets=None):
        await orig(sockets=sockets)
        if server.started:
            port_now = port
            for s in server.servers:
                for sock in s.sockets:
                    port_now = sock.getsockname()[1]
            click.echo(f"ronda-solve serve: http://{shown}:{port_now}/ (Ctrl-C stops it)")

    server.startup = startup
    caught: list[int] = []

    def stop(signum, _frame) -> None:
        # the signal contract of every command (solver/runtime/interrupt.py):
        # stop the searches in flight, do not wait for their requests, exit
        # with 128 plus the signal; a second signal ends the process at once
        if caught:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        caught.append(signum)
        server.should_exit = True
        pool = getattr(app.state, "pool", None)
        if pool is not None:
            pool.stop_now()

    for s in SIGNALS:
        signal.signal(s, stop)
    try:
        server.run()
    except KeyboardInterrupt as e:      # pragma: no cover - before the handlers
        exit_interrupted(e, "server stopped")
    except SystemExit:                  # uvicorn's startup failure (taken since the check)
        if server.started:              # pragma: no cover
            raise
    if caught:
        exit_interrupted(caught[0], "server stopped")
    if not server.started:
        click.echo(f"error: could not listen on {shown}:{port} "
                   f"({_cannot_listen(host, port) or 'the server did not start'})", err=True)
        sys.exit(2)


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (one line), or
    None: each address the host names is bound as the server will bind it
    (SO_REUSEADDR, as asyncio does), then released."""
    import errno
    import socket
    shown = f"[{host}]" if ":" in host else host
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        return f"--host {host!r} is not an address of this machine ({why})"
    for family, kind, proto, _name, addr in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(addr)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return (f"port {port} is in use (on {shown}: another program listens there; "
                        "choose another with --port)")
            if e.errno in (errno.EACCES, errno.EPERM):
                return (f"port {port} on {shown} needs more rights ({e.strerror}; choose "
                        "a port over 1023 with --port)")
            if e.errno == errno.EADDRNOTAVAIL:
                return f"--host {host} is not an address of this machine ({e.strerror})"
            return f"cannot listen on {shown}:{port} ({e.strerror or e})"
    return None


def _server_class():
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server under the command's own signal handlers (it
        would otherwise wait for the searches in flight, then re-raise the
        signal as a KeyboardInterrupt)."""

        @contextlib.contextmanager
        def capture_signals(self):
            yield

        def install_signal_handlers(self) -> None:     # older uvicorn
            return None

    return Server


def _Server(config):
    return _server_class()(config)
