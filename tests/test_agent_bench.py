"""`agent-bench` end to end: the real `ollama` client against the Ollama-protocol test server
(real HTTP on 127.0.0.1) replaying scripted replies, one task per failure class, the real
Movie DB schema, tools and scorer, results appended to a JSONL file and resumed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chat_servers import CHAT_APIS, ModelServer, serve_chat
from schemanav.agentbench.report import summarise, tables
from schemanav.agentbench.runner import parse_modes, run_agent_bench
from schemanav.cli import app
from schemanav.errors import InputError
from schemanav.events import SilentEvents
from schemanav.navigator import Navigator
from schemanav.schema import bundled_path
from schemanav.settings import Settings, load_settings
from schemanav.tokens import count_tokens
from servers.ollama_server import CHAT_MODEL, FakeModel, FakeOllama, serve_ollama

Reply = Callable[[dict[str, Any]], dict[str, Any]]


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with serve_ollama(models=[FakeModel(CHAT_MODEL, context_length=8192)]) as server:
        yield server


@pytest.fixture(params=CHAT_APIS)
def server(request: pytest.FixtureRequest) -> Iterator[ModelServer]:
    """The same scenarios on both protocols."""
    with serve_chat(request.param, 8192) as model_server:
        yield model_server


def settings_for(server: FakeOllama | ModelServer, tmp_path: Path, **overrides: Any) -> Settings:
    pointing = server.settings() if isinstance(server, ModelServer) else {"ollama_host": server.url}
    values: dict[str, Any] = {
        "schema": str(bundled_path("moviedb.graphqls")),
        **pointing,
        "cache_dir": str(tmp_path / "cache"),
        "budget": 60,
        "max_calls": 3,
    }
    values.update(overrides)
    return load_settings(**values)


class Script:
    """Replies with known provider counts: prompt_eval_count = 10,000 + n for the n-th call, or
    `evaluated` when given (a count far below what was sent reads as truncation)."""

    def __init__(self) -> None:
        self.prompt_counts: list[int] = []

    def reply(
        self,
        *,
        content: str = "",
        tool: tuple[str, Any] | None = None,
        evaluated: int | None = None,
        raw_tool_calls: list[dict[str, Any]] | None = None,
    ) -> Reply:
        def answer(body: dict[str, Any]) -> dict[str, Any]:
            count = evaluated if evaluated is not None else 10_000 + len(self.prompt_counts)
            self.prompt_counts.append(count)
            calls = raw_tool_calls
            if calls is None and tool is not None:
                calls = [{"function": {"name": tool[0], "arguments": tool[1]}}]
            return {
                "content": content,
                "tool_calls": calls or [],
                "prompt_eval_count": count,
                "eval_count": 10,
            }

        return answer


TASKS = [
    ("List the movie titles.", "Query.movies,Movie.title"),
    ("What score did each review of a movie give?", "Query.movie,Movie.reviews,Review.score"),
    ("How are movies rated?", "Query.movies,Movie.rating"),
    ("How long is each movie?", "Query.movies,Movie.runtimeMinutes"),
    ("Which genres exist?", "Query.movies,Movie.genres"),
    ("Who plays in a movie?", "Query.movie,Movie.cast,CastCredit.character"),
    ("What is a movie's plot?", "Query.movie,Movie.plot"),
]


def write_tasks(path: Path) -> Path:
    path.write_text("".join(f"{q}\t{c}\n" for q, c in TASKS), encoding="utf-8")
    return path


def one_task_per_failure_class(script: Script) -> list[Reply]:
    execute = "executeGraphql"
    return [
        # 1 success: a valid operation with both expected fields, then an answer.
        script.reply(tool=(execute, {"query": "{ movies { title } }"})),
        script.reply(content="The titles are listed."),
        # 2 search_missed: the search shows directors, never Review.score.
        script.reply(tool=("searchSchema", {"query": "director"})),
        script.reply(content="I could not find review scores."),
        # 3 found_not_used: Movie.rating was shown, the operation leaves it out.
        script.reply(tool=("searchSchema", {"query": "movie rating"})),
        script.reply(tool=(execute, {"query": "{ movies { title } }"})),
        script.reply(content="Movies have titles."),
        # 4 invalid_operation: the last operation does not validate.
        script.reply(tool=(execute, {"query": "{ movies { runtime } }"})),
        script.reply(content="Here is the runtime."),
        # 5 call_limit: still asking for tools at the third (last) call.
        script.reply(tool=("listFields", {"name": "Movie"})),
        script.reply(tool=("listFields", {"name": "Genre"})),
        script.reply(tool=("listFields", {"name": "Query"})),
        # 6 model_error: a tool call without a name, which the client cannot read.
        script.reply(raw_tool_calls=[{"function": {"arguments": {}}}]),
        # 7 context_truncated: the provider evaluated far less than was sent.
        script.reply(content="No idea.", evaluated=5),
    ]


def test_every_failure_class_is_scored_and_a_rerun_resumes(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    server.script_chat(*one_task_per_failure_class(script))
    tasks = write_tasks(tmp_path / "tasks.tsv")
    results = tmp_path / "results.jsonl"
    settings = settings_for(server, tmp_path)

    run = run_agent_bench(settings, tasks, ["navigate"], results, seed=7)

    stages = [record.score.stage for record in run.records]
    assert stages == [
        None,
        "search_missed",
        "found_not_used",
        "invalid_operation",
        "call_limit",
        "model_error",
        "context_truncated",
    ]
    assert run.ran == 7 and run.reused == 0
    first, missed, _, invalid, limited, failed, _ = run.records
    assert first.success and first.score.operation_source == "executed"
    assert missed.score.not_surfaced == ("Movie.reviews", "Review.score")  # Query.movie shown
    assert invalid.score.errors == ("Cannot query field 'runtime' on type 'Movie'.",)
    assert limited.model_calls == 3 and limited.tool_calls == 2
    assert failed.error is not None and "cannot read" in failed.error
    # The seed rides along with every call; the tools offered include the new two.
    bodies = server.chat_requests
    assert {server.sampling(body) for body in bodies} == {(0.0, 7)}
    assert [t["function"]["name"] for t in bodies[0]["tools"]][-2:] == ["listFields", "buildQuery"]

    report = summarise(run)
    [navigate] = report.modes
    assert (navigate.tasks, navigate.solved) == (7, 1)
    assert navigate.failures == {
        "search_missed": 1,
        "found_not_used": 1,
        "invalid_operation": 1,
        "context_truncated": 1,
        "call_limit": 1,
        "model_error": 1,
    }
    # Provider counts summed per task, then mean and nearest-rank p95 over the 7 tasks.
    per_task = [record.prompt_tokens for record in run.records]
    # The unreadable reply (the 13th call) never reached the client, so nor did its count.
    assert sum(per_task) == sum(script.prompt_counts) - script.prompt_counts[12]
    assert navigate.costs["prompt_tokens"].mean == pytest.approx(sum(per_task) / 7)
    assert navigate.costs["prompt_tokens"].p95 == max(per_task)
    assert navigate.costs["model_calls"].mean == pytest.approx(
        sum(r.model_calls for r in run.records) / 7
    )
    assert len(results.read_text().splitlines()) == 7

    # A rerun skips the six finished tasks and retries the one that hit a model error.
    server.reset_requests()
    server.script_chat(
        script.reply(tool=("executeGraphql", {"query": "{ movie(id: 1) { cast { character } } }"})),
        script.reply(content="The cast."),
    )
    again = run_agent_bench(settings, tasks, ["navigate"], results, seed=7)
    assert (again.ran, again.reused) == (1, 6)
    assert len(server.chat_requests) == 2
    assert [record.success for record in again.records] == [True] + [False] * 4 + [True, False]
    assert len(results.read_text().splitlines()) == 8


def test_three_modes_see_what_they_should_and_are_paired(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    valid = ("executeGraphql", {"query": "{ movies { title } }"})
    server.script_chat(
        # task 1: inline solves, navigate answers without an operation, oracle solves
        script.reply(tool=valid),
        script.reply(content="Titles."),
        script.reply(content="I do not know."),
        script.reply(content="```graphql\n{ movies { title } }\n```"),
        # task 2: all three fail, inline and oracle with an invalid operation
        script.reply(content="{ movies { stars } }"),
        script.reply(content="Unknown."),
        script.reply(content="{ movies { stars } }"),
    )
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text(
        "List the movie titles.\tQuery.movies,Movie.title\n"
        "How are movies rated?\tQuery.movies,Movie.rating\n",
        encoding="utf-8",
    )
    settings = settings_for(server, tmp_path)
    run = run_agent_bench(
        settings, tasks, parse_modes("inline,navigate,oracle"), tmp_path / "r.jsonl"
    )
    systems = [body["messages"][0]["content"] for body in server.chat_requests]
    inline_prompt, navigate_prompt, oracle_prompt = systems[0], systems[2], systems[3]
    assert "type Studio implements Node" in inline_prompt  # the whole schema
    assert "type Studio" not in oracle_prompt and "movies(" in oracle_prompt
    assert "title: String!" in oracle_prompt  # Movie.title's definition
    assert "DEFINITIONS:" in oracle_prompt and "SCHEMA:" not in navigate_prompt
    tools = [[t["function"]["name"] for t in body["tools"]] for body in server.chat_requests]
    assert tools[0] == ["executeGraphql"] and tools[3] == ["executeGraphql"]
    assert len(tools[2]) == 5

    report = summarise(run)
    assert [(m.mode, m.solved) for m in report.modes] == [
        ("inline", 1),
        ("navigate", 0),
        ("oracle", 1),
    ]
    assert report.modes[0].failures["invalid_operation"] == 1
    assert report.modes[1].failures["search_missed"] == 2
    pairs = {(p.first, p.second): p for p in report.pairs}
    inline_navigate = pairs[("inline", "navigate")]
    assert inline_navigate.only_first == (1,) and inline_navigate.only_second == ()
    assert inline_navigate.neither == 1 and inline_navigate.both == 0
    assert pairs[("inline", "oracle")].both == 1
    [per_mode, paired] = tables(report)
    assert [row[0] for row in per_mode.rows] == ["inline", "navigate", "oracle"]
    assert paired.rows[0] == ("inline vs navigate", "0", "1 (1)", "0", "1")


def test_a_results_file_of_other_settings_is_refused(ollama: FakeOllama, tmp_path: Path) -> None:
    script = Script()
    ollama.script_chat(script.reply(content="{ movies { title } }"))
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text("List the movie titles.\tQuery.movies,Movie.title\n", encoding="utf-8")
    results = tmp_path / "r.jsonl"
    run_agent_bench(settings_for(ollama, tmp_path), tasks, ["inline"], results)
    with pytest.raises(InputError, match=r"other settings \(budget\)"):
        run_agent_bench(
            settings_for(ollama, tmp_path, budget=99),
            tasks,
            ["inline"],
            results,
            events=SilentEvents(),
        )
    with pytest.raises(InputError, match="unknown mode 'agentic'"):
        parse_modes("inline,agentic")


def test_agent_bench_command(
    ollama: FakeOllama,
    tmp_path: Path,
    runner: CliRunner,
    cache_dir: Path,
    workdir: Path,
    user_error: Callable[..., str],
) -> None:
    script = Script()
    ollama.script_chat(script.reply(content="```\n{ movies { title } }\n```"))
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text("List the movie titles.\tQuery.movies,Movie.title\n", encoding="utf-8")
    args = ["agent-bench", str(tasks), "--mode", "oracle", "--ollama-host", ollama.url]
    result = runner.invoke(app, [*args, "--json", "--markdown", str(tmp_path / "r.md")])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["modes"][0]["success_rate"] == 1.0
    assert payload["results"][0]["operation_source"] == "answer"
    assert (workdir / "agent-bench.jsonl").is_file()
    assert "| oracle | 1 | 1 | 1.000 |" in (tmp_path / "r.md").read_text()
    table = runner.invoke(app, args)  # resumed: no model call, the same figures
    assert table.exit_code == 0 and "oracle" in table.stdout
    assert "1 finished run(s) reused, 0 to run" in table.stderr
    user_error(runner.invoke(app, [*args[:2], "--mode", "x"]), "unknown mode 'x'")


def test_slice_mode_hands_the_model_the_questions_slice_and_is_paired(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    server.script_chat(
        # task 1: navigate answers without an operation; slice and oracle solve it
        script.reply(content="I do not know."),
        script.reply(content="```graphql\n{ movies { title } }\n```"),
        script.reply(content="{ movies { title } }"),
        # task 2: the slice leaves Movie.reviews out, so its operation cannot have it
        script.reply(content="Unknown."),
        script.reply(content="{ movies { rating } }"),
        script.reply(content="{ movies { rating reviews { score } } }"),
    )
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text(
        "List the movie titles.\tQuery.movies,Movie.title\n"
        "How are movies rated?\tQuery.movies,Movie.rating,Movie.reviews\n",
        encoding="utf-8",
    )
    settings = settings_for(server, tmp_path, slice_budget=120)
    navigator = Navigator(settings)
    first_slice = navigator.slice("List the movie titles.", budget=120)
    second_slice = navigator.slice("How are movies rated?", budget=120)
    assert "Movie.reviews" not in second_slice.fields  # what task 2 depends on

    run = run_agent_bench(
        settings, tasks, parse_modes("navigate,slice,oracle"), tmp_path / "r.jsonl"
    )
    bodies = server.chat_requests
    slice_prompt = bodies[1]["messages"][0]["content"]
    assert "SCHEMA SLICE:" in slice_prompt and slice_prompt.endswith(first_slice.sdl)
    assert bodies[4]["messages"][0]["content"].endswith(second_slice.sdl)
    assert [t["function"]["name"] for t in bodies[1]["tools"]] == ["executeGraphql"]

    report = summarise(run)
    assert [(m.mode, m.solved) for m in report.modes] == [
        ("navigate", 0),
        ("slice", 1),
        ("oracle", 2),
    ]
    missed = run.records[4]
    assert (missed.mode, missed.score.stage) == ("slice", "search_missed")
    assert missed.score.not_surfaced == ("Movie.reviews",)
    pairs = {(p.first, p.second): p for p in report.pairs}
    assert pairs[("navigate", "slice")].only_second == (1,)
    assert pairs[("slice", "oracle")].only_second == (2,)
    assert run.config["slice_budget"] == 120


def test_the_same_seed_gives_identical_records(server: ModelServer, tmp_path: Path) -> None:
    """Twice the same run: the same requests (temperature 0 and the seed in each) and so the
    same records, byte for byte, with model, protocol, temperature and seed in every row."""

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        # A deterministic model: its answer and counts follow from the request alone.
        count = count_tokens(json.dumps(body["messages"]))
        if len(body["messages"]) > 2:
            return {"content": "{ movies { title } }", "prompt_eval_count": count, "eval_count": 9}
        call = {"function": {"name": "executeGraphql", "arguments": {"query": "{ movies { id } }"}}}
        return {"content": "", "tool_calls": [call], "prompt_eval_count": count, "eval_count": 7}

    tasks = write_tasks(tmp_path / "tasks.tsv")
    settings = settings_for(server, tmp_path, slice_budget=400)
    lines = []
    for attempt in ("first", "second"):
        server.reset_requests()
        server.script_chat(*[reply] * 8)
        results = tmp_path / f"{attempt}.jsonl"
        run_agent_bench(settings, tasks, ["slice", "navigate"], results, seed=11, limit=2)
        assert {server.sampling(body) for body in server.chat_requests} == {(0.0, 11)}
        lines.append(results.read_text(encoding="utf-8"))
    assert lines[0] == lines[1]
    rows = [json.loads(line) for line in lines[0].splitlines()]
    assert len(rows) == 4
    for row in rows:
        config = row["config"]
        assert (config["model"], config["chat_api"]) == (CHAT_MODEL, server.api)
        assert (config["temperature"], config["seed"]) == (0.0, 11)
    assert rows[0]["prompt_tokens"] > 0 and rows[0]["model_calls"] == 2
