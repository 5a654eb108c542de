"""The active schema (`schemanav.servers.active`): a file edited, a URL refreshed, SIGHUP, a
broken edit, all while the state being served stays whole."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from typer.testing import CliRunner

from conftest import python_path
from schemanav.cli import app
from schemanav.navigator import Navigator
from schemanav.servers.active import ActiveSchema
from schemanav.servers.tools import SEARCH_SCHEMA, ToolBox
from servers.graphql_server import serve_moviedb
from test_agent import Recorder

# Slow tier: served schemas swapped while clients ask, and `mcp` over stdio.
pytestmark = pytest.mark.slow

SDL = 'type Query {\n  "Books on a shelf."\n  books: [String!]!\n}\n'
EDITED = SDL.replace("}", '  "Magazines on a rack."\n  magazines: [String!]!\n}')


def _toolbox(navigator: Navigator, _previous: ToolBox | None) -> ToolBox:
    return ToolBox(navigator)


def _wait(condition: Callable[[], bool], seconds: float = 5.0) -> float:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < seconds, "timed out"
        time.sleep(0.02)
    return time.monotonic() - started


@pytest.fixture
def shelf(cache_dir: Path, workdir: Path) -> Path:
    path = workdir / "shelf.graphql"
    path.write_text(SDL, encoding="utf-8")
    return path


@pytest.fixture
def watching(shelf: Path) -> Iterator[tuple[ActiveSchema[ToolBox], Recorder]]:
    events = Recorder()
    active = ActiveSchema(Navigator.open(str(shelf)), _toolbox, events=events)
    active.start()
    try:
        yield active, events
    finally:
        active.stop()


def _coordinates(tools: ToolBox, query: str) -> list[str]:
    return [hit["coordinate"] for hit in tools.call(SEARCH_SCHEMA, {"query": query}).data["hits"]]


def test_an_edited_file_is_served_after_the_swap_and_the_old_state_stays_whole(
    shelf: Path, watching: tuple[ActiveSchema[ToolBox], Recorder]
) -> None:
    active, events = watching
    before = active.current
    assert "Query.magazines" not in _coordinates(before, "magazines on a rack")
    shelf.write_text(EDITED, encoding="utf-8")
    took = _wait(lambda: active.generation == 2)
    assert took < 2.0
    assert "Query.magazines" in _coordinates(active.current, "magazines on a rack")
    # A request that holds the old state is answered from it alone.
    assert "Query.magazines" not in _coordinates(before, "magazines on a rack")
    assert any("reloaded" in note for note in events.notes)


def test_a_broken_edit_keeps_the_old_schema_and_says_so(
    shelf: Path, watching: tuple[ActiveSchema[ToolBox], Recorder]
) -> None:
    active, events = watching
    shelf.write_text("type Query { books: [String!]! ", encoding="utf-8")
    _wait(lambda: bool(events.warnings))
    assert active.generation == 1
    assert "still serving the previous one" in events.warnings[0]
    assert _coordinates(active.current, "books on a shelf") == ["Query.books"]
    shelf.write_text(EDITED, encoding="utf-8")  # fixed: picked up
    _wait(lambda: active.generation == 2)


def test_touching_the_file_without_changing_it_rebuilds_nothing(
    shelf: Path, watching: tuple[ActiveSchema[ToolBox], Recorder]
) -> None:
    active, _ = watching
    os.utime(shelf, (time.time() + 5, time.time() + 5))
    time.sleep(0.6)
    assert active.generation == 1


def test_sighup_reloads(watching: tuple[ActiveSchema[ToolBox], Recorder]) -> None:
    active, _ = watching
    os.kill(os.getpid(), signal.SIGHUP)
    _wait(lambda: active.generation == 2)


def test_a_url_schema_is_introspected_again_every_refresh(cache_dir: Path, workdir: Path) -> None:
    with serve_moviedb() as server:
        active = ActiveSchema(Navigator.open(server.url), _toolbox, refresh=1.0)
        asked = len(server.requests)
        active.start()
        try:
            _wait(lambda: active.generation == 2, seconds=10)
        finally:
            active.stop()
        assert len(server.requests) > asked  # introspected again


def test_a_refresh_under_a_second_is_refused(
    cache_dir: Path, workdir: Path, user_error: Callable[..., str]
) -> None:
    result = CliRunner().invoke(app, ["serve", "--refresh", "0.1", "--port", "0"])
    user_error(result, "--refresh takes at least 1 s between reloads")


def test_mcp_over_stdio_answers_from_the_edited_file(shelf: Path, tmp_path: Path) -> None:
    """The real `schemanav mcp` process, driven by the MCP SDK's client: a field added to the
    schema file while it runs is found by the next searches."""
    src = Path(__file__).resolve().parents[1] / "src"
    env = {"PYTHONPATH": python_path(str(src)), "SCHEMANAV_CACHE_DIR": str(tmp_path / "cache")}
    env["HIDDEN_BACKEND_PLUGINS"] = os.environ["HIDDEN_BACKEND_PLUGINS"]  # the SDK passes env alone
    command = ["-m", "schemanav", "mcp", "--schema", str(shelf)]
    params = StdioServerParameters(command=sys.executable, args=command, env=env)

    async def found(client: Client) -> list[str]:
        result = await client.call_tool(SEARCH_SCHEMA, {"query": "magazines on a rack"})
        assert isinstance(result.structured_content, dict)
        return [hit["coordinate"] for hit in result.structured_content["hits"]]

    async def main() -> None:
        with (tmp_path / "server.log").open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                assert "Query.magazines" not in await found(client)
                shelf.write_text(EDITED, encoding="utf-8")
                with anyio.fail_after(5):
                    while "Query.magazines" not in await found(client):
                        await anyio.sleep(0.05)

    anyio.run(main)
    assert "reloaded" in (tmp_path / "server.log").read_text()
