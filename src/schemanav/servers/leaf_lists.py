"""graphql-core's executor, with lists of strings completed in one step.

An `__search` page of 10 results lists about 70 coordinates in its `pathsToRoot`
(`[[String!]!]!`), and graphql-core completes each one through its general path (an
awaitable check, a response path, the leaf's serializer): a third of the endpoint's time on
such a page. A `String` or `String!` list whose items are all `str` completes to a list of the
same strings (String's serializer returns a `str` as it is), so that list is copied at once;
any other list, or one asked with `@stream`, goes through graphql-core's own completion.
A list of such lists (`pathsToRoot` itself) is copied at once the same way: graphql-core
would complete each inner list by its general path first (about 0.05 ms a page).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from graphql import (
    GraphQLList,
    GraphQLNonNull,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLString,
)
from graphql.execution.incremental.incremental_executor import IncrementalExecutor
from graphql.pyutils import AwaitableOrValue, Path


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
        return super().complete_iterable_value(
            item_type, field_details_list, info, path, items, position_context
        )


def _is_string(item_type: Any) -> bool:
    """`String` or `String!`."""
    inner = item_type.of_type if isinstance(item_type, GraphQLNonNull) else item_type
    return inner is GraphQLString
