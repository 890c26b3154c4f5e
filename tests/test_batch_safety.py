"""``batch``'s local Dask cluster: nothing listens beyond this machine
unless asked, and a Ctrl-C typed at the terminal (a SIGINT to the whole
foreground process group, workers included) stops the batch with one
line, whenever it comes, without a worker's traceback (issue 19)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

from solver.batch.run import connect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _listening(cluster) -> list[str]:
    """The hosts the scheduler, its dashboard and the workers listen on."""
    s = cluster.scheduler
    hosts = [sock.getsockname()[0] for sock in s.http_server._sockets.values()]
    hosts.append(s.address.split("://")[1].rsplit(":", 1)[0])
    hosts += [w.split("://")[1].rsplit(":", 1)[0] for w in s.workers]
    return hosts


def test_the_local_cluster_and_its_dashboard_listen_on_127_0_0_1_only():
    client, cluster = connect(None, 1)
    try:
        hosts = _listening(cluster)
        assert len(hosts) == 3 and set(hosts) == {"127.0.0.1"}
        assert client.dashboard_link.startswith("http://127.0.0.1:")
    finally:
        client.close()
        cluster.close()


@pytest.mark.parametrize("delay", [1.5, 4.0, 8.0])
def test_ctrl_c_to_the_terminal_stops_the_batch_in_one_line(tmp_path, delay):
    """SIGINT to the process group as a terminal sends it: while the
    cluster starts, while its workers load, while games run."""
    db = tmp_path / "c.db"
    p = subprocess.Popen([sys.executable, "-m", "solver.cli.main", "batch", "annotate",
                          "positions/games/collection-60.txt", "--db", str(db), "--workers",
                          "2", "-q"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    time.sleep(delay)
    os.killpg(p.pid, signal.SIGINT)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    assert "Traceback" not in err, err
    assert p.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("interrupted (SIGINT)")
