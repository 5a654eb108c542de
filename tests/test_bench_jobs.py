"""`bench --jobs N`: questions scored in forked workers print the same report as one process."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

from schemanav.bench import parallel
from schemanav.bench.parallel import QuestionPool, worker_count
from schemanav.cli import app
from schemanav.events import SilentEvents
from schemanav.process import available_cores

if TYPE_CHECKING:
    from conftest import BenchFiles


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("SCHEMANAV_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


def _without_timing(value: Any) -> Any:
    """The report with its timing fields (each row's `seconds`) left out."""
    if isinstance(value, dict):
        return {key: _without_timing(item) for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [_without_timing(item) for item in value]
    return value


def _bench_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["bench", "--json", "-q", *args])
    assert result.exit_code == 0, result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def test_available_cores_is_at_least_one() -> None:
    assert available_cores() >= 1
    if hasattr(os, "sched_getaffinity"):
        assert available_cores() == len(os.sched_getaffinity(0))


def test_a_worker_takes_at_least_its_share_of_questions() -> None:
    share = parallel.MIN_QUESTIONS_PER_WORKER
    assert worker_count(8, share - 1) == 1
    assert worker_count(8, 2 * share) == 2
    assert worker_count(2, 200) == 2
    assert worker_count(1, 200) == 1


def test_one_worker_runs_in_process_in_order() -> None:
    seen: list[int] = []

    def work(index: int) -> int:
        seen.append(index)
        return index * index

    assert QuestionPool(work, 1).map(5, "x", SilentEvents()) == [0, 1, 4, 9, 16]
    assert seen == [0, 1, 2, 3, 4]


def test_jobs_must_be_positive() -> None:
    result = CliRunner().invoke(app, ["bench", "--jobs", "0"])
    assert result.exit_code == 2
    assert "--jobs" in result.stderr


@pytest.mark.slow
def test_forked_workers_keep_the_order() -> None:
    """Results come back in question order whatever worker scored them (a fork each)."""
    assert QuestionPool(lambda index: index * 3, 2).map(100, "x", SilentEvents()) == [
        index * 3 for index in range(100)
    ]


@pytest.mark.slow
def test_moviedb_jobs_2_prints_what_jobs_1_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two backends, two formats (the slices shared between formats), lists and slices."""
    monkeypatch.setattr(parallel, "MIN_QUESTIONS_PER_WORKER", 1)
    args = ["--backend", "bm25,structural", "--format", "GLOSS,SDL", "--output", "list,slice"]
    args += ["--budgets", "250,1000,4000"]
    serial = _bench_json(*args, "--jobs", "1")
    forked = _bench_json(*args, "--jobs", "2")
    assert _without_timing(forked) == _without_timing(serial)
    assert len(serial["rows"]) == 8


@pytest.mark.slow
def test_github_jobs_2_prints_what_jobs_1_prints(
    wg_full_labels: Callable[[str], BenchFiles],
) -> None:
    """A large schema's index shared by the forked workers: 64 of its questions, two workers'
    shares of 32 (the Movie DB's questions above are too few to split by default)."""
    files = wg_full_labels("github")
    some = Path("some.tsv")  # the test's own directory (`isolated`)
    lines = files.questions.read_text().splitlines(keepends=True)
    some.write_text("".join([line for line in lines if not line.startswith("#")][:64]))
    args = ["--schema", str(files.schema), "--bench-file", str(some)]
    args += ["--output", "list,slice", "--budgets", "500,2000"]
    serial = _bench_json(*args, "--jobs", "1")
    forked = _bench_json(*args, "--jobs", "2")
    assert _without_timing(forked) == _without_timing(serial)
    assert serial["questions"] == 64
