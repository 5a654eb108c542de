"""Run a `schemanav` server command as a real process, for tests that drive it over HTTP.

with schemanav_server(["serve", "--port", "0"], cache) as (url, process):
    httpx.post(url, json={"query": "{ __typename }"})

The URL is read from the server's `listening on …` line on stderr; on leaving, the process is
terminated and whatever else it wrote to stderr is kept in `process.rest`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ServerProcess:
    first_line: str
    rest: str = field(default="")


@contextmanager
def schemanav_server(args: list[str], cache: Path) -> Iterator[tuple[str, ServerProcess]]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src"), "SCHEMANAV_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "schemanav", *args]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert "listening on http://127.0.0.1:" in line, line
        server = ServerProcess(line)
        yield line.rsplit("listening on ", 1)[1].strip(), server
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=10)
    server.rest = rest
