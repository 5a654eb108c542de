"""Where a slice's operations enter: the roots, and the types grouping a root's fields by
feature (`schemanav.corpus.groups`: `Query.pageBuilder: PbQuery`, `Mutation.formBuilder:
FbMutation`). Their fields are ways in, not parts of an answer: the completion and the fill
take none of a namespace's other operations, as none of a root's, and a write is a field of
the mutation root or of a namespace of it."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from schemanav.corpus.groups import namespaces, write_owners

if TYPE_CHECKING:
    from schemanav.corpus import Corpus
    from schemanav.graph import SchemaGraph


class RootTables:
    """The root-like types of one schema (see the module's docstring)."""

    corpus: Corpus
    graph: SchemaGraph

    @cached_property
    def root_like(self) -> frozenset[str]:
        """The roots and the types grouping their fields by feature (`read_owners`,
        `write_owners`): their fields are ways in, not parts of an answer."""
        return frozenset(self.graph.roots) | self.read_owners | self.write_owners

    @cached_property
    def entry_owners(self) -> frozenset[str]:
        """The types whose fields an operation enters by: the query and mutation roots and
        their namespaces (an entry field shows every argument it offers; the envelope is read
        over what entry fields return)."""
        return self.read_owners | self.write_owners

    @cached_property
    def read_owners(self) -> frozenset[str]:
        """The query root and its namespaces (`schemanav.corpus.groups.namespaces`:
        `Query.pageBuilder: PbQuery`), whose fields are the reads."""
        root = self.corpus.query_root
        return frozenset({root} | namespaces(self.corpus, root)) if root else frozenset()

    @cached_property
    def write_owners(self) -> frozenset[str]:
        """The types whose fields are writes (`schemanav.corpus.groups.write_owners`): read
        for every field with arguments, so kept apart from the costlier `writes`."""
        return write_owners(self.corpus)
