"""What an operation an agent wrote would cost the API, checked before it is sent.

Three measures, from the document alone (fragments followed, the caller's variables read):

- depth: how deep fields nest (`{ viewer { login } }` is 2);
- aliases: how many fields carry an alias (the cheap way to ask one field many times);
- nodes: an estimate of the objects the answer holds, each field counting once per item of
  every list above it, a list's size being its `first` or `last` argument (a literal or a
  variable); a list without one counts as one item, so the figure is a floor for such lists.

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
    """Depth, aliases and estimated nodes of `operation` (a validated document)."""
    from graphql import FragmentDefinitionNode

    fragments = {
        d.name.value: d.selection_set
        for d in document.definitions
        if isinstance(d, FragmentDefinitionNode)
    }
    walk = _Walk(fragments, dict(variables or {}))
    walk.selections(operation.selection_set, 1, 1, frozenset())
    return OperationCost(walk.depth, walk.aliases, min(walk.nodes, NODE_CEILING))


class _Walk:
    def __init__(self, fragments: dict[str, SelectionSetNode], variables: dict[str, Any]) -> None:
        self.fragments = fragments
        self.variables = variables
        self.depth = 0
        self.aliases = 0
        self.nodes = 0

    def selections(
        self, selection_set: SelectionSetNode, depth: int, items: int, spread: frozenset[str]
    ) -> None:
        from graphql import FieldNode, FragmentSpreadNode, InlineFragmentNode

        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                self.depth = max(self.depth, depth)
                self.aliases += selection.alias is not None
                count = min(items * self._page(selection), NODE_CEILING)
                self.nodes = min(self.nodes + count, NODE_CEILING)
                if selection.selection_set is not None:
                    self.selections(selection.selection_set, depth + 1, count, spread)
            elif isinstance(selection, InlineFragmentNode):
                self.selections(selection.selection_set, depth, items, spread)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is not None and name not in spread:  # (a cycle never validates)
                    self.selections(fragment, depth, items, spread | {name})

    def _page(self, field: Any) -> int:
        """The size of the list a field asks for: its `first` or `last`, else 1."""
        from graphql import IntValueNode, VariableNode

        for argument in field.arguments or ():
            if argument.name.value not in PAGE_ARGUMENTS:
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                return max(int(value.value), 1)
            if isinstance(value, VariableNode):
                given = self.variables.get(value.name.value)
                if isinstance(given, int) and not isinstance(given, bool):
                    return max(given, 1)
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
