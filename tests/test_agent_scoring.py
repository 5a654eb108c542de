"""The agent-bench scorer, hand-worked on the Working Group's real GitHub operations."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from graphql import GraphQLSchema

from schemanav.agent.receipt import Receipt, ToolCallRecord, TruncationWarning
from schemanav.agentbench.scoring import (
    check_operation,
    exchanges,
    operation_in_text,
    score_run,
)

QUERIES = Path(__file__).resolve().parents[2] / "shared" / "wg" / "github" / "queries"
FIELD = re.compile(r"[_A-Za-z]\w*\.[_A-Za-z]\w*")


def _wg_module() -> ModuleType:
    script = Path(__file__).resolve().parents[1] / "scripts" / "wg_to_tsv.py"
    spec = importlib.util.spec_from_file_location("wg_to_tsv_for_scoring", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def github(github_graphql_schema: GraphQLSchema) -> GraphQLSchema:
    return github_graphql_schema


@pytest.fixture(scope="module")
def references() -> dict[str, tuple[str, list[str]]]:
    """id → (reference operation, expected field coordinates of mustInclude)."""
    parse = _wg_module().parse_yaml_subset
    found: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(QUERIES.glob("gh-ext-*.yaml")):
        data: dict[str, Any] = parse(path.read_text(encoding="utf-8"), str(path))
        expected = [c for c in data["mustInclude"] if FIELD.fullmatch(c)]
        found[str(data["id"])] = (str(data["operation"]), expected)
    return found


@pytest.mark.slow
def test_every_full_question_reference_operation_scores_as_a_success(
    github: GraphQLSchema, references: dict[str, tuple[str, list[str]]]
) -> None:
    full = {k: v for k, v in references.items() if not k.endswith("-kw")}
    assert len(full) == 100
    failed = [
        k for k, (op, expected) in full.items() if not check_operation(github, op, expected).success
    ]
    assert failed == []


@pytest.mark.slow
def test_keyword_references_that_omit_labelled_fields_are_caught(
    github: GraphQLSchema, references: dict[str, tuple[str, list[str]]]
) -> None:
    # gh-ext-007-kw's operation selects `merged mergedAt` on pull requests, while its label
    # also names PullRequestCommit.commit; gh-ext-091-kw selects only `__typename` of the
    # audit entries its label names fields of. Both are valid operations.
    operation, expected = references["gh-ext-007-kw"]
    check = check_operation(github, operation, expected)
    assert check.valid and check.missing == ("PullRequestCommit.commit",)
    operation, expected = references["gh-ext-091-kw"]
    check = check_operation(github, operation, expected)
    assert check.valid and check.missing == ("AuditEntry.action", "AuditEntry.createdAt")


@pytest.mark.slow
def test_a_dropped_field_is_missing_and_a_misspelt_one_is_invalid(
    github: GraphQLSchema, references: dict[str, tuple[str, list[str]]]
) -> None:
    operation, expected = references["gh-ext-001"]
    assert "              message\n" in operation
    dropped = check_operation(github, operation.replace("              message\n", ""), expected)
    assert dropped.valid and dropped.missing == ("Commit.message",)
    misspelt = check_operation(github, operation.replace("message", "mesage"), expected)
    assert not misspelt.valid
    assert misspelt.errors == (
        "Cannot query field 'mesage' on type 'Commit'. Did you mean 'message'?",
    )
    assert check_operation(github, "query {", expected).errors[0].startswith("syntax error")
    two = check_operation(github, "query a { viewer { login } } query b { viewer { id } }", [])
    assert two.errors[0] == "expected one operation, found 2"


def test_the_operation_of_an_answer() -> None:
    fenced = "Here it is:\n```graphql\nquery { viewer { login } }\n```\nRun it with a token."
    assert operation_in_text(fenced) == "query { viewer { login } }"
    two = "```\n{ a }\n```\nthen\n```graphql\n{ viewer { id } }\n```"
    assert operation_in_text(two) == "{ viewer { id } }"
    plain = "The operation is:\nquery {\n  viewer { login }\n}\nIt was not executed."
    assert operation_in_text(plain) == "query {\n  viewer { login }\n}"
    assert operation_in_text("I could not find a field for that.") is None


OPERATION = 'query { repository(owner: "o", name: "n") { issues(first: 5) { nodes { title } } } }'
EXPECTED = ["Query.repository", "Repository.issues", "IssueConnection.nodes", "Issue.title"]


def receipt(mode: str = "navigate", **overrides: Any) -> Receipt:
    values: dict[str, Any] = {
        "task": "t",
        "model": "m",
        "mode": mode,
        "num_ctx": 4096,
        "model_calls": 2,
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "tool_payload_tokens": 3,
        "whole_corpus_tokens": 100,
        "schema_in_prompt_tokens": 0,
        "tool_calls": (),
        "answer": "done",
        "stopped": "answered",
    }
    values.update(overrides)
    return Receipt(**values)


def transcript(*calls: tuple[str, dict[str, Any], str]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "s"}]
    for name, arguments, result in calls:
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"function": {"name": name, "arguments": arguments}}],
            }
        )
        messages.append({"role": "tool", "tool_name": name, "content": result})
    return {"messages": messages}


SEARCH_HITS = (
    "3 hits (30 of 500 budget tokens), best first:\nQuery.repository - the repository\n"
    "Repository.issues - the issues of a repository\nIssueConnection.nodes - the nodes"
)
ISSUE_FIELDS = "type Issue implements Node (required arguments only):\n  id: ID!\n  title: String!"


@pytest.mark.parametrize(
    ("case", "stage"),
    [
        ("success", None),
        ("error", "model_error"),
        ("truncated", "context_truncated"),
        ("call_limit", "call_limit"),
        ("invalid", "invalid_operation"),
        ("never_listed", "search_missed"),
        ("listed_not_used", "found_not_used"),
        ("answer_without_operation", "found_not_used"),
    ],
)
@pytest.mark.slow
def test_failure_stages(github: GraphQLSchema, case: str, stage: str | None) -> None:
    execute = ("executeGraphql", {"query": OPERATION}, "valid")
    search = ("searchSchema", {"query": "issues"}, SEARCH_HITS)
    listed = ("listFields", {"name": "Issue"}, ISSUE_FIELDS)
    without_title = OPERATION.replace("title", "id")
    runs = {
        "success": (receipt(), transcript(search, listed, execute)),
        "error": (receipt(stopped="error", answer=None), transcript(search)),
        "truncated": (
            receipt(truncation_warnings=(TruncationWarning(1, 900, 300),)),
            transcript(search),
        ),
        "call_limit": (receipt(stopped="max_calls", answer=None), transcript(search)),
        "invalid": (receipt(), transcript(("executeGraphql", {"query": "{ viewr { id } }"}, "x"))),
        "never_listed": (
            receipt(),
            transcript(search, ("executeGraphql", {"query": without_title}, "ok")),
        ),
        "listed_not_used": (
            receipt(),
            transcript(search, listed, ("executeGraphql", {"query": without_title}, "ok")),
        ),
        "answer_without_operation": (receipt(mode="inline"), transcript()),
    }
    run_receipt, run_transcript = runs[case]
    score = score_run(github, EXPECTED, run_receipt, run_transcript)
    assert score.stage == stage
    assert score.success is (stage is None)
    if case == "never_listed":
        assert score.missing == ("Issue.title",) and score.not_surfaced == ("Issue.title",)
    if case == "listed_not_used":
        assert score.not_surfaced == ()


@pytest.mark.slow
def test_an_operation_in_the_answer_wins_over_the_last_executed_one(github: GraphQLSchema) -> None:
    answered = receipt(
        answer=f"```graphql\n{OPERATION}\n```",
        tool_calls=(ToolCallRecord("executeGraphql", {"query": "{ viewer { id } }"}, 3, True),),
    )
    run = transcript(("executeGraphql", {"query": "{ viewer { id } }"}, "ok"))
    score = score_run(github, EXPECTED, answered, run)
    assert score.success and score.operation_source == "answer"
    [exchange] = exchanges(run)
    assert exchange.name == "executeGraphql" and exchange.result == "ok"
