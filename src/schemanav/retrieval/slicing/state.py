"""A slice while it grows: what is in it, its lines of SDL and their running token count.

The growth is layered: `SliceState` (here) holds the record and its accounting;
`ClosedState` (`closure.py`) adds fields and types while keeping the slice a valid piece of
the schema; `GrowingState` (`growth.py`) adds ranked hits with their ways in.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Self

from schemanav.question.vocabulary import VALUE_MARK

if TYPE_CHECKING:
    from schemanav.graph import ShortestPaths
    from schemanav.retrieval.slicing.tables import SchemaTables

# A step of growth: ("hit", position), ("member", position, abstract), ("link", owner, field),
# ("page", owner, field), ("args", owner, field, arguments), ("implements", type, interface),
# ("fragment", owner, field), ("gate",).
Step = tuple[Any, ...]


def cut_mark(type_name: str, left_out: int) -> str:
    """The description a cut enum or union carries, so that an agent reading the slice never
    takes it for the whole definition: how many values or members it leaves out and how to
    get them all (`define`, the RFC's `__definitions`). Empty when nothing is cut."""
    return f'"{left_out} more: define {type_name}"\n' if left_out > 0 else ""


class SliceState:
    """One slice's record: its types and fields, and each line of SDL with its cost."""

    def __init__(
        self,
        tables: SchemaTables,
        values: list[float],
        routes: ShortestPaths,
        words: frozenset[str],
        many: frozenset[str] = frozenset(),
        budget: int = 0,
        writes: bool = False,
        follows: bool = False,
    ) -> None:
        self.s = tables
        self.budget = budget
        self.many = many  # object types the question names in the plural
        self.listed: set[str] = set()  # types that got their list way in
        self.values = values
        self.routes = routes
        self.words = words
        # The words the question names a quoted value by (`VALUE_MARK`; usually none).
        self.quoted = frozenset(word for word in words if word.startswith(VALUE_MARK))
        self.fields: dict[str, dict[str, list[str]]] = {}  # type → field → arguments shown
        self.implements: dict[str, list[str]] = defaultdict(list)
        self.implemented_by: dict[str, list[str]] = defaultdict(list)
        self.unions: dict[str, list[str]] = {}
        self.inputs: dict[str, list[str]] = {}
        self.enums: list[str] = []
        self.full_enums: set[str] = set()
        self.scalars: list[str] = []
        # Every line of SDL by key: ("h", type) a header, ("f", type, field), ("d", type,
        # field) its description, ("u" | "i" | "e" | "s", type) a union, input, enum, scalar.
        self.lines: dict[tuple[str, ...], str] = {}
        self.total = 0
        self.hits = 0
        # Whether ways in from the mutation root may enter: decided by the first such way
        # (`GrowingState.add_path`), unless the question asks for a write.
        self.other_roots: bool | None = True if writes else None
        # A question that follows something as it changes takes the subscription root's ways
        # in wherever they rank, as a request takes its write's (`GrowingState.add_path`).
        self.follows = follows
        # Types a ranked hit belongs to (not those entering only on the way or as fillers).
        self.hit_types: dict[str, None] = {}  # insertion-ordered: slices are deterministic
        self.hit_counts: dict[str, int] = defaultdict(int)
        self.linked: dict[str, None] = {}  # insertion-ordered: slices are deterministic
        self.line_costs: dict[int, int] = {}  # shared by copies (see `line_cost`)

    def copy(self) -> Self:
        """An independent copy (cheaper than replaying the hits into a fresh state)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.listed = set(self.listed)
        twin.fields = {t: dict(names) for t, names in self.fields.items()}
        twin.implements = defaultdict(list, {t: list(v) for t, v in self.implements.items()})
        twin.implemented_by = defaultdict(
            list, {t: list(v) for t, v in self.implemented_by.items()}
        )
        twin.unions = {t: list(v) for t, v in self.unions.items()}
        twin.inputs = dict(self.inputs)
        twin.enums = list(self.enums)
        twin.full_enums = set(self.full_enums)
        twin.scalars = list(self.scalars)
        twin.lines = dict(self.lines)
        twin.hit_types = dict(self.hit_types)
        twin.hit_counts = defaultdict(int, self.hit_counts)
        twin.linked = dict(self.linked)
        return twin

    def _set_line(self, key: tuple[str, ...], text: str) -> None:
        lines = self.lines
        old = lines.get(key)
        if old == text:
            return
        if old is not None:
            self.total -= self.s.cost(old)
        lines[key] = text
        # Most lines were counted before (by this slice or another): one look-up, no call.
        known = self.s.costs.get(text)
        self.total += known if known is not None else self.s.cost(text)

    def _header(self, type_name: str) -> None:
        kind = self.s.kinds[type_name]
        keyword = "interface" if kind == "interface" else "type"
        interfaces = self.implements.get(type_name)
        implements = f" implements {' & '.join(interfaces)}" if interfaces else ""
        self._set_line(("h", type_name), f"{keyword} {type_name}{implements} {{\n}}\n\n")

    def _union_line(self, union: str) -> None:
        members = self.unions[union]
        mark = cut_mark(union, len(self.s.possible.get(union, ())) - len(members))
        self._set_line(("u", union), f"{mark}union {union} = {' | '.join(members)}\n\n")
