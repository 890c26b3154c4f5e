"""``ronda-solve serve``: start the web app (docs/web.md)."""

from __future__ import annotations

import click

POSITIVE = click.FloatRange(0, 1e6, min_open=True)


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but 127.0.0.1 lets other machines use "
                   "the server (README: what that means).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--searches", type=click.IntRange(1), default=2, show_default=True,
              help="Searches at once (worker processes); more wait in the queue.")
@click.option("--queue", type=click.IntRange(0), default=8, show_default=True,
              help="Searches that may wait; one more is refused (HTTP 429).")
@click.option("--time", "time_budget", type=POSITIVE, default=10.0, show_default=True,
              help="Seconds a position's search may take (as the CLI's --time).")
@click.option("--memory", "memory_mb", type=POSITIVE, default=2048.0, show_default=True,
              help="MB a search's tables may take (as the CLI's --memory).")
@click.option("--timeout", type=POSITIVE, default=300.0, show_default=True,
              help="Seconds a game annotation may take.")
@click.option("--max-upload", type=click.IntRange(1000), default=1_000_000, show_default=True,
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
    from ..web.app import Config, create_app
    config = Config(searches=searches, queue=queue, time=time_budget, memory=memory_mb,
                    timeout=timeout, max_body=max_upload, db=db)
    try:
        app = create_app(config)
    except StoreError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    shown = f"[{host}]" if ":" in host else host

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
    server.run()
