"""The writes as the structural ranking reads them: the words naming each (`write_names`),
and what each changes (`WriteObjects`), read from what it returns: the object types a
mutation returns, directly (`addAssortmentLink: AssortmentLink!`) or as its payload's fields
(`updateTemplate: UpdateTemplatePayload` whose `template: Template`).

A write that returns no object (a `Boolean`, a transaction's hash, a union of results) changes
what its name names beside its verb, as a question's words name a type (`TypeNames.names_of`):
`setGroupMetadata` a `GroupMetadata`, `deploymentRestart` a `Deployment`, `addAppSigners` an
`AppSigner` (`_named_object`).

A request names the fields of what it changes ("change the subject line of the order
confirmation email": `Template.subject`) more often than the write's own words
(`updateTemplate`). The structural ranking lends each write a share of the best score among
its objects' fields (`StructuralParams.write_object_evidence`), each object's score divided
among the writes returning it: an object most writes return (the cart, the shop) tells none
of them apart, one only `updateTemplate` returns tells it from every other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from schemanav.question.vocabulary import reader_of, type_words

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from schemanav.corpus import Corpus
    from schemanav.question.vocabulary import TypeNames

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]


def write_names(
    corpus: Corpus, owners: frozenset[str]
) -> dict[str, list[tuple[int, frozenset[str]]]]:
    """Each word of the name of a write, a field of one of `owners`
    (`schemanav.corpus.groups.write_owners`: `closeIssue`, `mergeRequestCreate`, and a write
    named by its verb alone, `post`), with the fields holding it as (position, words): what
    `schemanav.question.grammar.requested_write` matches a question in the imperative
    against."""
    found: dict[str, list[tuple[int, frozenset[str]]]] = {}
    for position, (owner, name) in enumerate(
        zip(corpus.owner_column, corpus.field_column, strict=True)
    ):
        if owner in owners:
            words = frozenset(type_words(name).split(" "))
            for word in words:
                found.setdefault(word, []).append((position, words))
    return found


@dataclass(frozen=True)
class WriteObjects:
    """Each write's objects as three parallel arrays, one row per write and object."""

    writes: IntArray  # the write: a mutation root field's corpus position
    objects: IntArray  # the object: its owner number (`StructuralIndex.owner_of`)
    shares: FloatArray  # 1 / how many writes return that object

    @classmethod
    def of(cls, corpus: Corpus, owner_of: Sequence[int], owners: frozenset[str]) -> WriteObjects:
        """The objects of every write, a field of one of `owners` (none without one)."""
        import numpy as np

        numbers = dict(zip(corpus.owner_column, owner_of, strict=True))
        fields: dict[str, list[str]] = {}
        for owner, target in zip(corpus.owner_column, corpus.target_column, strict=True):
            fields.setdefault(owner, []).append(target)
        type_names = reader_of(corpus.output_types).type_names
        changed = frozenset(name for name in numbers if name not in owners)
        rows: list[tuple[int, int]] = []
        for position, (owner, named) in enumerate(
            zip(corpus.owner_column, corpus.target_column, strict=True)
        ):
            if owner not in owners or named in owners:
                continue
            returned = set()
            if named in numbers:
                returned = {named} | {t for t in fields[named] if t in numbers and t not in owners}
            if not returned:
                object_named = _named_object(corpus.field_column[position], type_names, changed)
                returned = {object_named} if object_named else set()
            rows.extend((position, numbers[name]) for name in sorted(returned))
        writes = np.array([write for write, _ in rows], dtype=np.int64)
        objects = np.array([number for _, number in rows], dtype=np.int64)
        returning = np.bincount(objects, minlength=max(numbers.values(), default=-1) + 1)
        return cls(writes, objects, 1.0 / returning[objects])

    def evidence(self, owner_best: FloatArray, size: int) -> FloatArray:
        """Each entry's evidence from the objects it returns as a write: the best, over its
        objects, of the object's best field score (`owner_best`, by owner number) times its
        share; 0 for every entry that is no write."""
        import numpy as np

        found: FloatArray = np.zeros(size)
        np.maximum.at(found, self.writes, owner_best[self.objects] * self.shares)
        return found


def _named_object(write: str, type_names: TypeNames, objects: frozenset[str]) -> str | None:
    """The object type a write's name names beside its verb (one of `objects`): all its
    words but the first (`setGroupMetadata`: a verb first), else all but the last
    (`deploymentRestart`: the verb last); None where neither names one."""
    words = type_words(write).split(" ")
    for rest in (words[1:], words[:-1]):
        named = [name for name in type_names.names_of(rest) if name in objects] if rest else []
        if named:
            return named[0]
    return None
