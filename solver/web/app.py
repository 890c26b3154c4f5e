"""The ASGI app of ``ronda-solve serve`` (FastAPI): the three pages, the
JSON API (:mod:`solver.web.api`), the search pool, the request limits.

>>> app = create_app(Config(searches=1))
>>> sorted(p for p in ("/", "/board", "/game", "/puzzles") if any(getattr(r, "path", None) == p for r in app.routes))
['/', '/board', '/game', '/puzzles']
"""

from __future__ import annotations

import re
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from .api import ApiError, router
from .play import Games, router as play_router
from .play_store import PlayStore
from .pool import SearchPool

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"/": "index.html", "/board": "board.html", "/game": "game.html",
         "/puzzles": "puzzles.html", "/play": "play.html", "/mine": "mine.html"}


@dataclass
class Config:
    """The server's settings: ``searches`` at once (worker processes),
    ``queue`` more waiting, ``time`` seconds and ``memory`` MB a search
    may take (the CLI's ``--time`` and ``--memory``), ``timeout`` seconds
    a game annotation may take, ``workers`` threads a search,
    ``max_body`` bytes a request may send, ``db`` the analysis store
    where the play page keeps its games (None: in memory only)."""

    searches: int = 2
    queue: int = 8
    time: float = 10.0
    memory: float = 2048.0
    timeout: float = 300.0
    workers: int = 1
    max_body: int = 1_000_000
    db: str | None = None


