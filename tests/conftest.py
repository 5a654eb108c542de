"""Shared fixtures: an isolated cache and working directory, the CLI runner, the GitHub schema.

Click ≥ 8.2 keeps a `CliRunner` result's streams apart: `result.stdout` and `result.stderr`
hold what the command wrote to each, `result.output` is both interleaved as a terminal shows.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

REPO_ROOT = Path(__file__).resolve().parents[1]
GITHUB_SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "wg" / "github" / "schema.graphql"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh `$SCHEMANAV_CACHE_DIR`; no other `SCHEMANAV_` variable leaks in from the shell."""
    for name in list(os.environ):
        if name.startswith("SCHEMANAV_"):
            monkeypatch.delenv(name)
    path = tmp_path / "cache"
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(path))
    return path


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory, so no stray `schemanav.toml` changes the settings."""
    path = tmp_path / "work"
    path.mkdir()
    monkeypatch.chdir(path)
    return path


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="session")
def github_schema_path() -> Path:
    """The working group's GitHub schema in ../shared (not shipped with the repository)."""
    if not GITHUB_SCHEMA.is_file():
        pytest.skip(f"GitHub schema not found at {GITHUB_SCHEMA} (needs ../shared beside the repo)")
    return GITHUB_SCHEMA


@pytest.fixture(scope="session")
def github_graphql_schema(github_schema_path: Path) -> Any:
    """The GitHub schema parsed once per session (a 1.5 MB SDL: seconds to load)."""
    from schemanav.schema import load_schema

    return load_schema(str(github_schema_path)).schema


def check_user_error(result: Result, *fragments: str, exit_code: int = 2) -> str:
    """A refused command: the exit code, ONE `error: …` line on stderr, no traceback.

    Returns the error line; each fragment must occur in it.
    """
    everything = result.stdout + result.stderr
    assert "Traceback" not in everything, everything
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == exit_code, (result.exit_code, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.fixture
def user_error() -> Callable[..., str]:
    """`user_error(result, *fragments)`: see `check_user_error`."""
    return check_user_error
