"""The bench runner: one ranked list per question and combination, scored as the metrics say."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import pytest

from schemanav.bench.metrics import View
from schemanav.bench.runner import (
    OUTPUTS,
    SliceOutput,
    bench_formats,
    bench_outputs,
    judge_dispositions,
    list_depth,
    run_bench,
)
from schemanav.corpus import Corpus, Format, open_corpus
from schemanav.errors import InputError
from schemanav.navigator import Navigator
from schemanav.retrieval import Ranking, SearchHit
from schemanav.retrieval.pipeline import BACKENDS
from schemanav.retrieval.registry import BackendSpec, NoOptions
from schemanav.settings import Settings, load_settings

if TYPE_CHECKING:
    from conftest import BenchFiles

SCHEMA = """
type Query { movie(id: ID!): Movie  movies: [Movie!]! }
type Movie { id: ID!  title: String!  year: Int }
"""

# The fixed rankings the scripted backend returns, per question.
RANKINGS = {
    "title of a movie": ["Query.movie", "Movie.title", "Movie.id"],
    "year and id": ["Movie.id", "Query.movies", "Movie.year"],
    "nothing matches": [],
}
QUESTIONS = (
    "title of a movie\tMovie.title\n"
    "# a comment line\n"
    "year and id\tMovie.year,Movie.id\n"
    "nothing matches\tQuery.movies\n"
)


class ScriptedBackend:
    """Returns RANKINGS[question][:k] and records every call, to check how bench asks."""

    calls: ClassVar[list[tuple[str, str, int]]] = []

    def __init__(self, fmt: Format) -> None:
        self.fmt = fmt

    def index(self, corpus: Corpus) -> ScriptedSearcher:
        return ScriptedSearcher(self.fmt, corpus)


@dataclass(frozen=True)
class ScriptedSearcher:
    fmt: Format
    corpus: Corpus
    name: str = "scripted"

    def search(self, query: str, k: int) -> list[SearchHit]:
        ScriptedBackend.calls.append((self.fmt.value, query, k))
        position = {c: i for i, c in enumerate(self.corpus.coordinates)}
        texts = self.corpus.texts(self.fmt)
        tokens = self.corpus.token_counts(self.fmt)
        return [
            SearchHit(c, texts[position[c]], 1.0 / rank, rank, tokens[position[c]])
            for rank, c in enumerate(RANKINGS[query][:k], start=1)
        ]


class Recorder:
    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.notes: list[str] = []
        self.progress_calls: list[tuple[str, int, int]] = []
        self.phases: list[str] = []

    def warning(self, message: str) -> None:
        self.warnings.append(message)

    def note(self, message: str) -> None:
        self.notes.append(message)

    def progress(self, description: str, done: int, total: int) -> None:
        self.progress_calls.append((description, done, total))

    @contextmanager
    def phase(self, description: str) -> Iterator[None]:
        self.phases.append(description)
        yield


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    ScriptedBackend.calls = []
    spec = BackendSpec("scripted", NoOptions, lambda options, context: ScriptedBackend(context.fmt))
    monkeypatch.setitem(BACKENDS, "scripted", spec)


def _settings(tmp_path: Path, questions: str = QUESTIONS, **flags: object) -> Settings:
    schema = tmp_path / "schema.graphqls"
    schema.write_text(SCHEMA)
    bench_file = tmp_path / "questions.tsv"
    bench_file.write_text(questions)
    return load_settings(
        schema=str(schema), bench_file=str(bench_file), cache_dir=tmp_path / "cache", **flags
    )


def _choose(settings: Settings, **lists: list[str]) -> Settings:
    """`settings` measuring these backends, formats or outputs (lists, as `Settings` holds)."""
    return settings.model_copy(update=lists)


def test_list_depth_covers_the_deepest_cutoff_and_the_largest_budget() -> None:
    assert list_depth([3] * 1000, [1, 5, 50], [10]) == 100  # the floor
    assert list_depth([3] * 1000, [1, 500], [10]) == 501  # one past the deepest k (over_k)
    # 251 one-token entries are the fewest whose cost exceeds 250: the walk must see one
    # that does not fit, or recall at that budget could be cut short.
    assert list_depth([1] * 1000, [1], [125, 250]) == 251
    # the cheapest entries decide, whatever their order in the corpus
    assert list_depth([50] * 300 + [1] * 200, [1], [249]) == 201  # 200 × 1 + 50 > 249
    # a corpus too small to exceed the budget: fetch everything there is (at least the floor)
    assert list_depth([1, 1, 1], [1], [2000]) == 100
    assert list_depth([1] * 150, [1], [2000]) == 150


def test_comma_lists_are_split_and_formats_parsed() -> None:
    assert load_settings(backend=" bm25, embedding-local ,,bm25").backend == [
        "bm25",
        "embedding-local",
    ]
    assert load_settings(backend=["bm25", " bm25"]).backend == ["bm25"]
    formats = bench_formats(load_settings(format="raw,dot-plus-gloss,RAW"))
    assert formats == [Format.RAW, Format.DOT_PLUS_GLOSS]
    with pytest.raises(InputError, match="unknown format 'PDF'"):
        bench_formats(load_settings(format="RAW,PDF"))
    with pytest.raises(InputError, match="--format is empty"):
        bench_formats(load_settings(format=" , "))


def test_scores_each_question_from_one_ranked_list(tmp_path: Path, scripted: None) -> None:
    settings = _settings(tmp_path, ks="1,5", budgets="1,100000")
    events = Recorder()
    report = run_bench(_choose(settings, backend=["scripted"], format=["RAW", "SDL"]), events)

    # one search per question and format, all at the same depth
    depth = 100  # the floor: the tiny corpus never exceeds a 100,000-token budget
    assert sorted(ScriptedBackend.calls) == sorted(
        (fmt, question, depth) for fmt in ("RAW", "SDL") for question in RANKINGS
    )
    assert [(row.backend, row.format) for row in report.rows] == [
        ("scripted", "RAW"),
        ("scripted", "SDL"),
    ]
    assert report.question_count == 3
    assert report.target_count == 4
    assert report.ks == (1, 5)
    assert report.budgets == (1, 100000)

    row = report.rows[0]
    summary = row.summary
    # hand-worked: ranks 2, 1 and none; recall@1 = (0 + 1/2 + 0) / 3; recall@5 = (1 + 1 + 0) / 3
    assert summary.values["recall"] == pytest.approx({1: 0.5 / 3, 5: 2 / 3})
    assert summary.at("mrr") == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert (summary.at("rank_p50"), summary.at("rank_p95")) == (1, 2)
    assert summary.at("questions_without_hit") == 1
    # no entry fits in one token; everything fits in 100,000
    assert summary.values["budget_recall"] == pytest.approx({1: 0.0, 100000: 2 / 3})
    # complete: questions 1 and 2 within 5 hits (not within 1), none within 1 token
    assert summary.values["complete"] == pytest.approx({1: 0.0, 5: 2 / 3})
    assert summary.values["budget_complete"] == pytest.approx({1: 0.0, 100000: 2 / 3})
    assert summary.at("never_complete") == 1
    # the first hit alone never reaches a leaf; within 5, Query.movie(s) → Movie → a scalar
    none = {"complete": 0, "partial": 0, "no_hit": 0, "over_k": 0, "budget_unsatisfied": 0}
    assert summary.values["dispositions"] == {
        1: none | {"partial": 2, "no_hit": 1},
        5: none | {"complete": 2, "no_hit": 1},
    }
    assert [run.result.at("disposition", 5) for run in row.questions] == [
        "complete",
        "complete",
        "no_hit",
    ]
    assert [run.result.at("first_hit_rank") for run in row.questions] == [2, 1, None]
    assert row.output == "list"
    assert row.questions[0].top_coordinates == ("Query.movie", "Movie.title", "Movie.id")
    assert row.list_depth == depth
    assert row.seconds >= 0

    # a progress bar per combination, from 0 to every question
    for label in ("scripted · RAW (1/2)", "scripted · SDL (2/2)"):
        mine = [
            (done, total)
            for description, done, total in events.progress_calls
            if description == label
        ]
        assert mine[0] == (0, 3)
        assert mine[-1] == (3, 3)
    assert events.warnings == []
    # a spinner while the corpus loads (a cold one parses, renders and counts tokens)
    assert events.phases[0] == f"reading {settings.schema}: parsing, rendering, counting tokens"


def test_a_tie_at_the_cut_is_over_k_read_from_the_hit_past_it(tmp_path: Path) -> None:
    corpus = open_corpus(_settings(tmp_path)).corpus
    tied = [
        SearchHit("Query.movie", "", 3.0, 1, 5),
        SearchHit("Movie.title", "", 2.0, 2, 5),
        SearchHit("Movie.id", "", 2.0, 3, 5),
    ]
    # k=1: 3.0 then 2.0, a clean cut; k=2: the third hit ties the second; k=3: nothing past
    assert judge_dispositions(Ranking.of(tied), corpus, [1, 2, 3]) == {
        1: "partial",
        2: "over_k",
        3: "complete",
    }


def test_a_question_starting_with_hash_is_read_and_warned_about(
    tmp_path: Path, scripted: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions = "# a comment\n#title of a movie\tMovie.title\n"
    monkeypatch.setitem(RANKINGS, "#title of a movie", ["Movie.title"])
    events = Recorder()
    settings = _settings(tmp_path, questions)
    report = run_bench(_choose(settings, backend=["scripted"], format=["RAW"]), events)
    assert report.question_count == 1
    assert events.warnings == [
        "1 question is read although it starts with '#' (a line with a tab is a question; "
        f"a comment has no tab): {settings.bench_file}:2"
    ]


def test_top_coordinates_stop_at_the_deepest_cutoff(tmp_path: Path, scripted: None) -> None:
    report = run_bench(_choose(_settings(tmp_path, ks="2"), backend=["scripted"], format=["RAW"]))
    assert report.rows[0].questions[0].top_coordinates == ("Query.movie", "Movie.title")
    payload = report.as_dict()
    assert payload["rows"][0]["per_question"][0]["top_coordinates"] == [
        "Query.movie",
        "Movie.title",
    ]


def test_tokens_at_50_sum_the_costs_of_the_hits(tmp_path: Path, scripted: None) -> None:
    settings = _settings(tmp_path)
    report = run_bench(_choose(settings, backend=["scripted"], format=["GLOSS"]))
    from schemanav.corpus import open_corpus
    from schemanav.tokens import count_tokens

    corpus = open_corpus(settings).corpus
    cost = dict(zip(corpus.coordinates, corpus.texts(Format.GLOSS), strict=True))
    expected = [sum(count_tokens(cost[c]) for c in ranking) for ranking in RANKINGS.values()]
    assert [run.result.at("tokens_at_50") for run in report.rows[0].questions] == expected
    assert report.rows[0].summary.at("tokens_at_50") == pytest.approx(sum(expected) / 3)


def test_rows_are_the_product_of_backends_and_formats(tmp_path: Path, scripted: None) -> None:
    report = run_bench(
        _choose(_settings(tmp_path), backend=["bm25", "scripted"], format=["RAW", "GLOSS"])
    )
    assert [(row.backend, row.format) for row in report.rows] == [
        ("bm25", "RAW"),
        ("bm25", "GLOSS"),
        ("scripted", "RAW"),
        ("scripted", "GLOSS"),
    ]


def test_defaults_come_from_settings(tmp_path: Path) -> None:
    report = run_bench(_settings(tmp_path, format="gloss"))
    assert [(row.backend, row.format) for row in report.rows] == [("structural", "GLOSS")]
    assert report.ks == (1, 5, 10, 20, 50)
    assert report.budgets == (125, 250, 500, 1000, 2000, 4000, 8000, 16000)
    assert report.outputs == ("list",)


def test_unknown_coordinates_warn_and_count_as_misses(tmp_path: Path, scripted: None) -> None:
    questions = "title of a movie\tMovie.title,Movie.rating,Studio.name\n"
    events = Recorder()
    report = run_bench(
        _choose(_settings(tmp_path, questions), backend=["scripted"], format=["RAW"]), events
    )
    assert report.unknown_coordinates == ("Movie.rating", "Studio.name")
    assert len(events.warnings) == 1
    assert "Movie.rating, Studio.name" in events.warnings[0]
    assert report.rows[0].summary.at("recall", 50) == pytest.approx(1 / 3)


def test_strict_refuses_unknown_coordinates(tmp_path: Path, scripted: None) -> None:
    settings = _settings(tmp_path, "q\tMovie.rating\n", strict=True)
    with pytest.raises(InputError, match=r"Movie\.rating.*--strict"):
        run_bench(_choose(settings, backend=["scripted"], format=["RAW"]))
    assert ScriptedBackend.calls == []


def test_an_unknown_backend_is_refused_before_anything_runs(tmp_path: Path, scripted: None) -> None:
    with pytest.raises(InputError, match=r"unknown backend 'nope'.*bm25"):
        run_bench(_choose(_settings(tmp_path), backend=["scripted", "nope"], format=["RAW"]))
    assert ScriptedBackend.calls == []


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"ks": "0,5"}, "--ks values must be at least 1"),
        ({"budgets": "0"}, "--budgets values must be at least 1"),
        ({"ks": ","}, "--ks is empty"),
    ],
)
def test_bad_cutoffs_are_refused(tmp_path: Path, flags: dict[str, str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        run_bench(_settings(tmp_path, **flags))


def test_arguments_and_types_count_where_the_rendering_shows_them(
    tmp_path: Path, scripted: None
) -> None:
    # ranking: Query.movie, Movie.title, Movie.id
    questions = "title of a movie\tQuery.movie(id:),Movie.title,Movie\n"
    report = run_bench(
        _choose(
            _settings(tmp_path, questions, ks="1,5"),
            backend=["scripted"],
            format=["RAW", "GLOSS", "SDL"],
        )
    )
    assert report.targets_by_kind == {"field": 1, "argument": 1, "type": 1}
    recall = {row.format: row.summary.values["recall"] for row in report.rows}
    complete = {row.format: row.summary.at("complete", 5) for row in report.rows}
    # RAW shows coordinates (and so their owners): Movie.title and Movie at 2, never the argument
    assert recall["RAW"] == pytest.approx({1: 0.0, 5: 2 / 3})
    # GLOSS also prints the return type: Query.movie's `Returns: Movie` at 1; no arguments
    assert recall["GLOSS"] == pytest.approx({1: 1 / 3, 5: 2 / 3})
    # SDL prints `movie(id: ID!): Movie`: the argument and the type at 1, the field at 2
    assert recall["SDL"] == pytest.approx({1: 2 / 3, 5: 1.0})
    assert complete == {"RAW": 0.0, "GLOSS": 0.0, "SDL": 1.0}


def test_field_labels_score_the_same_in_every_rendering(tmp_path: Path, scripted: None) -> None:
    report = run_bench(_choose(_settings(tmp_path), backend=["scripted"], format=["RAW", "SDL"]))
    raw, sdl = (row.summary.values for row in report.rows)
    for key in ("recall", "mrr", "rank_p50", "complete"):
        assert raw[key] == sdl[key]


def test_unknown_arguments_and_types_are_reported(tmp_path: Path, scripted: None) -> None:
    questions = (
        "nothing matches\tQuery.movie(id:),Query.movie(first:),Movie,Studio,Movie.title(x:)\n"
    )
    report = run_bench(
        _choose(_settings(tmp_path, questions), backend=["scripted"], format=["RAW"]), Recorder()
    )
    assert report.unknown_coordinates == ("Movie.title(x:)", "Query.movie(first:)", "Studio")


class ScriptedSlice:
    """A stand-in slicer: within budget B it holds the first B // 10 ranked fields, their
    owner types and every argument of those fields, at 9 tokens a field."""

    def __init__(self, corpus: Corpus) -> None:
        self.arguments = {
            entry.coordinate: [f"{entry.coordinate}({a.name}:)" for a in entry.arguments]
            for entry in corpus.entries
        }

    def __call__(self, question: str, ranking: Ranking, budget: int) -> View:
        fields = list(ranking.coordinates[: budget // 10])
        shown = {*fields, *(f.split(".")[0] for f in fields)}
        shown.update(a for f in fields for a in self.arguments[f])
        return View(frozenset(shown), 9 * len(fields))


def test_an_output_axis_scores_lists_and_slices_side_by_side(
    tmp_path: Path, scripted: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def scripted_slice(navigator: Navigator, fmt: Format) -> SliceOutput:
        return SliceOutput(ScriptedSlice(navigator.corpus))

    monkeypatch.setitem(OUTPUTS, "scripted-slice", scripted_slice)
    questions = "title of a movie\tQuery.movie(id:),Movie.title\nyear and id\tMovie.year\n"
    settings = _settings(tmp_path, questions, ks="1,5", budgets="10,20,100")
    report = run_bench(
        _choose(settings, backend=["scripted"], format=["RAW"], output=["list", "scripted-slice"])
    )
    assert [(row.format, row.output) for row in report.rows] == [
        ("RAW", "list"),
        ("RAW", "scripted-slice"),
    ]
    assert report.outputs == ("list", "scripted-slice")
    listed, sliced = report.rows
    # one search per question serves both outputs
    assert len(ScriptedBackend.calls) == 2
    # the slice holds Query.movie and its argument within 10 tokens, Movie.title within 20:
    # question 1 complete at 18 tokens (2 fields × 9); question 2's Movie.year is 3rd: 27
    assert sliced.summary.values["budget_complete"] == pytest.approx({10: 0.0, 20: 0.5, 100: 1.0})
    assert [run.result.at("tokens_to_complete") for run in sliced.questions] == [18, 27]
    # a slice is no ranked list: no recall@k, rank or tokens@50 (– in the tables)
    assert sliced.summary.at("mrr") is None
    assert sliced.summary.values["recall"] == {1: None, 5: None}
    # the RAW list never shows the argument, so question 1 never completes
    assert listed.summary.at("never_complete") == 1
    payload = report.as_dict()
    assert [row["output"] for row in payload["rows"]] == ["list", "scripted-slice"]
    assert payload["rows"][1]["mrr"] is None


def test_slices_are_built_once_per_question_and_budget_whatever_the_formats(
    tmp_path: Path, scripted: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[tuple[str, int]] = []

    def slice_output(navigator: Navigator, fmt: Format) -> SliceOutput:
        slicer = ScriptedSlice(navigator.corpus)

        def build(question: str, ranking: Ranking, budget: int) -> View:
            built.append((question, budget))
            return slicer(question, ranking, budget)

        return SliceOutput(build)

    monkeypatch.setitem(OUTPUTS, "slice", slice_output)
    questions = "title of a movie\tQuery.movie(id:),Movie.title\nyear and id\tMovie.year\n"
    settings = _settings(tmp_path, questions, ks="1,5", budgets="10,20,100")
    report = run_bench(
        _choose(settings, backend=["scripted"], format=["RAW", "SDL"], output=["slice"])
    )
    # The scripted backend ranks alike in both formats: 2 questions × 3 budgets, once.
    asked = ("title of a movie", "year and id")
    assert sorted(built) == sorted((q, b) for q in asked for b in (10, 20, 100))
    raw, sdl = report.rows
    assert (raw.format, sdl.format) == ("RAW", "SDL")
    assert raw.summary == sdl.summary
    assert raw.summary.values["budget_complete"] == pytest.approx({10: 0.0, 20: 0.5, 100: 1.0})


def test_a_slice_output_rebuilds_for_another_ranking_of_the_same_question() -> None:
    built: list[tuple[str, ...]] = []

    def build(question: str, ranking: Ranking, budget: int) -> View:
        built.append(tuple(ranking.coordinates))
        return View(frozenset(ranking.coordinates[:1]), budget)

    def ranked(*coordinates: str) -> Ranking:
        return Ranking(coordinates, (1.0,) * len(coordinates))

    output = SliceOutput(build)
    first = output.observe("q", ranked("Movie.id", "Movie.title"), ["Movie.title"], [10])
    assert output.observe("q", ranked("Movie.id", "Movie.title"), ["Movie.title"], [10]) == first
    other = output.observe("q", ranked("Movie.title", "Movie.id"), ["Movie.title"], [10, 20])
    assert built == [("Movie.id", "Movie.title")] + [("Movie.title", "Movie.id")] * 2
    assert other != first


def test_outputs_are_parsed() -> None:
    assert bench_outputs(load_settings(output=" list, LIST,slice")) == ["list", "slice"]
    with pytest.raises(InputError, match="unknown output 'tree': choose one of list, slice"):
        bench_outputs(load_settings(output="list,tree"))
    with pytest.raises(InputError, match="--output is empty"):
        bench_outputs(load_settings(output=","))


def test_the_library_benches_the_backends_settings_name(tmp_path: Path) -> None:
    """`run_bench` reads its backends, formats and outputs from `Settings` alone, written
    as the command line writes them or as lists."""
    written = run_bench(load_settings(backend="bm25,structural", format="RAW", cache_dir=tmp_path))
    listed = load_settings(backend=["bm25", "structural"], format=["RAW"], cache_dir=tmp_path)
    rows = [(row.backend, row.format, row.output) for row in written.rows]
    assert rows == [("bm25", "RAW", "list"), ("structural", "RAW", "list")]
    assert [row.summary for row in run_bench(listed).rows] == [row.summary for row in written.rows]


@pytest.mark.slow
def test_a_benched_slice_is_the_one_search_slice_prints(
    github_slice: BenchFiles, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scored at a budget below the run's largest, a slice still ranks only as deep as
    `Navigator.slice` does for that budget: bench scores what `search --slice` prints."""
    from schemanav.bench.labelled import load_labelled

    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path / "cache"))
    queries = load_labelled(github_slice.questions)[:60]
    questions = tmp_path / "some.tsv"
    lines = [f"{q.question}\t{','.join(q.expected_coordinates)}" for q in queries]
    questions.write_text("\n".join(lines) + "\n")
    settings = load_settings(
        schema=str(github_slice.schema), bench_file=str(questions), budgets="1000,2000,8000"
    )
    (row,) = run_bench(_choose(settings, output=["slice"])).rows
    navigator = Navigator(settings)
    for query, run in zip(queries, row.questions, strict=True):
        for budget in (1000, 2000):
            piece = navigator.slice(query.question, budget=budget)
            shown = {*piece.fields, *piece.arguments, *piece.types}
            complete = all(c in shown for c in query.expected_coordinates)
            assert run.result.at("budget_complete", budget) == complete, (query.question, budget)