class BodyLimit:
    """ASGI middleware: a request body larger than ``limit`` bytes gets
    413 and a one-line error, whether it says its length (Content-Length)
    or not (chunked): the body is read here, up to the limit, and handed
    on whole. A body that ends before the length its Content-Length
    says gets 400 and a one-line error saying so (it was read as the
    JSON it cut off, with the parser's words cut off too)."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        """Pass the request on with its body read and counted."""
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = None
        for k, v in scope.get("headers", []):
            if k == b"content-length" and v.isdigit():
                declared = int(v)
                if declared > self.limit:
                    return await self._refuse(send)
        chunks, seen = [], 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":        # the client left
                return
            body = msg.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                return await self._refuse(send)
            chunks.append(body)
            if not msg.get("more_body", False):
                break
        if declared is not None and seen < declared:
            return await self._error(send, 400, f"the request body ended before its "
                                                f"Content-Length ({seen:,} of {declared:,} bytes)")
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        given = False

        async def replay():
            nonlocal given
            if not given:
                given = True
                return whole
            return await receive()          # then: the disconnect, when it comes

        await self.app(scope, replay, send)

    async def _refuse(self, send) -> None:
        await self._error(send, 413, f"the request is larger than {self.limit:,} bytes "
                                     f"(the server's --max-upload)")

    @staticmethod
    async def _error(send, status: int, message: str) -> None:
        await JSONResponse({"error": message}, status)({"type": "http"}, None, send)


def _validation_message(err: RequestValidationError, body: bytes | None = None) -> str:
    """One line: the field and the problem; a body that is not JSON, is
    missing, or is sent as another content-type said so, with the line and
    column of a JSON error."""
    first = err.errors()[0] if err.errors() else {}
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        pos = loc[-1] if loc and isinstance(loc[-1], int) else None
        why = (first.get("ctx") or {}).get("error")
        if why:
            # Python's JSON words end on the place they name ("Unterminated
            # string starting at", "Invalid control character at"): the
            # line and column say it
            why = re.sub(r"(?: starting)? at$", "", str(why))
        where = ""
        if pos is not None and body is not None:
            before = body.decode("utf-8", "replace")[:pos]     # pos counts characters
            line = before.count("\n") + 1
            where = f"line {line}, column {pos - (before.rfind(chr(10)) + 1) + 1}"
        elif pos is not None:
            where = f"character {pos + 1}"
        detail = ": ".join(x for x in (where, str(why).lower() if why else "") if x)
        return "the request body is not JSON" + (f" ({detail})" if detail else "")
    if first.get("type") == "missing" and loc == ("body",):
        return "the request has no body (expected a JSON object)"
    if loc == ("body",) and first.get("type") in ("model_attributes_type", "dict_type"):
        # a body not read as JSON (FastAPI reads only a JSON content-type:
        # the body is left as bytes), or JSON that is no object
        if isinstance(first.get("input"), (bytes, bytearray)):
            return "the request body must be JSON (content-type application/json)"
        return "the request body must be a JSON object"
    where = ".".join(str(x) for x in loc if x != "body") or "request"
    return f"{where}: {first.get('msg', 'invalid')}"


def create_app(config: Config | None = None) -> FastAPI:
    """The app: pages at ``/``, ``/board``, ``/game``, ``/puzzles``;
    static files at ``/static``; the API at ``/api`` (OpenAPI at
    ``/docs``); a :class:`~solver.web.pool.SearchPool` started with it.
    Raises StoreError (one line) when ``config.db`` cannot keep games."""
    config = config or Config()
    PlayStore(config.db).close()        # a store that cannot keep games: fail now

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        pool = SearchPool(config.searches, config.queue)
        app.state.pool = pool
        games = app.state.games = Games(PlayStore(config.db))   # in the loop's thread
        await pool.start()
        try:
            yield
        finally:
            await pool.close()
            games.close()

    app = FastAPI(title="ronda-solver", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,      # /docs below, its assets served here
                  description="The JSON API of `ronda-solve serve`: the analysis board, "
                              "the game viewer and the puzzle trainer. An analysis is "
                              "the document of `ronda-solve --json`; errors are "
                              "`{\"error\": \"one line\"}`.")
    app.state.config = config

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError):
        return JSONResponse({"error": str(exc)}, exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        body = getattr(request, "_body", None)      # read (and kept) by the route
        return JSONResponse({"error": _validation_message(exc, body)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        # 404 for an unknown address, 405 for a wrong method...: the same
        # {"error": ...} shape as every other error
        text = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 400 and text == "There was an error parsing the body":
            # FastAPI's words for a JSON body it could not decode: say why,
            # as a body that is not JSON is said (422)
            body = getattr(request, "_body", None) or b""
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as e:
                return JSONResponse({"error": f"the request body is not UTF-8 text (byte "
                                              f"{e.start + 1} is {body[e.start]:#04x})"}, 422)
            return JSONResponse({"error": "the request body is not JSON"}, 422)
        return JSONResponse({"error": text}, exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception):
        from .tasks import one_line
        return JSONResponse({"error": f"internal error: {one_line(exc)}"}, 500)

    app.include_router(router)
    app.include_router(play_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _api_docs(app)
    for path, name in PAGES.items():
        app.add_api_route(path, _page(name), include_in_schema=False)

    async def favicon() -> FileResponse:
        # the pages name their icon; a browser (or a page that does not,
        # as /docs's assets) may still ask for /favicon.ico
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.add_api_route("/favicon.ico", favicon, include_in_schema=False)
    app.add_middleware(BodyLimit, limit=config.max_body)
    return app


def _api_docs(app: FastAPI) -> None:
    """``/docs``: the API's Swagger UI with its script and style sheet
    served from an installed package (``fastapi-offline``'s copy of
    Swagger UI 5, which reads OpenAPI 3.1) at ``/docs-assets``: FastAPI's
    default page loads them from a CDN, and is blank without internet."""
    from fastapi.openapi.docs import get_swagger_ui_html
    import fastapi_offline
    assets = Path(fastapi_offline.__file__).resolve().parent / "static"
    app.mount("/docs-assets", StaticFiles(directory=assets), name="docs-assets")

    async def docs():
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="ronda-solver API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon.png")

    app.add_api_route("/docs", docs, include_in_schema=False)


def _page(name: str):
    async def page() -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")
    page.__name__ = name.replace(".", "_")
    return page
