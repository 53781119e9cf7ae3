"""Fixtures: a real Referee server for the whole test session.

The binary comes from ``$REFEREE_BIN`` (default ``../../target/debug/referee`` relative to
clients/python) and is started as ``$REFEREE_BIN serve --addr 127.0.0.1:0``; the port is read
from its ``referee listening on 127.0.0.1:PORT`` line. Set ``REFEREE_TARGET=host:port`` to
test an already running server instead.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from referee_client import Referee

CLIENT_DIR = Path(__file__).resolve().parent.parent
DEFAULT_BIN = CLIENT_DIR / ".." / ".." / "target" / "debug" / "referee"
LISTEN_RE = re.compile(r"referee listening on (\S+):(\d+)")
START_TIMEOUT = float(os.environ.get("REFEREE_START_TIMEOUT", "30"))


def _server_bin() -> Path:
    env = os.environ.get("REFEREE_BIN")
    if env:
        p = Path(env)
        return p if p.is_absolute() else (Path.cwd() / p)
    return DEFAULT_BIN


class Server:
    """A running server process and the lines it printed."""

    def __init__(self, proc: subprocess.Popen | None, host: str, port: int):
        self.proc = proc
        self.host = host
        self.port = port
        self.output: list[str] = []
        #: The arbiter credential (sealed-mode servers only).
        self.arbiter: str = ""

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def http_base(self) -> str:
        return f"http://{self.host}:{self.port}"


def _start_server(*extra_args: str) -> Server:
    binary = _server_bin().resolve()
    if not binary.is_file():
        pytest.fail(f"Referee server binary not found at {binary}: build it (cargo build) or set REFEREE_BIN",
                    pytrace=False)
    proc = subprocess.Popen([str(binary), "serve", "--addr", "127.0.0.1:0", *extra_args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, bufsize=1)
    lines: queue.Queue = queue.Queue()
    seen: list[str] = []

    def pump() -> None:  # keeps draining stdout so the server never blocks on a full pipe
        for line in proc.stdout:
            seen.append(line.rstrip("\n"))
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, name="referee-stdout", daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        remaining = deadline - time.monotonic()
        try:
            line = lines.get(timeout=max(remaining, 0.01)) if remaining > 0 else None
        except queue.Empty:
            line = None
        if line is None:
            _stop(proc)
            pytest.fail(f"server did not print 'referee listening on HOST:PORT' within {START_TIMEOUT}s "
                        f"(exit code {proc.poll()}); output:\n" + "\n".join(seen), pytrace=False)
        m = LISTEN_RE.search(line)
        if m:
            server = Server(proc, m.group(1), int(m.group(2)))
            server.output = seen
            return server


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def server():
    """The server under test (started once per session, stopped at the end)."""
    target = os.environ.get("REFEREE_TARGET")
    if target:
        host, _, port = target.rpartition(":")
        yield Server(None, host, int(port))
        return
    srv = _start_server()
    try:
        yield srv
    finally:
        _stop(srv.proc)


#: The sealing key of the sealed-mode server (a test key: never use a published key).
SEAL_KEY = "pytest:" + "5e" * 32


@pytest.fixture(scope="session")
def sealed_server(tmp_path_factory):
    """A second server, in sealed mode (``--seal-key-file``), started from ``$REFEREE_BIN``
    even when ``REFEREE_TARGET`` names a running server. ``.arbiter`` is its arbiter
    credential, as ``referee credential --seal-key-file F`` prints it."""
    keys = tmp_path_factory.mktemp("seal") / "keys"
    keys.write_text(SEAL_KEY + "\n")
    keys.chmod(0o600)
    srv = _start_server("--seal-key-file", str(keys))
    try:
        out = subprocess.run([str(_server_bin().resolve()), "credential", "--seal-key-file", str(keys)],
                             capture_output=True, text=True, check=True, timeout=30)
        srv.arbiter = out.stdout.strip()
        yield srv
    finally:
        _stop(srv.proc)


@pytest.fixture(scope="session")
def ref(server):
    """A connected :class:`referee_client.Referee`."""
    with Referee(server.target, timeout=20) as r:
        yield r
