"""graphql-core's executor, with lists of strings completed in one step.

An `__search` page of 10 results lists about 70 coordinates in its `pathsToRoot`
(`[[String!]!]!`), and graphql-core completes each one through its general path (an
awaitable check, a response path, the leaf's serializer): a third of the endpoint's time on
such a page. A `String` or `String!` list whose items are all `str` completes to a list of the
same strings (String's serializer returns a `str` as it is), so that list is copied at once;
any other list, or one asked with `@stream`, goes through graphql-core's own completion.
A list of such lists (`pathsToRoot` itself) is copied at once the same way: graphql-core
would complete each inner list by its general path first (about 0.05 ms a page).

A list of objects whose selected fields are all plain leaves (`__search`'s results asked for
`coordinate score pathsToRoot`: fields without arguments or resolvers of their own, each a
`String`, a finite `Float` or a list of lists of strings, read from a dict) is completed in
one step too: graphql-core would run each field of each result through its whole path (a
resolve info, the request-limit middleware, the leaf's serializer), a quarter of a page's
time. The middleware is the request's own field count (`RequestBudget`), so it is spent for
every field at once when the budget holds them all; anything else (a value of another type,
a callable one such as `cursor`, `definition`, `__typename`, an alias on a field with an
argument, `@stream`, `@defer`, a budget too small to hold them) takes graphql-core's path,
which is then as it was.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from graphql import (
    GraphQLFloat,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLString,
    default_field_resolver,
)
from graphql.execution.incremental.incremental_executor import IncrementalExecutor
from graphql.pyutils import AwaitableOrValue, Path

from schemanav.servers.request_limits import RequestBudget

_TEXT, _NUMBER, _TEXT_LISTS = "text", "number", "text lists"


class LeafListExecutor(IncrementalExecutor):
    """`IncrementalExecutor` (graphql-core's default) completing lists of strings at once."""

    def complete_iterable_value(
        self,
        item_type: GraphQLOutputType,
        field_details_list: Any,
        info: GraphQLResolveInfo[Any],
        path: Path,
        items: Iterable[Any],
        position_context: Any,
    ) -> AwaitableOrValue[list[Any]]:
        inner = item_type.of_type if isinstance(item_type, GraphQLNonNull) else item_type
        if (
            inner is GraphQLString
            and isinstance(items, list | tuple)
            and all(type(item) is str for item in items)
            and not self.get_stream_usage(field_details_list, path)
        ):
            return list(items)
        if (
            isinstance(inner, GraphQLList)
            and _is_string(inner.of_type)
            and isinstance(items, list | tuple)
            and all(
                isinstance(item, list | tuple) and all(type(text) is str for text in item)
                for item in items
            )
            and not self.get_stream_usage(field_details_list, path)
        ):
            return [list(item) for item in items]
        if (
            isinstance(inner, GraphQLObjectType)
            and isinstance(items, list | tuple)
            and not self.get_stream_usage(field_details_list, path)
        ):
            completed = self._plain_objects(inner, field_details_list, items)
            if completed is not None:
                return completed
        return super().complete_iterable_value(
            item_type, field_details_list, info, path, items, position_context
        )

    def _plain_objects(
        self, object_type: GraphQLObjectType, field_details_list: Any, items: Iterable[Any]
    ) -> list[dict[str, Any]] | None:
        """The list completed at once, as graphql-core completes it, when every item is a dict
        and every field selected of it a plain leaf (see the module doc); else None, having
        spent nothing."""
        budget = self._plain_budget()
        if object_type.is_type_of is not None or budget is None:
            return None
        grouped, deferred, _forbidden = self.collect_subfields(object_type, field_details_list)
        if deferred:
            return None
        fields: list[tuple[str, str, str]] = []  # (response key, field name, kind)
        for key, details in grouped.items():
            nodes = [detail.node for detail in details]
            name = nodes[0].name.value
            field = object_type.fields.get(name)
            kind = _plain_kind(field.type) if field is not None else None
            if (
                field is None
                or kind is None
                or field.resolve is not None
                or field.args
                or any(node.arguments or node.directives for node in nodes)
            ):
                return None
            fields.append((key, name, kind))
        rows: list[dict[str, Any]] = []
        for item in items:
            if type(item) is not dict:
                return None
            row: dict[str, Any] = {}
            for key, name, kind in fields:
                value = _plain_value(item.get(name), kind)
                if value is None:
                    return None
                row[key] = value
            rows.append(row)
        spent = len(rows) * len(fields)
        if spent > budget.fields_left:
            return None  # graphql-core's path says which field ran out
        budget.fields_left -= spent
        return rows

    def _plain_budget(self) -> RequestBudget | None:
        """The request's field count when it is the only middleware and fields resolve by
        graphql-core's default resolver; None otherwise."""
        manager = self.middleware_manager
        if self.field_resolver is not default_field_resolver or manager is None:
            return None
        (budget,) = manager.middlewares if len(manager.middlewares) == 1 else (None,)
        if not isinstance(budget, RequestBudget) or type(budget).resolve is not (
            RequestBudget.resolve
        ):
            return None
        return budget


def _plain_kind(field_type: Any) -> str | None:
    """What a plain leaf field holds: `String`, `Float` or a list of lists of strings,
    nullable or not; None for any other type."""
    inner = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
    if inner is GraphQLString:
        return _TEXT
    if inner is GraphQLFloat:
        return _NUMBER
    if isinstance(inner, GraphQLList):
        lists = (
            inner.of_type.of_type if isinstance(inner.of_type, GraphQLNonNull) else inner.of_type
        )
        if isinstance(lists, GraphQLList) and _is_string(lists.of_type):
            return _TEXT_LISTS
    return None


def _plain_value(value: Any, kind: str) -> Any:
    """`value` as graphql-core completes it for a field of `kind`, when it completes to the
    same value with no error and no call; else None."""
    if kind == _TEXT:
        return value if type(value) is str else None
    if kind == _NUMBER:
        return value if type(value) is float and math.isfinite(value) else None
    if isinstance(value, list | tuple) and all(
        isinstance(item, list | tuple) and all(type(text) is str for text in item) for item in value
    ):
        return [list(item) for item in value]
    return None


def _is_string(item_type: Any) -> bool:
    """`String` or `String!`."""
    inner = item_type.of_type if isinstance(item_type, GraphQLNonNull) else item_type
    return inner is GraphQLString
