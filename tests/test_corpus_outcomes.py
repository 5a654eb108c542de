"""schemanav.corpus.outcomes: how a schema reports an outcome, read from its unions."""

from __future__ import annotations

from graphql import build_schema

from schemanav.corpus import Corpus, build_corpus
from schemanav.corpus.outcomes import kind_unions, object_unions, result_unions, shared_outcomes


def _corpus(sdl: str) -> Corpus:
    return build_corpus(build_schema(sdl))


def test_a_union_of_one_object_and_its_failures_is_a_result_union() -> None:
    corpus = _corpus(
        "type Query { job(id: ID!): JobOrMissing either(id: ID!): JobOrTask jobs: [Job!]!"
        " tasks: [Task!]! }\n"
        "type Mutation { retry(id: ID!): RetryResult }\n"
        "union JobOrMissing = Job | JobNotFound\nunion JobOrTask = Job | Task\n"
        "union RetryResult = Job | Refused\n"
        "type Job { id: ID } type Task { id: ID } type JobNotFound { message: String }"
        " type Refused { reason: String }"
    )
    # Not a union of like things (both returned elsewhere), nor the write's own result.
    assert result_unions(corpus) == {"JobOrMissing": "Job"}


def test_the_error_every_union_may_return_is_no_object_of_a_result_union() -> None:
    unions = "\n".join(f"union {t}OrError = {t} | PythonError" for t in ("Run", "Job", "A", "B"))
    corpus = _corpus(
        "type Query { runOrError(id: ID!): RunOrError jobOrError(id: ID!): JobOrError"
        " a: AOrError b: BOrError runs: [Run!]! }\n"
        f"{unions}\n"
        "type Run { id: ID } type Job { id: ID } type A { id: ID } type B { id: ID }\n"
        "type PythonError { message: String chain: [Link!] } type Link { error: PythonError }"
    )
    # `PythonError` is returned elsewhere (`Link.error`) but is in every union: the runs' one
    # object is `Run`; the others' objects are returned nowhere else.
    assert result_unions(corpus) == {"RunOrError": "Run"}


def test_a_union_that_alone_reaches_its_members_names_kinds_of_one_answer() -> None:
    corpus = _corpus(
        "type Query { check: Check either(id: ID!): JobOrTask jobs: [Job!]! feed: [Event] }\n"
        "union Check = Passed | Failed\nunion JobOrTask = Job | Task\n"
        "union Event = Opened | Closed\n"
        "type Passed { ok: Boolean } type Failed { reason: String }"
        " type Job { id: ID } type Task { id: ID }"
        " type Opened { at: String } type Closed { at: String }"
    )
    # `Job` is returned by a field of its own (`Query.jobs`): a thing, not a kind of answer;
    # a list of `Event`s holds many things, not the kind of one.
    assert kind_unions(corpus) == {"Check"}


def test_a_type_fields_return_more_often_than_unions_do_is_no_shared_outcome() -> None:
    # `Ticket` and `User` are in most of the unions, as `Failure` is, but the schema returns
    # them from more fields than unions: its central objects, not how it reports an outcome.
    unions = "\n".join(
        f"union {name} = Ticket | User | Failure | {name}Only" for name in ("A", "B", "C", "D")
    )
    only = " ".join(f"type {name}Only {{ id: ID }}" for name in ("A", "B", "C", "D"))
    lookups = " ".join(f"{name.lower()}: {name}" for name in ("A", "B", "C", "D"))
    owners = " ".join(f"type Owner{n} {{ ticket: Ticket user: User }}" for n in range(5))
    reached = " ".join(f"owner{n}: Owner{n}" for n in range(5))
    corpus = _corpus(
        f"type Query {{ {lookups} {reached} }}\n{unions}\n{only}\n{owners}\n"
        "type Ticket { id: ID } type User { id: ID } type Failure { message: String }"
    )
    assert shared_outcomes(object_unions(corpus), corpus.returned_by) == {"Failure"}
