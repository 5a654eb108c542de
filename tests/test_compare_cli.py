"""Navigation quality as a CI check, through the command line: `bench --baseline`,
`corpus --baseline` and `diff`, on two versions of the bundled Movie DB.

`tests/data/moviedb-v2.graphqls` is the bundled schema with `Movie.rating` renamed to
`Movie.averageRating`, `Movie.runtimeMinutes` deprecated, the `Studio` type removed (and
from the `SearchResult` union) and the descriptions of `Review.createdAt` and
`Query.search` rewritten. Figures that depend on ranking are never written here: they are
read from `bench --json` and `corpus --json` runs of each version.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from schemanav.bench.metrics import AGGREGATES
from schemanav.cli import app
from schemanav.compare.quality import HIGHER_IS_BETTER, LOWER_IS_BETTER, NOT_COMPARED
from schemanav.schema import bundled_path

OLD = str(bundled_path("moviedb.graphqls"))
NEW = str(Path(__file__).parent / "data" / "moviedb-v2.graphqls")
QUESTIONS = str(bundled_path("moviedb-sample.tsv"))
ROW = "structural · DOT_PLUS_GLOSS · list"
RATING = "How well do critics and audiences rate it?"
RUNTIME = "How long is this film?"
STUDIO_MOVIES = "What films has this production company released?"
STUDIO_FOUNDED = "When was the studio Lumen Pictures founded?"
REVIEW_POSTED = "When was this review posted?"


@pytest.fixture(autouse=True)
def isolated(cache_dir: Path, workdir: Path) -> None:
    """A fresh cache and an empty working directory for every test."""


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _json(*args: str) -> tuple[int, dict[str, Any]]:
    result = _run(*args, "--json")
    assert result.exit_code in (0, 1), result.output
    payload: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, payload


def _baseline(tmp_path: Path, command: str, *args: str) -> str:
    """An earlier `COMMAND --json` result, written where CI would keep it."""
    result = _run(command, "-q", *args, "--json")
    assert result.exit_code == 0, result.output
    path = tmp_path / f"{command}-baseline.json"
    path.write_text(result.stdout, encoding="utf-8")
    return str(path)


def _bad_input(result: Result, *words: str) -> None:
    """Exit 2, one `error:` line naming `words`, nothing on stdout."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert result.stdout == ""


