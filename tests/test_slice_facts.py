"""Slice facts: what a slice needs of a schema beyond its corpus, read back from a checked cache
equal to those of the parsed schema, so a warm process slices without building a schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from graphql import build_schema

from conftest import rewrite_json_payload
from schemanav.corpus import build_corpus
from schemanav.corpus.facts import SliceFacts
from schemanav.events import SilentEvents
from schemanav.navigator import Navigator
from schemanav.retrieval.slicing import Slicer
from schemanav.schema import describe_violations

# Printing that a slice copies from graphql-core: default values (an input object, a list, an
# enum, null), deprecated arguments and input fields with and without a reason; an interface
# that implements another (declaration order kept); and a spec violation (an implementation
# field deprecated where its interfaces' field is not), loaded anyway.
FACTS_SDL = """
type Query {
  node(id: ID!): Node
  items(
    first: Int = 10
    filter: Filter = {order: {field: NAME, direction: DESC}, tags: ["a"], text: "x"}
    kind: Kind = B
    old: String @deprecated(reason: "use kind")
    gone: Int = null @deprecated
  ): [Item!]!
  search(text: String!): [Result!]!
}

interface Node { id: ID! }
interface Named implements Node { id: ID! name: String! }
type Item implements Named & Node { id: ID! @deprecated name: String! kind: Kind }
type Tag implements Node { id: ID! label: String }
union Result = Tag | Item

input Filter {
  order: Order = {field: NAME}
  tags: [String!]
  since: String @deprecated(reason: "no longer read")
  kind: Kind! = A
  text: String!
}
input Order { field: Field! direction: Direction = ASC }
enum Field { NAME AGE }
enum Direction { ASC DESC }
enum Kind { A B C }
"""


class Collect(SilentEvents):
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning(self, message: str) -> None:
        self.warnings.append(message)


@pytest.fixture
def schema_file(tmp_path: Path, cache_dir: Path) -> Path:
    path = tmp_path / "facts.graphql"
    path.write_text(FACTS_SDL, encoding="utf-8")
    return path


def _facts_file(cache_dir: Path) -> Path:
    (path,) = (cache_dir / "slice").iterdir()
    return path


def test_cached_facts_equal_those_of_the_parsed_and_the_rebuilt_schema(
    schema_file: Path, cache_dir: Path
) -> None:
    cold = Navigator.open(str(schema_file))
    parsed = cold.loaded
    expected = SliceFacts.of(parsed.schema, parsed.violations)
    assert cold.slice_facts == expected
    assert expected.violations  # the deprecated implementation field
    assert expected.interfaces["Item"] == ("Named", "Node")
    texts = [value.text for value in expected.arguments["Query.items"]]
    assert texts[2:] == [
        "kind: Kind = B",
        'old: String @deprecated(reason: "use kind")',
        "gone: Int = null @deprecated",
    ]
    assert [v.required for v in expected.inputs["Filter"]] == [False, False, False, False, True]

    warm = Navigator.open(str(schema_file))
    assert warm.slice_facts == expected
    assert "_readable" not in warm.__dict__ and "loaded" not in warm.__dict__  # no schema built
    # Without the facts file they come from the schema rebuilt from its introspection JSON.
    _facts_file(cache_dir).unlink()
    rebuilt = Navigator.open(str(schema_file))
    assert rebuilt.slice_facts == expected
    assert "_readable" in rebuilt.__dict__ and "loaded" not in rebuilt.__dict__


def test_a_warm_slice_equals_a_parsed_one_and_warns_of_the_violations_once(
    schema_file: Path,
) -> None:
    question = "items of kind B filtered by tags, and their names"
    cold = Navigator.open(str(schema_file)).slice(question, budget=400)
    events = Collect()
    warm = Navigator.open(str(schema_file), events=events)
    assert warm.slice(question, budget=400) == cold
    assert "Query.items(filter:)" in cold.arguments and "Filter" in cold.types
    assert events.warnings == [describe_violations(warm.slice_facts.violations)]
    schema = build_schema(FACTS_SDL)
    parsed = Slicer.of(schema, build_corpus(schema))
    ranked = warm.corpus.coordinates[::-1]
    for budget in (60, 150, 400):
        assert parsed.from_ranked(ranked, budget, question) == warm.slicer.from_ranked(
            ranked, budget, question
        )


def test_an_edited_facts_file_is_rebuilt_with_a_notice(schema_file: Path, cache_dir: Path) -> None:
    expected = Navigator.open(str(schema_file)).slice_facts
    path = _facts_file(cache_dir)
    path.write_bytes(path.read_bytes().replace(b"kind: Kind = B", b"kind: Kind = C"))
    events = Collect()
    assert Navigator.open(str(schema_file), events=events).slice_facts == expected
    assert events.warnings[0] == (
        f"the slice cache {path} is not usable (payload checksum does not match); rebuilding it"
    )
    again = Collect()
    assert Navigator.open(str(schema_file), events=again).slice_facts == expected  # rewritten
    assert not any("slice cache" in warning for warning in again.warnings)


@pytest.mark.parametrize(
    ("part", "value", "reason"),
    [
        ("kinds", {"Query": "table"}, "malformed kinds"),
        ("interfaces", {"Item": "Node"}, "malformed interfaces"),
        ("arguments", {"Query.node": [["id", "ID!", "id: ID!", "no"]]}, "malformed arguments"),
        ("inputs", {"Filter": [["tags", "[String!]"]]}, "malformed inputs"),
        ("violations", None, "malformed violations"),
    ],
)
def test_checksummed_facts_of_the_wrong_shape_are_rebuilt_with_a_notice(
    schema_file: Path, cache_dir: Path, part: str, value: object, reason: str
) -> None:
    expected = Navigator.open(str(schema_file)).slice_facts
    path = _facts_file(cache_dir)
    rewrite_json_payload(path, lambda payload: payload.update({part: value}))
    events = Collect()
    assert Navigator.open(str(schema_file), events=events).slice_facts == expected
    assert events.warnings[0] == f"the slice cache {path} is not usable ({reason}); rebuilding it"


def test_facts_of_another_schema_are_refused(schema_file: Path) -> None:
    schema = build_schema(FACTS_SDL)
    other = build_schema(FACTS_SDL.replace("  search(text: String!)", "  search"))
    with pytest.raises(ValueError, match=r"Query\.search has 1 arguments, the facts 0"):
        Slicer(SliceFacts.of(other), build_corpus(schema))
