"""The web server under load and at its edges (issue 19): the queue limit
holds under a burst, a search stops when its client leaves, a cancel that
lands as a worker takes (or finishes) its job never kills the worker,
every error is ``{"error": ...}`` (a chunked body over the limit: 413),
big puzzle uploads are read by a worker, and ``serve`` keeps the signal
contract of every command.

The servers here listen on 127.0.0.1 only; every loop of requests is
bounded."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from solver.web.app import Config, create_app  # noqa: E402
from solver.web.pool import SearchPool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LINE = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"
SLOW = {"line": "1.2.3.4 10.11.12/?.?.? ? S", "method": "determinised", "samples": 100000,
        "time": 60}                     # 10, 11 and 12 never separate: runs to its time


# --- a real server ----------------------------------------------------------------


class Served:
    """``ronda-solve serve`` on a free port of 127.0.0.1, in its own
    process group."""

    def __init__(self, *args: str) -> None:
        self.folder = tempfile.mkdtemp(prefix="ronda-serve-")   # its store (--db)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solver.cli.main", "serve", "--port", "0", "--time", "60",
             "--db", os.path.join(self.folder, "store.db"), *args], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        first = self.proc.stdout.readline()
        assert first.startswith("ronda-solve serve: http://127.0.0.1:"), \
            first + self.proc.stderr.read()
        self.url = first.split()[2].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])

    def call(self, method: str, path: str, body: dict | None = None,
             timeout: float = 120) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str, str]:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signum)
        try:
            out, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise
        shutil.rmtree(self.folder, ignore_errors=True)
        return self.proc.returncode, out, err


@pytest.fixture
def served():
    servers: list[Served] = []

    def start(*args: str) -> Served:
        servers.append(Served(*args))
        return servers[-1]
    yield start
    for s in servers:
        s.stop(signal.SIGKILL)


def test_a_burst_is_held_to_the_queue_limit(served):
    """60 requests at once, each a search of a minute: exactly 2 running +
    8 waiting are accepted, the 50 others get 429."""
    s = served("--searches", "2", "--queue", "8")
    codes: list[int] = []
    ids: list[str] = []
    lock = threading.Lock()
    go = threading.Event()

    def one() -> None:
        go.wait()
        code, doc = s.call("POST", "/api/jobs/analyse", SLOW)
        with lock:
            codes.append(code)
            if code == 202:
                ids.append(doc["id"])
            else:
                assert doc["error"].startswith("too many searches")

    threads = [threading.Thread(target=one) for _ in range(60)]
    for t in threads:
        t.start()
    go.set()
    for t in threads:
        t.join(120)
    assert sorted(set(codes)) == [202, 429]
    assert codes.count(202) == 10 and codes.count(429) == 50
    for jid in ids:
        assert s.call("DELETE", f"/api/jobs/{jid}")[0] == 200


def test_a_search_stops_when_its_client_leaves(served):
    """One worker, no queue: a client asks for a minute's search and hangs
    up; the worker is free again for the next request soon after."""
    s = served("--searches", "1", "--queue", "0")
    body = json.dumps(SLOW).encode()
    sock = socket.create_connection(("127.0.0.1", s.port))
    sock.sendall(b"POST /api/analyse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    time.sleep(1.5)
    code, doc = s.call("POST", "/api/jobs/analyse", SLOW)
    assert code == 429                      # the first search holds the worker
    sock.close()
    deadline = time.monotonic() + 50        # well before the first search's minute
    while time.monotonic() < deadline:
        code, doc = s.call("POST", "/api/analyse", {"line": LINE})
        if code != 429:
            break
        time.sleep(0.2)
    assert code == 200 and doc["positions"][0]["value"] == 4


def test_a_page_that_stops_polling_has_its_job_cancelled(monkeypatch):
    from solver.web import pool as pool_module
    monkeypatch.setattr(pool_module, "ABANDON", 1.0)
    with TestClient(create_app(Config(searches=1, queue=1, time=60))) as c:
        job = c.post("/api/jobs/analyse", json=SLOW).json()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            state = c.app.state.pool.jobs[job["id"]].state
            if state == "cancelled":
                break
            time.sleep(0.1)
        assert state == "cancelled"
        assert c.post("/api/analyse", json={"line": LINE}).json()["positions"][0]["value"] == 4


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_serve_keeps_the_signal_contract(served, signum):
    """A signal while a minute's search runs: the search is stopped (its
    request is answered: the server is stopping), the server exits with
    128 plus the signal and says so in one line, leaving no worker."""
    s = served("--searches", "1")
    answer: list = []
    t = threading.Thread(target=lambda: answer.append(s.call("POST", "/api/analyse", SLOW)))
    t.start()
    time.sleep(2.0)
    code, out, err = s.stop(signum)
    t.join(60)
    assert code == 128 + signum, err
    assert err.strip().splitlines() == [
        f"interrupted ({signal.Signals(signum).name}): server stopped"]
    assert answer and answer[0][0] in (409, 499)
    assert answer[0][1] == {"error": "the server is stopping"}


# --- errors ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Config(searches=1, queue=2, max_body=20_000, time=20))) as c:
        yield c


def test_every_error_is_one_error_field(client):
    cases = [("GET", "/api/nowhere", None, 404), ("GET", "/nowhere", None, 404),
             ("DELETE", "/api/rules", None, 405), ("GET", "/api/analyse", None, 405),
             ("GET", "/static/nothing.js", None, 404), ("GET", "/api/jobs/nope", None, 404),
             ("POST", "/api/analyse", {"line": 5}, 422),
             ("POST", "/api/analyse", {"nothing": 1}, 422),
             ("POST", "/api/position", {"line": "nonsense"}, 400)]
    for method, path, body, status in cases:
        r = client.request(method, path, json=body)
        assert r.status_code == status, (path, r.text)
        doc = r.json()
        assert list(doc) == ["error"] and isinstance(doc["error"], str), (path, doc)
        assert "\n" not in doc["error"]
    r = client.post("/api/analyse", content=b"{not json", headers={"Content-Type":
                                                                    "application/json"})
    assert r.status_code == 422 and list(r.json()) == ["error"]


def test_a_chunked_body_over_the_limit_gets_413(client):
    def chunks():
        for _ in range(30):
            yield b"x" * 1000
    r = client.post("/api/games/open", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {"error": "the request is larger than 20,000 bytes (the server's "
                                 "--max-upload)"}
    # under the limit, chunked: read whole and answered
    body = json.dumps({"text": "nonsense"}).encode()
    r = client.post("/api/puzzles/open", content=iter([body[:5], body[5:]]),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 200 and r.json()["errors"]


def test_puzzle_uploads_are_read_by_a_worker(client):
    text = Path("positions/puzzles/hit.txt").read_text()
    before = {j.id for j in client.app.state.pool.jobs.values()}
    r = client.post("/api/puzzles/open", json={"text": text})
    assert r.status_code == 200 and len(r.json()["puzzles"]) > 5
    new = [j for j in client.app.state.pool.jobs.values() if j.id not in before]
    assert [j.task for j in new] == ["open_puzzles"] and new[0].state == "done"


# --- the pool: cancels at every moment ----------------------------------------------------


def test_cancels_at_every_moment_never_kill_a_worker():
    """Cancel jobs as they are taken, while they run and just after they
    end; the workers are the same processes at the end and still answer."""

    async def run() -> None:
        pool = SearchPool(2, 50)
        await pool.start()
        try:
            pids = pool.pids()
            args = {"line": LINE}
            for i in range(40):
                job = pool.submit("analyse", args, 30)
                if i % 4 == 1:
                    await asyncio.sleep(0)          # the dispatcher takes it...
                elif i % 4 == 2:
                    await asyncio.sleep(0.002 * i)  # ...or it runs, or it is done
                pool.cancel(job)
                if i % 4 == 3:
                    await job.future
                    pool.cancel(job)                # after its end
            done = pool.submit("analyse", args, 30)
            await asyncio.wait_for(done.future, 120)
            assert done.state == "done"
            assert done.result["positions"][0]["value"] == 4
            assert pool.pids() == pids
            assert all(w.proc.is_alive() for w in pool._workers)
        finally:
            await pool.close()

    asyncio.run(run())


def test_the_api_docs_need_no_internet(client):
    """/docs loads its Swagger UI script and style sheet from this server
    (the installed swagger-ui-bundle), never from a CDN."""
    import re
    page = client.get("/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets and all(a.startswith("/docs-assets/") for a in assets), assets
    for a in assets:
        r = client.get(a)
        assert r.status_code == 200 and len(r.content) > 500, a
    assert "http://" not in page.text.replace("http://127", "") and "https://" not in page.text
    assert client.get("/openapi.json").json()["info"]["title"] == "ronda-solver"