def _per_question(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    (row,) = report["rows"]
    return {question["question"]: question for question in row["per_question"]}


def _completeness(question: dict[str, Any]) -> tuple[Any, Any]:
    return question["complete"], question["budget_complete"]


# --- diff: what the schema change did -----------------------------------------------------


def test_diff_names_each_change_of_the_second_version() -> None:
    code, payload = _json("diff", OLD, NEW, "-q")
    assert code == 1  # breaking changes fail the check
    assert [added["coordinate"] for added in payload["added"]] == ["Movie.averageRating"]
    removed = {gone["coordinate"]: gone for gone in payload["removed"]}
    assert removed["Movie.rating"]["renamed_to"] == "Movie.averageRating"
    assert set(removed) == {
        "Movie.rating", "Studio", "Studio.id", "Studio.name", "Studio.foundedYear", "Studio.movies"
    }  # fmt: skip
    changed = {change["coordinate"]: change["changes"] for change in payload["changed"]}
    assert changed["Movie.runtimeMinutes"] == [
        {
            "aspect": "deprecation",
            "before": None,
            "after": "Runtimes are no longer kept up to date.",
        }
    ]
    (described,) = changed["Review.createdAt"]
    assert described["aspect"] == "description"
    assert described["before"].startswith("The date the review was posted")
    assert described["after"] == "Timestamp of the record's creation (ISO 8601)."
    assert changed["SearchResult"][0]["after"] == "UNION = Movie | Person"
    assert {change["type"] for change in payload["breaking"]} == {
        "TYPE_REMOVED", "FIELD_REMOVED", "TYPE_REMOVED_FROM_UNION"
    }  # fmt: skip
    assert payload["regressed"] is True
    assert payload["bench"] is None and payload["questions_touched"] == []


def test_diff_prices_every_form_before_and_after_as_corpus_does() -> None:
    code, payload = _json("diff", OLD, NEW, "-q", "--allow-breaking")
    assert code == 0  # breaking changes reported, not failed; the schema got cheaper
    forms = {form["form"]: form for form in payload["costs"]["forms"]}
    for side, schema in (("before", OLD), ("after", NEW)):
        _, price = _json("corpus", "-s", schema)
        for fmt, tokens in price["corpus_tokens"].items():
            assert forms[f"corpus {fmt}"][side] == tokens
        assert forms["SDL text"][side] == price["sdl_tokens"]
        assert forms["introspection JSON"][side] == price["introspection_tokens"]
    assert all(form["change"] < 0 for form in forms.values())  # a type removed


def test_diff_with_questions_names_touched_labels_and_completeness_changes() -> None:
    code, payload = _json("diff", OLD, NEW, "-q", "--bench-file", QUESTIONS, "--allow-breaking")
    assert code == 0
    touched = {
        question["question"]: {label["coordinate"]: label["how"] for label in question["labels"]}
        for question in payload["questions_touched"]
    }
    assert touched[RATING] == {"Movie.rating": "renamed to Movie.averageRating?"}
    assert touched[RUNTIME] == {"Movie.runtimeMinutes": "changed deprecation"}
    assert touched[STUDIO_MOVIES] == {"Studio.movies": "removed"}
    assert touched[STUDIO_FOUNDED]["Studio.foundedYear"] == "removed"
    assert touched[REVIEW_POSTED] == {"Review.createdAt": "changed description"}
    assert "Who directed this film?" not in touched

    # The questions whose completeness changed are exactly those whose per-question
    # completeness differs between `bench --json` on each version.
    _, before = _json("bench", "-q", "-s", OLD, "--bench-file", QUESTIONS)
    _, after = _json("bench", "-q", "-s", NEW, "--bench-file", QUESTIONS)
    old_questions, new_questions = _per_question(before), _per_question(after)
    differing = {
        text
        for text in old_questions
        if _completeness(old_questions[text]) != _completeness(new_questions[text])
    }
    (row,) = payload["bench"]["rows"]
    changes = {question["question"]: question for question in row["questions"]}
    assert set(changes) == differing
    # A label the new schema lacks can never be shown: those questions are never complete.
    for text in (RATING, STUDIO_MOVIES, STUDIO_FOUNDED):
        assert changes[text]["tokens_after"] is None and changes[text]["gained"] == []
        assert changes[text]["tokens_before"] == old_questions[text]["tokens_to_complete"]


def test_diff_text_shows_each_change_and_the_verdict() -> None:
    result = _run("diff", OLD, NEW, "-q", "--bench-file", QUESTIONS)
    assert result.exit_code == 1
    out = result.stdout
    for text in (
        "Movie.rating",
        "renamed to Movie.averageRating?",
        "Runtimes are no longer kept up to date.",
        "Timestamp of the record's creation",
        "Studio.foundedYear",
        RATING,
        STUDIO_MOVIES,
        "regression (exit 1)",
    ):
        assert text in out
    assert "regression: breaking: Studio was removed." in result.stderr


def test_diff_max_drop_fails_naming_row_measure_and_questions() -> None:
    args = ("diff", OLD, NEW, "-q", "--bench-file", QUESTIONS, "--allow-breaking")
    strict = _run(*args, "--max-drop", "0.05")
    assert strict.exit_code == 1
    lines = [line for line in strict.stderr.splitlines() if line.startswith("regression: ")]
    assert lines and all(ROW in line for line in lines)
    within = [line for line in lines if "C≤16k fell" in line]
    assert len(within) == 1 and f'"{RATING}"' in within[0] and f'"{STUDIO_MOVIES}"' in within[0]
    assert "stopped being complete within 16,000 tokens" in within[0]
    assert _run(*args, "--max-drop", "1").exit_code == 0


def test_diff_markdown_is_a_comment_with_the_worst_three_first(tmp_path: Path) -> None:
    comment = tmp_path / "comment.md"
    result = _run(
        "diff", OLD, NEW, "-q", "--bench-file", QUESTIONS, "--allow-breaking",
        "--markdown", str(comment),
    )  # fmt: skip
    assert result.exit_code == 0
    text = comment.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].endswith(": no regression (exit 0)")
    start = lines.index("**Worst changes**") + 2
    worst = lines[start : start + 3]
    assert [line[:3] for line in worst] == ["1. ", "2. ", "3. "]
    # Breaking changes, allowed, still lead; then the questions that stopped being complete.
    assert worst[0].startswith("1. breaking: ")
    assert lines[start + 3] == ""
    assert "stopped being complete" in text and "<details>" in text
    assert "- 1 coordinate with deprecation changed: Movie.runtimeMinutes" in lines
    assert "- 1 coordinate added: Movie.averageRating" in lines
    assert len(text) < 20_000


