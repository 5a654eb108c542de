"""How a schema reports an outcome wherever one may occur: the type most of its unions share
(the error every `…OrError` union may return). The slicer shows it whole (`OutcomeTables`);
the ranking reads a union of one object and its failures as a way to that object
(`result_unions`), and the slicer as that object's lookup (`SchemaTables.root_lookups`); a
union that alone reaches its members names the kinds one answer may take (`kind_unions`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from schemanav.corpus.model import Corpus

# A type that is a member of at least this share of the schema's unions, and of at least
# `SHARED_OUTCOME_UNIONS` of them, is an outcome the schema reports alike everywhere.
SHARED_OUTCOME_SHARE = 0.5
SHARED_OUTCOME_UNIONS = 4


def object_unions(corpus: Corpus) -> dict[str, tuple[str, ...]]:
    """Each union of the schema with its object members (the types owning fields that it
    may return): a union owns no fields itself, so no entry of the corpus is its own."""
    owners = corpus.owners
    found: dict[str, tuple[str, ...]] = {}
    for name, members in corpus.possible_types.items():
        objects = tuple(member for member in members if member in owners)
        if name not in owners and objects:
            found[name] = objects
    return found


def shared_outcomes(
    unions: Mapping[str, Iterable[str]], returned_by: Mapping[str, frozenset[str]]
) -> frozenset[str]:
    """The members of at least half the schema's `unions` (by name, with their members), and
    of at least `SHARED_OUTCOME_UNIONS` (`PythonError` in 73 of Dagster's 102 unions), that
    more unions hold than types have a field returning (`returned_by`): an outcome reaches
    an answer through its unions, where a schema's central object is returned everywhere in
    its own name (Zammad's `Ticket` is in 6 of its 7 unions, and fields of 14 types return
    it). None in a schema whose unions group unlike things (GitHub's most shared member,
    `User`, is in 17 of 47)."""
    membership = Counter(member for members in unions.values() for member in members)
    least = max(SHARED_OUTCOME_UNIONS, SHARED_OUTCOME_SHARE * len(unions))
    return frozenset(
        member
        for member, count in membership.items()
        if count >= least and count > len(returned_by.get(member, ()))
    )


def result_unions(corpus: Corpus) -> dict[str, str]:
    """The unions a read returns as one object or its failure, with that object:
    `assetNodeOrError: AssetNodeOrError` is `AssetNode`, or `AssetNotFoundError` or
    `PythonError`. Of such a union's members, exactly one is returned by some field of
    another type; the others are returned by none (the failures of that one lookup) or are
    the schema's shared outcome (`schemanav.corpus.outcomes`: the error every lookup may end
    in). A union of like things (`IssueOrPullRequest`: both are returned elsewhere) is none,
    nor is a union only the mutation root's fields return (the write's own result, `writes`
    in slicing)."""
    unions = object_unions(corpus)
    by = corpus.returned_by.items()
    returned = {named for named, owners in by if owners - {named}}  # by another type's field
    read = {named for named, owners in by if owners - {corpus.mutation_root}}
    shared = shared_outcomes(unions, corpus.returned_by)
    found: dict[str, str] = {}
    for union, members in unions.items():
        if union not in read or len(members) < 2:
            continue
        objects = [m for m in members if m in returned and m not in shared]
        if len(objects) == 1:
            found[union] = objects[0]
    return found


def kind_unions(corpus: Corpus) -> frozenset[str]:
    """The unions whose members no field returns, only unions, and that no field returns a
    list of: the kinds one answer may take (`canFollow: AccountFollowOperationValidationOutcome!
    = …Passed | …Unknown | …Failed`). A query reaches such a member only through its union,
    so an operation reading the union selects each kind or cannot tell one from another; a
    member returned by a field is a thing of its own (`Issue` in `IssueOrPullRequest`), and
    a list of a union (a timeline's `nodes: [TimelineItem]`) holds many things, not one
    answer's kind."""
    returned = corpus.returned_by
    listed = {entry.named_return_type for entry in corpus.entries if entry.returns_list}
    return frozenset(
        union
        for union, members in object_unions(corpus).items()
        if union not in listed and not any(returned.get(member) for member in members)
    )
