"""At 80 columns (issue 42's terminal session): `agent-bench` and `diff`, whose tables are too
wide for the terminal, print stacked records whose every line fits, with every identifier and
word whole (a long cell wraps under itself between words); piped, the same commands print
plain columns and never a box. Each runs the real entry point in a process of its own, as a
terminal would (Rich reads TTY_COMPATIBLE and COLUMNS; TERM=dumb: no colours to strip)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemanav.agentbench.scoring import STAGES
from schemanav.schema import bundled_path
from servers.ollama_server import CHAT_MODEL, FakeModel, FakeOllama, serve_ollama

REPO_ROOT = Path(__file__).resolve().parents[1]
TERMINAL = {"TTY_COMPATIBLE": "1", "COLUMNS": "80", "TERM": "dumb"}
BOX = set("┏━┃│└╇┡┗")
LONG_NAME = "runtimeMinutesAsTheStudioReportedThemOnTheDayOfRelease"


def _schemanav(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from schemanav.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
        check=False,
    )


def _words(text: str) -> str:
    return " ".join(text.split())


def _lines_fit(output: str) -> None:
    too_wide = [line for line in output.splitlines() if len(line) > 80]
    assert not too_wide, too_wide


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with serve_ollama(models=[FakeModel(CHAT_MODEL, context_length=8192)]) as server:
        answer = {"content": "```\n{ movies { title } }\n```", "prompt_eval_count": 900}
        server.script_chat(*([answer] * 40))
        yield server


@pytest.mark.slow
def test_agent_bench_fits_80_columns_and_pipes_plain_columns(
    ollama: FakeOllama, tmp_path: Path, cache_dir: Path
) -> None:
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text(
        "List the movie titles.\tQuery.movies,Movie.title\n"
        "How are movies rated?\tQuery.movies,Movie.rating\n",
        encoding="utf-8",
    )
    args = ["agent-bench", str(tasks), "--mode", "inline,oracle", "--ollama-host", ollama.url]
    env = {"SCHEMANAV_CACHE_DIR": str(cache_dir)}
    shown = _schemanav(*args, "--results", str(tmp_path / "a.jsonl"), env={**env, **TERMINAL})
    assert shown.returncode == 0, shown.stderr
    _lines_fit(shown.stdout + shown.stderr)
    lines = shown.stdout.splitlines()
    for stage in STAGES:  # every failure stage on a line of its own, its name whole
        assert any(re.fullmatch(rf"  {stage} +0", line) for line in lines), stage
    caption = _words(shown.stdout)
    assert "Costs are mean / p95 (nearest rank) per task;" in caption
    assert f"{STAGES[0]} … {STAGES[-1]}: failures by stage." in caption
    assert "Paired: tasks solved by one mode and not the other" in caption

    piped = _schemanav(*args, "--results", str(tmp_path / "b.jsonl"), env=env)
    assert piped.returncode == 0, piped.stderr
    assert not BOX & set(piped.stdout)
    header = next(line for line in piped.stdout.splitlines() if line.startswith("mode"))
    assert header.split()[:4] == ["mode", "tasks", "solved", "success"]
    assert len(header) > 80  # a pipe gets the whole row on one line, never folded


@pytest.fixture
def renamed_schema(tmp_path: Path) -> Path:
    """The Movie DB with `Movie.runtimeMinutes` renamed to a name too long for a record's
    line at 80 columns beside `renamed to`."""
    text = bundled_path("moviedb.graphqls").read_text(encoding="utf-8")
    assert "  runtimeMinutes" in text
    changed = tmp_path / "renamed.graphqls"
    changed.write_text(text.replace("  runtimeMinutes", f"  {LONG_NAME}"), encoding="utf-8")
    return changed


@pytest.mark.slow
def test_diff_fits_80_columns_with_every_coordinate_whole(
    renamed_schema: Path, cache_dir: Path
) -> None:
    base = str(bundled_path("moviedb.graphqls"))
    questions = str(bundled_path("moviedb-sample.tsv"))
    args = ["diff", base, str(renamed_schema), "--bench-file", questions, "--allow-breaking"]
    env = {"SCHEMANAV_CACHE_DIR": str(cache_dir)}
    shown = _schemanav(*args, env={**env, **TERMINAL})
    assert shown.returncode == 0, shown.stderr
    _lines_fit(shown.stdout + shown.stderr)
    as_json = _schemanav(*args, "--json", "-q", env=env)
    assert as_json.returncode == 0, as_json.stderr
    found = json.loads(as_json.stdout)
    coordinates = {entry["coordinate"] for key in ("added", "removed", "changed")
                   for entry in found[key]}  # fmt: skip
    assert f"Movie.{LONG_NAME}" in coordinates
    lines = shown.stdout.splitlines()
    for coordinate in coordinates:  # each on one line, never split across two
        assert any(re.search(rf"(^|\s){re.escape(coordinate)}\??$", line) for line in lines), (
            coordinate
        )
    # the rename's detail wraps under its own column: `renamed to`, then the name below it
    at = lines.index(next(line for line in lines if line.strip() == f"Movie.{LONG_NAME}?"))
    assert lines[at - 1].endswith("  renamed to")
    assert lines[at].index("M") == lines[at - 1].index("renamed")  # a hanging indent
    # the question lost its label, so one more question never completes: a whole number
    never = next(line for line in lines if line.startswith("│ never "))
    assert re.fullmatch(r"│ never +│ +\d+ │ +\d+ │ +\+\d+ │ more questions, worse +│", never)

    piped = _schemanav(*args, env=env)
    assert piped.returncode == 0, piped.stderr
    assert not BOX & set(piped.stdout)
    assert any(f"renamed to Movie.{LONG_NAME}?" in line for line in piped.stdout.splitlines())
