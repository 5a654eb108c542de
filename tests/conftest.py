"""Shared fixtures: an isolated cache and working directory, the CLI runner, and the parsed
schemas (GitHub's and the bundled Movie DB's), each parsed once per session.

The session-scoped schemas and corpora are shared: read them, never change them (a corpus
only fills its own caches of rendered texts and token counts, which every user would compute
alike).

Click ≥ 8.2 keeps a `CliRunner` result's streams apart: `result.stdout` and `result.stderr`
hold what the command wrote to each, `result.output` is both interleaved as a terminal shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from schemanav.corpus import Corpus, build_corpus
from schemanav.schema import LoadedSchema, bundled_path, load_schema

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_WG = REPO_ROOT.parent / "shared" / "wg"
GITHUB_SCHEMA = SHARED_WG / "github" / "schema.graphql"
MOVIEDB_SCHEMA = bundled_path("moviedb.graphqls")


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
def github_schema(github_schema_path: Path) -> LoadedSchema:
    """GitHub's schema, parsed once per session (seconds): read it, never change it."""
    return load_schema(str(github_schema_path))


@pytest.fixture(scope="session")
def github_corpus(github_schema: LoadedSchema) -> Corpus:
    """GitHub's corpus (6,640 entries), built once per session from `github_schema`."""
    return build_corpus(github_schema.schema)


@pytest.fixture(scope="session")
def github_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A `$SCHEMANAV_CACHE_DIR` shared by the CLI runs on the GitHub schema whose tests are not
    about caching: the first run writes the corpus cache, later runs read it (seconds saved)."""
    return tmp_path_factory.mktemp("github-cache")


@dataclass(frozen=True)
class BenchFiles:
    schema: Path
    questions: Path


@pytest.fixture(scope="session")
def github_slice(github_schema_path: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchFiles:
    """The working group's GitHub slice as `bench` reads it (`scripts/wg_to_tsv.py` on
    ../shared/wg): the schema and the TSV of its 200 labelled questions."""
    out = tmp_path_factory.mktemp("github-slice")
    converted = subprocess.run(
        [
            sys.executable,
            str(REPO_ROOT / "scripts" / "wg_to_tsv.py"),
            "--src",
            str(SHARED_WG),
            "--out-dir",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert converted.returncode == 0, converted.stderr
    return BenchFiles(out / "schemas" / "github-wg.graphqls", out / "benchmarks" / "github-wg.tsv")


@pytest.fixture(scope="session")
def wg_full_labels(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], BenchFiles]:
    """The working group's slice of `name` (github or gitlab) with full labels (every
    `mustInclude` entry), written once per session by `scripts/wg_to_tsv.py`."""
    made: dict[str, BenchFiles] = {}

    def files(name: str) -> BenchFiles:
        if name not in made:
            if not (SHARED_WG / name / "schema.graphql").is_file():
                pytest.skip(f"the Working Group's {name} data is not in {SHARED_WG}")
            out = tmp_path_factory.mktemp(f"{name}-full")
            command = [sys.executable, str(REPO_ROOT / "scripts" / "wg_to_tsv.py")]
            command += ["--src", str(SHARED_WG), "--out-dir", str(out)]
            command += ["--schema", name, "--labels", "full"]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            assert done.returncode == 0, done.stderr
            made[name] = BenchFiles(
                out / "schemas" / f"{name}-wg.graphqls",
                out / "benchmarks" / f"{name}-wg-full.tsv",
            )
        return made[name]

    return files


@pytest.fixture(scope="session")
def github_default_bench(
    github_slice: BenchFiles, github_cache_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """`schemanav bench --json` on the GitHub slice with every default (backend, format, ks,
    budgets), run once per session: no SCHEMANAV_ variable, no schemanav.toml."""
    from schemanav.cli import app

    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith("SCHEMANAV_"):
                patch.delenv(name)
        patch.setenv("SCHEMANAV_CACHE_DIR", str(github_cache_dir))
        patch.chdir(tmp_path_factory.mktemp("bench-work"))
        result = CliRunner().invoke(
            app,
            [
                "bench",
                "--json",
                "--schema",
                str(github_slice.schema),
                "--bench-file",
                str(github_slice.questions),
            ],
        )
    assert result.exit_code == 0, result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


@pytest.fixture(scope="session")
def moviedb_schema() -> LoadedSchema:
    """The bundled Movie DB schema, parsed once per session: read it, never change it."""
    return load_schema(str(MOVIEDB_SCHEMA))


@pytest.fixture(scope="session")
def moviedb_corpus(moviedb_schema: LoadedSchema) -> Corpus:
    """The bundled Movie DB corpus (44 entries), built once per session."""
    return build_corpus(moviedb_schema.schema)


@pytest.fixture(scope="session")
def github_graphql_schema(github_schema: LoadedSchema) -> Any:
    """The parsed GitHub `GraphQLSchema` of `github_schema`."""
    return github_schema.schema


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


def rewrite_json_payload(path: Path, change: Callable[[dict[str, Any]], object]) -> None:
    """Change the JSON payload of a checked cache file in place and keep its checksum valid:
    what a foreign or buggy writer would leave, which only the reader's own checks catch."""
    from schemanav.cache import read_checked, write_checked

    header, data = read_checked(path)
    payload = json.loads(data)
    change(payload)
    header = {k: v for k, v in header.items() if not k.startswith("payload_")}
    write_checked(path, header, json.dumps(payload).encode())


HERMETIC = REPO_ROOT / "tests" / "hermetic"


def installed_backend_plugins() -> list[str]:
    """The metadata folders of the installed packages that offer a `schemanav.backends` entry
    point (another package's backends, in the environment the suite runs in)."""
    from importlib.metadata import distributions

    found = []
    for installed in distributions():
        folder = getattr(installed, "_path", None)
        try:
            offers = bool(installed.entry_points.select(group="schemanav.backends"))
        except Exception:  # an unreadable entry_points.txt: hidden too (it would warn)
            offers = True
        if offers and folder is not None:
            found.append(os.path.realpath(str(folder)))
    return found


def python_path(*first: str) -> str:
    """A PYTHONPATH for a subprocess: `first`, then the suite's own (which starts with the
    folder that keeps the environment's backend plugins out of every process it starts)."""
    rest = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return os.pathsep.join(dict.fromkeys([*first, *filter(None, rest)]))


def pytest_configure(config: pytest.Config) -> None:
    """Hermetic subprocesses: every process the suite starts imports tests/hermetic's
    sitecustomize, which hides the backend plugins installed in this environment (found now,
    before any test installs its own)."""
    hidden = set(installed_backend_plugins())
    hidden |= set(filter(None, os.environ.get("HIDDEN_BACKEND_PLUGINS", "").split(os.pathsep)))
    os.environ["HIDDEN_BACKEND_PLUGINS"] = os.pathsep.join(sorted(hidden))
    rest = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([str(HERMETIC), *rest]))


@pytest.fixture(autouse=True)
def _no_third_party_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hermetic: the backends of whatever else is installed (a `schemanav.backends` entry
    point of another package) are not seen by a test run in this process (a process the test
    starts is kept from them by `pytest_configure`); tests/test_plugins.py installs its own
    plugin and runs `schemanav` in a process of its own."""
    from schemanav.retrieval import registry

    monkeypatch.setattr(registry, "plugin_entry_points", dict)
