"""Which types hold a schema's writes: its mutation root, and the types grouping the root's
fields by feature (`Mutation.formBuilder: FbMutation`, whose fields `createForm` and
`deleteForm` are the writes). The ranking weighs and matches writes by it, the slicer keeps
them out of reads and shows each write's objects and failures by it: a schema that groups
its writes is read as one that lists them on the root."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from schemanav.corpus.model import Corpus, CorpusEntry


def write_owners(corpus: Corpus) -> frozenset[str]:
    """The types whose fields are writes: the mutation root and its namespaces
    (`namespaces`)."""
    root = corpus.mutation_root
    if root is None:
        return frozenset()
    return frozenset({root} | namespaces(corpus, root))


def namespaces(corpus: Corpus, root: str) -> set[str]:
    """The types grouping `root`'s fields by feature: each only argument-less fields of the
    root return, one object each, and at least half of its fields take arguments (they are
    operations: `FbMutation.createForm(data:)`, `PbQuery.getPage(id:)`); and, in turn, the
    types grouping a namespace's fields so (`Mutation.admin.users.create`). A write's payload
    (`logout: Success`) or the root's one settings object has fields that take none. Read
    from the corpus's columns: a warm search makes no record for it."""
    returned = corpus.returned_by
    columns = list(
        zip(
            corpus.owner_column,
            corpus.target_column,
            corpus.return_type_column,
            corpus.argument_counts,
            strict=True,
        )
    )
    taking, fields = Counter[str](), Counter[str]()
    for owner, _, _, count in columns:
        fields[owner] += 1
        taking[owner] += bool(count)
    holders, found = {root}, set[str]()
    while True:
        groups = {
            target
            for owner, target, written, count in columns
            if owner in holders
            and target not in holders
            and not count
            and "[" not in written
            and returned[target] <= holders
            and fields[target]
            and 2 * taking[target] >= fields[target]
        }
        if not groups:
            return found
        found |= groups
        holders |= groups


def returned_only_by(
    corpus: Corpus, roots: set[str], taken: Callable[[CorpusEntry], bool]
) -> set[str]:
    """The types that fields of `roots` passing `taken` return and no other type's field
    does: a root's payloads, or the types grouping a root's fields by feature."""
    returned = corpus.returned_by
    return {
        entry.named_return_type
        for entry in corpus.entries
        if entry.owner in roots and taken(entry) and returned[entry.named_return_type] <= roots
    }
