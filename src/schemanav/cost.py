"""What an operation an agent wrote would cost the API, checked before it is sent.

Three measures, from the document alone (fragments followed, the caller's variables read):

- depth: how deep fields nest (`{ viewer { login } }` is 2);
- aliases: how many fields carry an alias (the cheap way to ask one field many times);
- nodes: an estimate of the objects the answer holds, each field counting once per item of
  every list above it, a list's size being its `first` or `last` argument (a literal, or a
  variable: the value supplied, else the variable's default, else `UNKNOWN_PAGE`); a list
  without a `first` or `last` counts as one item, so the figure is a floor for such lists.

`check_cost` refuses an operation over any of the limits (`max_depth`, `max_aliases`,
`max_nodes`: settings, so flags, SCHEMANAV_ variables and schemanav.toml), saying which limit,
by how much, and what to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from schemanav.defaults import DEFAULT_MAX_ALIASES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES

if TYPE_CHECKING:
    from graphql import DocumentNode, OperationDefinitionNode, SelectionSetNode

PAGE_ARGUMENTS = ("first", "last")
NODE_CEILING = 10**12
"""Estimates stop growing here (a list of lists of lists… multiplies quickly)."""
UNKNOWN_PAGE = 100
"""A page size the operation leaves to the server (a variable with no value and no default, or
null): a schema does not state its largest page, and 100 is the most GitHub's and GitLab's
connections return, so the estimate stays an upper bound there rather than a floor."""


@dataclass(frozen=True)
class CostLimits:
    max_depth: int = DEFAULT_MAX_DEPTH
    max_aliases: int = DEFAULT_MAX_ALIASES
    max_nodes: int = DEFAULT_MAX_NODES


@dataclass(frozen=True)
class OperationCost:
    depth: int
    aliases: int
    nodes: int

    def describe(self) -> str:
        return f"depth {self.depth}, {self.aliases} aliases, about {self.nodes:,} nodes"


def operation_cost(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Mapping[str, Any] | None = None,
) -> OperationCost:
    """Depth, aliases and estimated nodes of `operation` (a validated document).

    One walk, linear in the document: each fragment is measured once (per item of the lists
    above it, which multiply its nodes) and its measure reused at every spread, so fragments
    that spread each other twice per level cost no more than they are long."""
    from graphql import FragmentDefinitionNode

    fragments = {
        d.name.value: d.selection_set
        for d in document.definitions
        if isinstance(d, FragmentDefinitionNode)
    }
    walk = _Walk(fragments, _page_variables(operation, variables))
    measure = walk.selections(operation.selection_set)
    return OperationCost(measure.depth, measure.aliases, measure.nodes)


@dataclass(frozen=True)
class _Measure:
    """A selection set's cost for one item of the list it is read from: how deep it nests,
    its aliases and its nodes (each capped at `NODE_CEILING`)."""

    depth: int = 0
    aliases: int = 0
    nodes: int = 0

    def plus(self, other: _Measure) -> _Measure:
        return _Measure(
            max(self.depth, other.depth),
            min(self.aliases + other.aliases, NODE_CEILING),
            min(self.nodes + other.nodes, NODE_CEILING),
        )


def _page_variables(
    operation: OperationDefinitionNode, variables: Mapping[str, Any] | None
) -> dict[str, int]:
    """Each variable's page size: the value supplied, else its default, else `UNKNOWN_PAGE`
    (the server's own default, which the document does not say)."""
    from graphql import IntValueNode

    given = dict(variables or {})
    pages: dict[str, int] = {}
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        default = definition.default_value
        if name in given:
            pages[name] = _page_of(given[name])
        elif isinstance(default, IntValueNode):
            pages[name] = _page_of(int(default.value))
        else:
            pages[name] = UNKNOWN_PAGE
    return pages


def _page_of(value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, 1), NODE_CEILING)
    return UNKNOWN_PAGE  # null: the argument is left to the server


class _Walk:
    def __init__(self, fragments: dict[str, SelectionSetNode], pages: dict[str, int]) -> None:
        self.fragments = fragments
        self.pages = pages
        self.measured: dict[str, _Measure] = {}
        self.measuring: set[str] = set()

    def selections(self, selection_set: SelectionSetNode) -> _Measure:
        from graphql import FieldNode, FragmentSpreadNode, InlineFragmentNode

        total = _Measure()
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                page = self._page(selection)
                below = _Measure()
                if selection.selection_set is not None:
                    below = self.selections(selection.selection_set)
                field = _Measure(
                    below.depth + 1,
                    min(below.aliases + (selection.alias is not None), NODE_CEILING),
                    min(page * (1 + below.nodes), NODE_CEILING),
                )
                total = total.plus(field)
            elif isinstance(selection, InlineFragmentNode):
                total = total.plus(self.selections(selection.selection_set))
            elif isinstance(selection, FragmentSpreadNode):
                total = total.plus(self._fragment(selection.name.value))
        return total

    def _fragment(self, name: str) -> _Measure:
        measured = self.measured.get(name)
        if measured is not None:
            return measured
        fragment = self.fragments.get(name)
        if fragment is None or name in self.measuring:  # (a cycle never validates)
            return _Measure()
        self.measuring.add(name)
        measured = self.measured[name] = self.selections(fragment)
        self.measuring.discard(name)
        return measured

    def _page(self, field: Any) -> int:
        """The size of the list a field asks for: its `first` or `last`, else 1."""
        from graphql import IntValueNode, NullValueNode, VariableNode

        for argument in field.arguments or ():
            if argument.name.value not in PAGE_ARGUMENTS:
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                return _page_of(int(value.value))
            if isinstance(value, NullValueNode):
                return UNKNOWN_PAGE
            if isinstance(value, VariableNode):
                return self.pages.get(value.name.value, UNKNOWN_PAGE)
        return 1


def cost_problem(cost: OperationCost, limits: CostLimits) -> str | None:
    """Why `cost` is over `limits` (naming the limit and the way to raise it), or None."""
    checks = (
        ("depth", cost.depth, limits.max_depth, "max_depth", "nest fewer fields"),
        ("aliases", cost.aliases, limits.max_aliases, "max_aliases", "use fewer aliases"),
        (
            "estimated nodes",
            cost.nodes,
            limits.max_nodes,
            "max_nodes",
            "ask for fewer items (smaller first/last)",
        ),
    )
    for label, value, limit, setting, advice in checks:
        if value > limit:
            flag = "--" + setting.replace("_", "-")
            return (
                f"refused: {label} {value:,} is over the limit of {limit:,} ({setting}; "
                f"{flag} or SCHEMANAV_{setting.upper()} raises it): {advice}"
            )
    return None
