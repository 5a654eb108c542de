"""The schema graph's tables a warm search reads are made straight from the corpus's columns
(`SchemaGraph.__init__`), not derived from the edge records `adjacency` holds: they must be
what deriving them gives, on a schema with interfaces, unions and leaves (GitHub's)."""

from __future__ import annotations

from schemanav.corpus import Corpus
from schemanav.graph import FRAGMENT, SchemaGraph


def test_the_inner_walk_is_the_one_derived_from_every_edge(github_corpus: Corpus) -> None:
    graph = SchemaGraph(github_corpus)
    assert "adjacency" not in graph.__dict__  # not made for a walk between inner types
    inner = graph.inner_adjacency  # every edge, those into leaves left out
    is_leaf = [not out and name not in graph.roots
               for name, out in zip(graph.type_names, graph.adjacency, strict=True)]  # fmt: skip
    assert graph.is_leaf == is_leaf
    entries = sorted({entry for out in inner for _, entry, _, _ in out} - {FRAGMENT})
    assert graph.inner_entries == entries
    place = {entry: number for number, entry in enumerate(entries)}
    first_fragment = len(entries) - len(github_corpus)
    derived = [
        [
            (target, edge + first_fragment if entry == FRAGMENT else place[entry], edge)
            for target, entry, _extra, edge in out
        ]
        for out in inner
    ]
    assert graph.step_adjacency(with_leaves=False) == derived
    # Through leaves a step is the edge's number (a field's is its entry).
    assert graph.step_adjacency(with_leaves=True) == [
        [(target, edge, edge) for target, _entry, _extra, edge in out] for out in graph.adjacency
    ]
    assert sum(map(len, derived)) < sum(map(len, graph.adjacency))  # leaves are left out


def test_the_fields_into_each_type_are_every_field_returning_it(github_corpus: Corpus) -> None:
    """Only the fields into inner types are filed; a leaf's (a scalar's, an enum's) are found
    when asked, so every type answers as filing every field did."""
    graph = SchemaGraph(github_corpus)
    targets = github_corpus.target_column
    for name in [*graph.type_names, "NoSuchType"]:
        expected = [position for position, target in enumerate(targets) if target == name]
        assert graph._fields_into(name) == expected, name
    assert graph.is_leaf[graph.type_ids["String"]] and graph._fields_into("String")
