"""Bounds on the work one `schemanav serve` request may ask for.

One GraphQL document can ask for thousands of aliased `__search` calls, each with its
definitions, or nest introspection until the answer is exponential in the schema: one such
request once held the server for two minutes and 500 MB while every other client waited.
Each request is therefore measured before and while it runs, and refused with one GraphQL
error that names the bound:

- `MAX_DOCUMENT_CHARS` (100,000): characters of the document, checked before it is parsed
  (the standard introspection query has about 1,500). graphql-core lexes 20,000 tokens in
  about 0.1 s of CPU, holding the interpreter while every other request waits: a document far
  longer than any an agent sends is refused for its length at once.
- `MAX_DOCUMENT_TOKENS` (20,000): lexical tokens of the document, counted by graphql-core's
  parser (the standard introspection query has about 1,000); checked before validation, whose
  overlapping-fields rule is quadratic in the fields of one selection set.
- `MAX_SEMANTIC_SELECTIONS` (10): `__search` and `__definitions` fields in the operation,
  aliases and fragments included.
- `MAX_SELECTION_DEPTH` (32): nesting of the operation's selections (the standard
  introspection query needs 13).
- `MAX_TOTAL_FIRST` (300): the sum of `first` over the request's `__search` calls.
- `DEFAULT_MAX_RESOLVED_FIELDS` (500,000): fields resolved while executing it, which
  bounds its time; the standard introspection query resolves 280,151 on
  GitLab's schema, 126,453 on GitHub's. `SCHEMANAV_MAX_RESOLVED_FIELDS` changes it
  (`resolved_field_cap`).
- `MAX_ANSWER_BYTES` (16 MiB, the CLI's `MAX_RESPONSE_BYTES`): the JSON answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from schemanav.limits import MAX_RESPONSE_BYTES, describe_bytes

if TYPE_CHECKING:
    from graphql import DocumentNode, OperationDefinitionNode, SelectionSetNode

MAX_DOCUMENT_CHARS = 100_000
MAX_DOCUMENT_TOKENS = 20_000
MAX_SEMANTIC_SELECTIONS = 10
MAX_SELECTION_DEPTH = 32
MAX_TOTAL_FIRST = 300
DEFAULT_MAX_RESOLVED_FIELDS = 500_000
RESOLVED_FIELDS_VARIABLE = "SCHEMANAV_MAX_RESOLVED_FIELDS"
MAX_ANSWER_BYTES = MAX_RESPONSE_BYTES
# Selections visited (fragments expanded) before a document counts as too large to measure:
# fragments that spread each other twice per level would otherwise expand exponentially.
_MAX_EXPANDED_SELECTIONS = 50_000


class RequestTooCostly(Exception):
    """The request asks for more than a bound allows; `message` says which, for the caller,
    and `limit` names the bound (the label `/metrics` counts it under)."""

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.message = message
        self.limit = limit


def check_document(
    document: DocumentNode, operation: OperationDefinitionNode, semantic: frozenset[str]
) -> None:
    """Raise `RequestTooCostly` when the operation selects more `semantic` root fields or
    nests deeper than allowed. Fragments are expanded (each spread counted)."""
    from graphql import FieldNode, FragmentDefinitionNode, FragmentSpreadNode, InlineFragmentNode

    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    pending: list[tuple[SelectionSetNode, int, bool]] = [(operation.selection_set, 1, True)]
    semantic_count = visited = 0
    while pending:
        selection_set, depth, at_root = pending.pop()
        if depth > MAX_SELECTION_DEPTH:
            raise RequestTooCostly(
                f"the operation nests selections more than {MAX_SELECTION_DEPTH} levels deep",
                "selection_depth",
            )
        for selection in selection_set.selections:
            visited += 1
            if visited > _MAX_EXPANDED_SELECTIONS:
                raise RequestTooCostly(
                    f"the operation expands to more than {_MAX_EXPANDED_SELECTIONS:,} "
                    "selections; send a smaller document",
                    "expanded_selections",
                )
            if isinstance(selection, FieldNode):
                if at_root and selection.name.value in semantic:
                    semantic_count += 1
                    if semantic_count > MAX_SEMANTIC_SELECTIONS:
                        raise RequestTooCostly(
                            f"at most {MAX_SEMANTIC_SELECTIONS} __search and __definitions "
                            "selections per request; send the rest in later requests",
                            "semantic_selections",
                        )
                if selection.selection_set is not None:
                    pending.append((selection.selection_set, depth + 1, False))
                continue
            if isinstance(selection, FragmentSpreadNode):
                fragment = fragments.get(selection.name.value)
                if fragment is not None:
                    pending.append((fragment.selection_set, depth, at_root))
                continue
            if isinstance(selection, InlineFragmentNode):
                pending.append((selection.selection_set, depth, at_root))


def resolved_field_cap() -> int:
    """`$SCHEMANAV_MAX_RESOLVED_FIELDS`, else `DEFAULT_MAX_RESOLVED_FIELDS`."""
    import os

    from schemanav.errors import InputError

    raw = os.environ.get(RESOLVED_FIELDS_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_MAX_RESOLVED_FIELDS
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1000:
        raise InputError(f"{RESOLVED_FIELDS_VARIABLE} must be a whole number, at least 1000")
    return value


class BudgetSpent(BaseException):
    """Raised from inside graphql-core's execution to stop it at once. A `BaseException`,
    because graphql-core turns every `Exception` a resolver raises into a field error and
    goes on with the siblings (hundreds of thousands of them, each an error object).
    `limit` names the bound, as `RequestTooCostly.limit` does."""

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.message = message
        self.limit = limit


class RequestBudget:
    """What one request may still spend while it executes: `__search` results (`first`) and
    resolved fields. Passed as graphql-core's context value and as its middleware (an object
    with a `resolve` method), which counts every field. Running out raises `BudgetSpent`,
    which the caller turns into the request's one error."""

    def __init__(self, max_fields: int) -> None:
        self.first_left = MAX_TOTAL_FIRST
        self.max_fields = self.fields_left = max_fields

    def spend_first(self, first: int) -> None:
        self.first_left -= first
        if self.first_left < 0:
            raise BudgetSpent(
                f"the __search calls of one request may ask for {MAX_TOTAL_FIRST} results in "
                "all (the sum of first); ask for fewer",
                "total_first",
            )

    def resolve(self, next_resolve: Any, root: Any, info: Any, **arguments: Any) -> Any:
        """graphql-core's middleware hook: count the field, then resolve it."""
        self.fields_left -= 1
        if self.fields_left < 0:
            raise BudgetSpent(
                f"the answer would resolve more than {self.max_fields:,} fields; "
                "select fewer fields or nest less",
                "resolved_fields",
            )
        return next_resolve(root, info, **arguments)


def answer_too_large(size: int) -> str | None:
    """Why an answer of `size` bytes is not sent, or None."""
    if size > MAX_ANSWER_BYTES:
        return (
            f"the answer is larger than {describe_bytes(MAX_ANSWER_BYTES)}; select fewer fields "
            "or ask for fewer results"
        )
    return None