def test_diff_refuses_bad_input(tmp_path: Path) -> None:
    _bad_input(_run("diff", OLD, str(tmp_path / "missing.graphqls")), "missing.graphqls")
    _bad_input(_run("diff", OLD, NEW, "--max-drop", "2"), "--max-drop 2")
    _bad_input(_run("diff", OLD, NEW, "--max-growth", "-1"), "--max-growth -1")
    _bad_input(_run("diff", OLD, NEW, "--max-drop", "0.1"), "--max-drop needs --bench-file")
    broken = tmp_path / "broken.graphqls"
    broken.write_text("type Query {", encoding="utf-8")
    _bad_input(_run("diff", OLD, str(broken)), "broken.graphqls")


# --- bench --baseline ---------------------------------------------------------------------


def test_every_aggregate_has_a_direction() -> None:
    """A new aggregate must say whether more is better before baselines compare it."""
    keys = {aggregate.key for aggregate in AGGREGATES}
    assert keys == HIGHER_IS_BETTER | LOWER_IS_BETTER | NOT_COMPARED
    assert not HIGHER_IS_BETTER & LOWER_IS_BETTER


def test_bench_against_its_own_baseline_changes_nothing(tmp_path: Path) -> None:
    baseline = _baseline(tmp_path, "bench")
    code, payload = _json("bench", "-q", "--baseline", baseline, "--max-drop", "0")
    assert code == 0
    comparison = payload["baseline"]
    assert comparison["regressed"] is False and comparison["regressions"] == []
    (row,) = comparison["rows"]
    assert row["questions"] == []
    assert row["measures"] and all(m["change"] in (0, None) for m in row["measures"])
    # The output, baseline and all, is itself a baseline for the next run.
    chained = tmp_path / "chained.json"
    chained.write_text(json.dumps(payload), encoding="utf-8")
    assert _run("bench", "-q", "--baseline", str(chained)).exit_code == 0


def test_bench_baseline_reports_each_measure_and_fails_past_max_drop(tmp_path: Path) -> None:
    baseline = _baseline(tmp_path, "bench", "--bench-file", QUESTIONS)
    args = ("bench", "-q", "-s", NEW, "--bench-file", QUESTIONS, "--baseline", baseline)
    code, payload = _json(*args)
    assert code == 0  # no --max-drop: reported, not failed
    _, before = _json("bench", "-q", "--bench-file", QUESTIONS)
    (row,) = payload["baseline"]["rows"]
    measures = {(m["measure"], m["at"]): m for m in row["measures"]}
    (before_row,) = before["rows"]
    (after_row,) = payload["rows"]
    for budget in payload["budgets"]:
        measure = measures[("budget_complete", budget)]
        assert measure["before"] == pytest.approx(before_row["budget_complete"][str(budget)])
        assert measure["after"] == pytest.approx(after_row["budget_complete"][str(budget)])
    assert measures[("mrr", None)]["change"] == pytest.approx(after_row["mrr"] - before_row["mrr"])

    failed = _run(*args, "--max-drop", "0")
    assert failed.exit_code == 1
    line = next(line for line in failed.stderr.splitlines() if "C≤16k fell" in line)
    assert line.startswith(f"regression: {ROW}: C≤16k fell")
    assert f'"{RATING}"' in line and f'"{STUDIO_FOUNDED}"' in line
    assert "schemanav bench: regression (exit 1)" in failed.stdout
    assert f"{ROW}: measures against the baseline" in failed.stdout
    assert "Questions whose completeness changed" in failed.stdout


def test_bench_baseline_compares_relabelled_questions(tmp_path: Path) -> None:
    """The labels follow the rename: the question stays complete and is listed as relabelled."""
    baseline = _baseline(tmp_path, "bench", "--bench-file", QUESTIONS)
    relabelled = tmp_path / "relabelled.tsv"
    text = Path(QUESTIONS).read_text(encoding="utf-8")
    relabelled.write_text(text.replace("\tMovie.rating\n", "\tMovie.averageRating\n"), "utf-8")
    code, payload = _json(
        "bench", "-q", "-s", NEW, "--bench-file", str(relabelled), "--baseline", baseline
    )
    assert code == 0
    assert payload["baseline"]["relabelled"] == [RATING]
    (row,) = payload["baseline"]["rows"]
    assert RATING not in {question["question"] for question in row["questions"]}


