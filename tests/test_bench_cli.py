"""`schemanav bench` through the command line: tables, JSON shape, files, and refusals."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from schemanav.bench import load_labelled
from schemanav.cli import app
from schemanav.corpus import Format
from schemanav.retrieval.dispositions import DISPOSITIONS
from schemanav.retrieval.pipeline import BACKENDS
from schemanav.retrieval.registry import BackendSpec, NoOptions
from schemanav.schema import bundled_path

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_WG = REPO_ROOT.parent / "shared" / "wg"
MOVIE_QUESTIONS = load_labelled(bundled_path("moviedb-sample.tsv"))

ROW_KEYS = {
    "backend",
    "format",
    "output",
    "recall",
    "mrr",
    "rank_p50",
    "rank_p95",
    "questions_without_hit",
    "tokens_at_50",
    "budget_recall",
    "complete",
    "budget_complete",
    "tokens_to_complete_p50",
    "tokens_to_complete_p95",
    "never_complete",
    "dispositions",
    "list_depth",
    "seconds",
    "per_question",
}
QUESTION_KEYS = {
    "question",
    "expected",
    "first_hit_rank",
    "reciprocal_rank",
    "recall",
    "budget_recall",
    "tokens_at_50",
    "complete",
    "budget_complete",
    "tokens_to_complete",
    "disposition",
    "top_coordinates",
}
DEFAULT_BUDGETS = [125, 250, 500, 1000, 2000, 4000, 8000, 16000]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh cache, no schemanav.toml and no SCHEMANAV_ variables from the caller."""
    for name in list(os.environ):
        if name.startswith("SCHEMANAV_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path / "cache"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)


def _bench(*args: str) -> Result:
    return CliRunner().invoke(app, ["bench", *args])


def _json(*args: str) -> dict[str, Any]:
    result = _bench("--json", *args)
    assert result.exit_code == 0, result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def _is_ratio(value: object) -> bool:
    return isinstance(value, float | int) and not isinstance(value, bool) and 0 <= value <= 1


def _check_shape(payload: dict[str, Any], ks: list[int], budgets: list[int]) -> None:
    """Every key and type of the documented JSON shape."""
    assert set(payload) == {
        "schema",
        "bench_file",
        "encoding",
        "questions",
        "targets",
        "targets_by_kind",
        "ks",
        "budgets",
        "outputs",
        "unknown_coordinates",
        "rows",
    }
    assert isinstance(payload["schema"], str)
    assert isinstance(payload["bench_file"], str)
    assert payload["encoding"] == "o200k_base"
    assert isinstance(payload["questions"], int) and payload["questions"] > 0
    assert isinstance(payload["targets"], int) and payload["targets"] >= payload["questions"]
    assert payload["ks"] == ks
    assert payload["budgets"] == budgets
    assert payload["outputs"] == ["list"]
    assert sum(payload["targets_by_kind"].values()) == payload["targets"]
    assert isinstance(payload["unknown_coordinates"], list)
    assert payload["rows"]
    for row in payload["rows"]:
        assert set(row) == ROW_KEYS
        assert isinstance(row["backend"], str) and row["backend"]
        assert row["format"] in {f.value for f in Format}
        assert row["output"] == "list"
        assert list(row["recall"]) == [str(k) for k in ks]
        assert all(_is_ratio(v) for v in row["recall"].values())
        assert list(row["budget_recall"]) == [str(b) for b in budgets]
        assert all(_is_ratio(v) for v in row["budget_recall"].values())
        assert _is_ratio(row["mrr"])
        for rank in (row["rank_p50"], row["rank_p95"]):
            assert rank is None or (isinstance(rank, int) and rank >= 1)
        assert isinstance(row["questions_without_hit"], int)
        assert 0 <= row["questions_without_hit"] <= payload["questions"]
        assert isinstance(row["tokens_at_50"], float | int) and row["tokens_at_50"] >= 0
        assert list(row["complete"]) == [str(k) for k in ks]
        assert all(_is_ratio(v) for v in row["complete"].values())
        assert list(row["budget_complete"]) == [str(b) for b in budgets]
        assert all(_is_ratio(v) for v in row["budget_complete"].values())
        for tokens in (row["tokens_to_complete_p50"], row["tokens_to_complete_p95"]):
            assert tokens is None or (isinstance(tokens, int) and 0 < tokens <= max(budgets))
        assert isinstance(row["never_complete"], int)
        assert list(row["dispositions"]) == [str(k) for k in ks]
        for k, counts in row["dispositions"].items():
            assert list(counts) == list(DISPOSITIONS)
            per = [q["disposition"][k] for q in row["per_question"]]
            assert counts == {name: per.count(name) for name in DISPOSITIONS}
        assert isinstance(row["list_depth"], int) and row["list_depth"] >= max(100, *ks)
        assert isinstance(row["seconds"], float) and row["seconds"] >= 0
        assert len(row["per_question"]) == payload["questions"]
        for question in row["per_question"]:
            assert set(question) == QUESTION_KEYS
            assert isinstance(question["question"], str) and question["question"]
            assert question["expected"] and all(isinstance(c, str) for c in question["expected"])
            rank = question["first_hit_rank"]
            assert rank is None or (isinstance(rank, int) and rank >= 1)
            assert question["reciprocal_rank"] == (0 if rank is None else 1 / rank)
            assert list(question["recall"]) == [str(k) for k in ks]
            assert all(_is_ratio(v) for v in question["recall"].values())
            assert list(question["budget_recall"]) == [str(b) for b in budgets]
            assert all(_is_ratio(v) for v in question["budget_recall"].values())
            assert isinstance(question["tokens_at_50"], int) and question["tokens_at_50"] >= 0
            assert all(isinstance(v, bool) for v in question["complete"].values())
            assert list(question["budget_complete"]) == [str(b) for b in budgets]
            # complete within a budget exactly when it completes within tokens_to_complete
            spent = question["tokens_to_complete"]
            assert question["budget_complete"] == {
                str(b): spent is not None and spent <= b for b in budgets
            }
            assert question["complete"] == {
                k: recall == 1.0 for k, recall in question["recall"].items()
            }
            assert len(question["top_coordinates"]) <= max(ks)
            assert list(question["disposition"]) == [str(k) for k in ks]
            assert set(question["disposition"].values()) <= set(DISPOSITIONS) - {
                "budget_unsatisfied"  # bench cuts at k, never at a budget
            }
        # the summary is the mean of the per-question figures
        for k in ks:
            per = [q["recall"][str(k)] for q in row["per_question"]]
            assert row["recall"][str(k)] == pytest.approx(sum(per) / len(per))
        ranks = [q["reciprocal_rank"] for q in row["per_question"]]
        assert row["mrr"] == pytest.approx(sum(ranks) / len(ranks))
        never = [q["tokens_to_complete"] is None for q in row["per_question"]]
        assert row["never_complete"] == sum(never)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_no_arguments_prints_the_movie_db_tables() -> None:
    result = _bench()
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    targets = sum(len(q.expected_coordinates) for q in MOVIE_QUESTIONS)
    assert out.startswith(
        f"moviedb (bundled) · moviedb-sample.tsv (bundled): {len(MOVIE_QUESTIONS)} questions, "
        f"{targets} targets · tokens in o200k_base\n"
    )
    for header in ("R@1", "R@50", "MRR", "rank p95", "tokens@50", "disp@10", "125 tok"):
        assert header in out
    for header in ("16,000 tok", "C@50", "C≤125", "C≤16k", "p50 tok", "never"):
        assert header in out
    # a pipe gets plain aligned columns: no box, nothing elided, one line per row
    assert "…" not in out and "┃" not in out and "│" not in out
    assert "Traceback" not in result.stderr

    # the tables show the same figures the JSON reports
    row = _json()["rows"][0]
    assert (row["backend"], row["format"]) == ("structural", "DOT_PLUS_GLOSS")
    recall, ranking, budget, complete = (
        line.split() for line in out.splitlines() if line.startswith("structural ")
    )
    assert recall[2:] == [f"{row['recall'][k]:.3f}" for k in ("1", "5", "10", "20", "50")]
    disp = "/".join(str(n) for n in row["dispositions"]["10"].values())
    assert ranking[2:] == [
        f"{row['mrr']:.3f}",
        str(row["rank_p50"]),
        str(row["rank_p95"]),
        str(row["questions_without_hit"]),
        str(round(row["tokens_at_50"])),
        disp,
    ]
    assert budget[2:] == [f"{row['budget_recall'][str(b)]:.3f}" for b in DEFAULT_BUDGETS]
    assert len(complete) == 2 + 1 + len(DEFAULT_BUDGETS) + 2  # every budget, none skipped


def test_json_has_the_documented_shape() -> None:
    payload = _json()
    _check_shape(payload, [1, 5, 10, 20, 50], DEFAULT_BUDGETS)
    assert payload["questions"] == len(MOVIE_QUESTIONS)
    assert payload["targets"] == sum(len(q.expected_coordinates) for q in MOVIE_QUESTIONS)
    assert payload["unknown_coordinates"] == []


def test_json_follows_the_requested_cutoffs_and_budgets() -> None:
    payload = _json("--ks", "3,1", "--budgets", "60,30", "--format", "sdl")
    _check_shape(payload, [1, 3], [30, 60])
    assert payload["rows"][0]["format"] == "SDL"


def test_json_output_is_only_json_on_stdout() -> None:
    result = _bench("--json")
    assert result.exit_code == 0
    assert result.stdout.lstrip().startswith("{")
    json.loads(result.stdout)  # nothing else on stdout (progress goes to stderr)


def test_backends_times_formats_give_one_row_each(monkeypatch: pytest.MonkeyPatch) -> None:
    # a second backend: bm25 with another name, to keep the test fast and offline
    from schemanav.retrieval.bm25 import BM25Backend

    class Renamed(BM25Backend):
        @property
        def name(self) -> str:
            return "bm25-again"

    monkeypatch.setitem(
        BACKENDS,
        "bm25-again",
        BackendSpec(
            "bm25-again",
            NoOptions,
            lambda options, context: Renamed(context.fmt, tokenizer="default"),
        ),
    )
    payload = _json("--backend", "bm25,bm25-again", "--format", "RAW,gloss,SDL")
    _check_shape(payload, [1, 5, 10, 20, 50], DEFAULT_BUDGETS)
    assert [(row["backend"], row["format"]) for row in payload["rows"]] == [
        (backend, fmt) for backend in ("bm25", "bm25-again") for fmt in ("RAW", "GLOSS", "SDL")
    ]


def test_the_tokenizer_flag_reaches_bm25() -> None:
    payload = _json("--backend", "bm25", "-o", "tokenizer", "camel_stem")
    assert payload["rows"][0]["backend"] == "bm25:camel_stem"


def test_malformed_files_list_every_problem(tmp_path: Path) -> None:
    bad = _write(
        tmp_path / "bad.tsv",
        "# header\n"
        "no tab here\n"
        "ok question\tMovie.title\n"
        "two\ttabs\there\n"
        "\tMovie.title\n"
        "question\tnot-a-coordinate\n"
        "question\t\n",
    )
    result = _bench("--bench-file", str(bad))
    assert result.exit_code == 2
    assert result.stdout == ""
    for line in (2, 4, 5, 6, 7):
        assert f"{bad}:{line}:" in result.stderr
    assert f"{bad}:3:" not in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ")


def test_a_file_with_no_questions_is_refused(tmp_path: Path) -> None:
    empty = _write(tmp_path / "empty.tsv", "# only a comment\n\n")
    result = _bench("--bench-file", str(empty))
    assert result.exit_code == 2
    assert f"{empty}: no questions found" in result.stderr


def test_a_missing_bench_file_is_one_line(tmp_path: Path) -> None:
    result = _bench("--bench-file", str(tmp_path / "nope.tsv"))
    assert result.exit_code == 2
    assert "labelled file not found" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_coordinates_warn_and_strict_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tsv = _write(tmp_path / "q.tsv", "the title\tMovie.title,Movie.budgetInDollars\n")
    result = _bench("--bench-file", str(tsv), "--json")
    assert result.exit_code == 0, result.stderr
    assert "warning:" in result.stderr and "Movie.budgetInDollars" in result.stderr
    payload = json.loads(result.stdout)
    assert payload["unknown_coordinates"] == ["Movie.budgetInDollars"]
    assert all(row["recall"]["50"] <= 0.5 for row in payload["rows"])

    strict = _bench("--bench-file", str(tsv), "--strict")
    assert strict.exit_code == 2
    assert strict.stdout == ""
    assert strict.stderr.startswith("error: ") and "Movie.budgetInDollars" in strict.stderr

    monkeypatch.setenv("SCHEMANAV_STRICT", "true")  # the setting works without the flag too
    assert _bench("--bench-file", str(tsv)).exit_code == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "bm25,nope"], "unknown backend 'nope'"),
        (["--format", "DOT_PLUS_GLOSS,PDF"], "unknown format 'PDF'"),
        (["--ks", "0"], "--ks values must be at least 1"),
        (["--budgets", "many"], "invalid --budgets (item 1: 'many')"),
        (["--output", "list,tree"], "unknown output 'tree'"),
        (["--backend", "bm25", "-o", "tokenizer", "klingon"], "unknown BM25 tokenizer"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    result = _bench(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_markdown_holds_every_table(tmp_path: Path) -> None:
    target = tmp_path / "bench.md"
    result = _bench("--format", "RAW,DOT_PLUS_GLOSS", "--markdown", str(target))
    assert result.exit_code == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    assert "| backend | format | R@1 | R@5 | R@10 | R@20 | R@50 |\n" in text
    assert "| backend | format | 125 tok | 250 tok | 500 tok | 1,000 tok | 2,000 tok |" in text
    assert "| backend | format | MRR | rank p50 | rank p95 | no hit | tokens@50 | disp@10 |" in text
    assert "| C@50 | C≤125 | C≤250 | C≤500 | C≤1k | C≤2k | C≤4k | C≤8k | C≤16k | p50 tok |" in text
    assert text.count("| structural | RAW |") == 4
    assert text.count("| structural | DOT_PLUS_GLOSS |") == 4
    assert text.startswith("moviedb (bundled) · moviedb-sample.tsv (bundled): ")
    assert f"wrote {target}" in result.stderr
    # the figures agree with the terminal table
    terminal = [line for line in result.stdout.splitlines() if " RAW " in line]
    markdown = [line for line in text.splitlines() if line.startswith("| structural | RAW |")]
    assert len(terminal) == len(markdown) == 4
    for terminal_line, markdown_line in zip(terminal, markdown, strict=True):
        figures = re.findall(r"\d+\.\d{3}", markdown_line)
        assert figures and re.findall(r"\d+\.\d{3}", terminal_line) == figures


@pytest.mark.slow
def test_plot_draws_three_svg_charts(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    folder = tmp_path / "plots"
    result = _bench("--format", "RAW,GLOSS", "--plot", str(folder), "--json")
    assert result.exit_code == 0, result.stderr
    json.loads(result.stdout)
    charts = sorted(folder.iterdir())
    assert [chart.name for chart in charts] == [
        "complete-by-budget.svg",
        "recall-by-budget.svg",
        "recall-by-depth.svg",
    ]
    for chart in charts:
        svg = chart.read_text(encoding="utf-8")
        assert "<svg" in svg
        if chart.name == "recall-by-depth.svg":
            # structural ranks one list for every format: the lines coincide, drawn once
            assert "structural · RAW = GLOSS" in svg
        else:  # within a budget the formats differ: one line each
            assert "structural · RAW" in svg and "structural · GLOSS" in svg


def test_plot_without_matplotlib_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails as if absent
    result = _bench("--plot", str(tmp_path / "plots"))
    assert result.exit_code == 2  # a missing extra is input the user can fix, like the others
    assert result.stderr.startswith("error: --plot needs matplotlib: pip install ")
    assert "[plot]'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None,
    reason="sentence-transformers (schemanav[local]) is not installed",
)
@pytest.mark.slow
def test_embedding_rows_reuse_the_vector_cache(tmp_path: Path) -> None:
    args = ("--backend", "embedding-local", "--format", "GLOSS")
    first = _json(*args)
    vectors = list((tmp_path / "cache" / "vectors").glob("*.vec"))
    assert len(vectors) == 1
    written = vectors[0].stat().st_mtime_ns
    second = _json(*args)
    assert vectors[0].stat().st_mtime_ns == written  # read back, not re-embedded
    for row in (first["rows"][0], second["rows"][0]):
        row.pop("seconds")
    assert first == second


@pytest.mark.skipif(
    not (SHARED_WG / "github" / "schema.graphql").is_file(),
    reason=f"the Working Group data is not at {SHARED_WG}",
)
@pytest.mark.slow
def test_the_github_slice(tmp_path: Path) -> None:
    fetched = subprocess.run(
        [
            "bash",
            str(REPO_ROOT / "scripts" / "fetch-wg-benchmark.sh"),
            "--from",
            str(SHARED_WG),
            "--out-dir",
            str(tmp_path / "wg"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHON": sys.executable},
        check=False,
    )
    assert fetched.returncode == 0, fetched.stderr
    payload = _json(
        "--schema",
        str(tmp_path / "wg" / "schemas" / "github-wg.graphqls"),
        "--bench-file",
        str(tmp_path / "wg" / "benchmarks" / "github-wg.tsv"),
    )
    _check_shape(payload, [1, 5, 10, 20, 50], DEFAULT_BUDGETS)
    assert payload["questions"] == 200
    assert payload["targets"] == 1038
    assert payload["unknown_coordinates"] == []
    (row,) = payload["rows"]
    assert (row["backend"], row["format"]) == ("structural", "DOT_PLUS_GLOSS")
    # sanity bands: the default backend finds a fair share, far from none and far from all
    assert 0.2 <= row["recall"]["50"] <= 0.8
    recalls = [row["recall"][k] for k in ("1", "5", "10", "20", "50")]
    assert recalls == sorted(recalls)
    budget = [row["budget_recall"][b] for b in ("125", "250", "500", "1000", "2000")]
    assert budget == sorted(budget)
    # DOT_PLUS_GLOSS entries cost tokens: 50 of them are hundreds of tokens, not tens
    assert 200 <= row["tokens_at_50"] <= 2000
    # the default backend's completeness on field labels, as docs/quality.md's GitHub table
    # prints it (share of 200 questions)
    complete = {b: round(row["budget_complete"][b], 3) for b in ("500", "1000", "2000", "4000")}
    assert complete == {"500": 0.305, "1000": 0.435, "2000": 0.55, "4000": 0.655}
    assert round(row["budget_complete"]["16000"], 3) == 0.87
    assert round(row["complete"]["50"], 3) == 0.345
    assert row["never_complete"] == 26  # 200 × (1 − 0.87)
    # what `search --k 10` says of each question (docs/dispositions.md)
    assert row["dispositions"]["10"] == {
        "complete": 147,
        "partial": 6,
        "no_hit": 0,
        "over_k": 47,
        "budget_unsatisfied": 0,
    }


def test_bench_ends_with_what_it_found_in_plain_sentences() -> None:
    result = _bench("-q")
    assert result.exit_code == 0, result.stderr
    payload = _json("-q")
    (row,) = payload["rows"]
    complete = round(row["budget_complete"]["500"] * payload["questions"])
    last, pointer = result.stdout.rstrip("\n").split("\n")[-2:]
    assert last.startswith(f"{payload['questions']} questions, complete meaning every expected")
    assert f"{complete} of {payload['questions']} complete within 500 tokens" in last
    assert f"MRR {row['mrr']:.3f}" in last
    assert "docs/quality.md" in pointer
