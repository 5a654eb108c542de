"""The answer's tree: every type an operation can select through one root field, by depth.

A client's operation selects more of its answer than a question names: a fragment's whole
object, its parts, the parts of those (an account with its metadata, its rules and their
settings). The way a question enters the schema (its best-ranked root field, or its write)
roots that tree; the types it reaches through fields taking no required argument, and through
the possible types of each union and interface on the way, are what such an operation may
select, the nearest first (`completion.Completion.complete_answer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from schemanav.retrieval.slicing.tables import SchemaTables


class AnswerTrees:
    """The depth of each type under a root field's type, made once per type a slice asks."""

    def __init__(self, tables: SchemaTables) -> None:
        self.s = tables
        self._depths: dict[str, dict[str, int]] = {}
        self._within: dict[str, NDArray[np.bool_]] = {}

    def depths(self, top: str) -> Mapping[str, int]:
        """Each type reached from `top` (depth 0) by fields without required arguments, with
        the fewest hops that reach it; no root (a field back to `Query` relates nothing)."""
        known = self._depths.get(top)
        if known is not None:
            return known
        facts, possible, roots = self.s.facts, self.s.possible, self.s.root_like
        depth = {top: 0}
        frontier = [top]
        while frontier:
            reached: list[str] = []
            for owner in frontier:
                below = depth[owner] + 1
                for field in facts.get(owner, {}).values():
                    if field.leaf or field.required:
                        continue
                    for name in (field.named, *sorted(possible.get(field.named, ()))):
                        if name not in depth and name not in roots:
                            depth[name] = below
                            reached.append(name)
            frontier = reached
        self._depths[top] = depth
        return depth

    def within(self, top: str) -> NDArray[np.bool_]:
        """For each corpus position, whether its field is one of a type under `top`: the
        fill's hits on the answer's tree (`build.Growth._fill_order`)."""
        known = self._within.get(top)
        if known is None:
            import numpy as np

            known = np.zeros(len(self.s.names), dtype=bool)
            fields_of, position = self.s.fields_of, self.s.position
            at = [
                position[owner, name]
                for owner in self.depths(top)
                for name in fields_of.get(owner, ())
            ]
            known[at] = True
            self._within[top] = known
        return known