def test_bench_baseline_markdown_leads_with_the_worst_three(tmp_path: Path) -> None:
    baseline = _baseline(tmp_path, "bench")
    comment = tmp_path / "bench.md"
    result = _run(
        "bench", "-q", "-s", NEW, "--baseline", baseline, "--max-drop", "0.01",
        "--markdown", str(comment),
    )  # fmt: skip
    assert result.exit_code == 1
    lines = comment.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "### schemanav bench: regression (exit 1)"
    start = lines.index("**Worst changes**") + 2
    assert all(" fell " in line and ROW in line for line in lines[start : start + 3])
    # The changes, folded under the summary; not the whole bench tables.
    assert f"**{ROW}: measures against the baseline**" in lines
    assert "**Recall@k**" not in lines


def test_bench_baseline_refuses_what_does_not_match(tmp_path: Path) -> None:
    baseline = _baseline(tmp_path, "bench")
    _bad_input(_run("bench", "--baseline", baseline, "--budgets", "100,200"), "budgets", "100,200")
    # Refused before the run: the missing question file is never read.
    missing = str(tmp_path / "missing.tsv")
    _bad_input(
        _run("bench", "--baseline", baseline, "--budgets", "100", "--bench-file", missing),
        "budgets",
    )
    _bad_input(_run("bench", "--baseline", baseline, "--ks", "1,5"), "ks")
    _bad_input(_run("bench", "--baseline", baseline, "--output", "slice"), "outputs")
    _bad_input(_run("bench", "--baseline", baseline, "--backend", "bm25"), "backends")
    _bad_input(_run("bench", "--baseline", baseline, "--format", "SDL"), "formats")
    fewer = tmp_path / "fewer.tsv"
    lines = Path(QUESTIONS).read_text(encoding="utf-8").splitlines()
    fewer.write_text("\n".join(line for line in lines if RATING not in line), "utf-8")
    _bad_input(
        _run("bench", "--baseline", baseline, "--bench-file", str(fewer)), "only there", RATING
    )


def test_bench_baseline_refuses_a_file_that_is_not_a_bench_result(tmp_path: Path) -> None:
    _bad_input(_run("bench", "--baseline", str(tmp_path / "none.json")), "not found")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    _bad_input(_run("bench", "--baseline", str(garbage)), "not JSON")
    price = _baseline(tmp_path, "corpus")
    _bad_input(_run("bench", "--baseline", price), "not a `schemanav bench --json` result")
    _bad_input(_run("bench", "--max-drop", "0.1"), "--max-drop needs --baseline")


# --- corpus --baseline --------------------------------------------------------------------


def test_corpus_baseline_gives_each_form_and_fails_past_max_growth(tmp_path: Path) -> None:
    smaller = _baseline(tmp_path, "corpus", "-s", NEW)
    _, price = _json("corpus")
    code, payload = _json("corpus", "--baseline", smaller, "--max-growth", "50")
    assert code == 0
    _, new_price = _json("corpus", "-s", NEW)
    forms = {form["form"]: form for form in payload["baseline"]["forms"]}
    assert forms["SDL text"]["before"] == new_price["sdl_tokens"]
    assert forms["SDL text"]["after"] == price["sdl_tokens"]
    growth = forms["introspection JSON"]
    assert growth["percent"] == pytest.approx(100 * growth["change"] / growth["before"])

    # The bundled schema is the larger one: past a 1% allowance that is a regression.
    comment = tmp_path / "corpus.md"
    failed = _run("corpus", "--baseline", smaller, "--max-growth", "1", "--markdown", str(comment))
    assert failed.exit_code == 1
    grown = [line for line in failed.stderr.splitlines() if line.startswith("regression: ")]
    assert any(line.startswith("regression: SDL text: ") for line in grown)
    assert comment.read_text(encoding="utf-8").startswith("### schemanav corpus: regression")
    # Shrinking is never a regression.
    larger = _baseline(tmp_path, "corpus")
    assert _run("corpus", "-s", NEW, "--baseline", larger, "--max-growth", "0").exit_code == 0


def test_corpus_baseline_refuses_bad_input(tmp_path: Path) -> None:
    bench = _baseline(tmp_path, "bench")
    _bad_input(_run("corpus", "--baseline", bench), "not a `schemanav corpus --json` result")
    _bad_input(_run("corpus", "--max-growth", "5"), "--max-growth needs --baseline")
    _bad_input(_run("corpus", "--markdown", str(tmp_path / "x.md")), "--baseline")
    price = _baseline(tmp_path, "corpus")
    refused = _run("corpus", "--baseline", price, "--max-growth", "-3")
    _bad_input(refused, "is not a percentage of 0 or more")


def test_diff_reads_arguments_defaults_enum_values_and_directives(tmp_path: Path) -> None:
    """Every kind of coordinate is compared; graphql-core says which changes are dangerous."""
    old = tmp_path / "old.graphqls"
    new = tmp_path / "new.graphqls"
    old.write_text(
        "directive @cost(weight: Int = 1) on FIELD_DEFINITION\n"
        "enum Color { RED }\n"
        "type Query { paint(color: Color, coats: Int = 1): String @cost }\n",
        encoding="utf-8",
    )
    new.write_text(
        "directive @cost(weight: Int = 2) on FIELD_DEFINITION\n"
        'enum Color { RED @deprecated(reason: "Use BLUE.") BLUE }\n'
        "type Query { paint(color: Color, coats: Int = 2, gloss: Boolean): String @cost }\n",
        encoding="utf-8",
    )
    code, payload = _json("diff", str(old), str(new), "-q")
    assert code == 0  # nothing breaking
    assert [added["coordinate"] for added in payload["added"]] == [
        "Color.BLUE", "Query.paint(gloss:)"
    ]  # fmt: skip
    changed = {
        change["coordinate"]: {aspect["aspect"]: aspect for aspect in change["changes"]}
        for change in payload["changed"]
    }
    assert changed["Query.paint(coats:)"]["type"]["after"] == "Int = 2"
    assert changed["Query.paint"]["arguments"]["after"] == (
        "color: Color, coats: Int = 2, gloss: Boolean"
    )
    assert changed["Color.RED"]["deprecation"]["after"] == "Use BLUE."
    assert changed["@cost(weight:)"]["type"] == {
        "aspect": "type", "before": "Int = 1", "after": "Int = 2"
    }  # fmt: skip
    assert {change["type"] for change in payload["dangerous"]} == {
        "VALUE_ADDED_TO_ENUM", "OPTIONAL_ARG_ADDED", "ARG_DEFAULT_VALUE_CHANGE"
    }  # fmt: skip


def test_bench_baseline_refuses_a_tampered_result(tmp_path: Path) -> None:
    """A file shaped almost like a bench result is refused with one line, never a traceback."""
    payload = json.loads(Path(_baseline(tmp_path, "bench")).read_text(encoding="utf-8"))
    tampered = tmp_path / "tampered.json"
    changes: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda p: p.update(ks=["five"]), "'ks' holds something other than whole numbers"),
        (lambda p: p["rows"].append(dict(p["rows"][0], per_question=[])), "different questions"),
        (lambda p: p["rows"][0]["per_question"][0].pop("complete"), "no 'complete'"),
        (lambda p: p.pop("rows"), "no 'rows' list"),
    ]
    for change, words in changes:
        broken = json.loads(json.dumps(payload))
        change(broken)
        tampered.write_text(json.dumps(broken), encoding="utf-8")
        _bad_input(_run("bench", "--baseline", str(tampered)), words)


def test_diff_markdown_shows_schema_text_literally(tmp_path: Path) -> None:
    """A description is the schema author's text: in a pull-request comment it is shown, never
    run as HTML, and a table cell keeps one line."""
    old = tmp_path / "old.graphqls"
    new = tmp_path / "new.graphqls"
    old.write_text('type Query {\n  "Plain."\n  a: Int\n}\n', encoding="utf-8")
    new.write_text(
        'type Query {\n  """\n  <img src=x onerror=alert(1)> | a\n  second line\n'
        '  """\n  a: Int\n}\n',
        encoding="utf-8",
    )
    comment = tmp_path / "comment.md"
    assert _run("diff", str(old), str(new), "-q", "--markdown", str(comment)).exit_code == 0
    text = comment.read_text(encoding="utf-8")
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    (row,) = [line for line in text.splitlines() if line.startswith("| Query.a |")]
    assert "\\| a second line" in row


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_max_growth_that_can_never_trip_is_refused(
    cache_dir: Path, workdir: Path, user_error: Callable[..., str], value: str
) -> None:
    """`--max-growth nan` was accepted, and a NaN limit is never exceeded: the gate never
    tripped."""
    from schemanav.schema import bundled_path

    moviedb = str(bundled_path("moviedb.graphqls"))
    result = CliRunner().invoke(app, ["diff", moviedb, moviedb, "--max-growth", value])
    user_error(result, "is not a percentage of 0 or more")
