"""`schemanav build` and the agent's `buildQuery`: coordinates in, one valid operation out.

An agent that found `Query.repository`, `Repository.pullRequests` and `PullRequest.title` still
has to write the operation: nest the fields, declare a typed variable for every required
argument, select leaves under every object-typed end, add `... on T` where a field returns an
interface or union. This module does that in one call, then validates the result with
graphql-core and lists the field coordinates the operation really contains (collected with
`TypeInfo`, the same collector the agent benchmark scores with).

The input is any set of field coordinates (`Type.field`, in any order), plus optional argument
coordinates (`Type.field(arg:)`) for optional arguments that should become variables:

1. Deprecated fields whose reason names a replacement (`Use X`, `Use Type.x`, ``Use the `x`
   field``) are swapped for it, each swap reported as an `AutoFix`; without one the field
   stays and a warning says so.
2. Fields of the operation's root type go at the top. Every other coordinate is placed under
   an already-placed field whose type can hold it (the same type, a type implementing its
   owner interface, or an abstract type it belongs to, through an inline fragment), preferring
   a direct placement and then the most recently placed field. When none can hold any
   remaining coordinate, the cheapest connection from the operation so far is added (over
   `graph.py`'s edges, by `SchemaGraph.cheapest_way`: a hop costs 1, entering an interface or
   union with n possible types costs log2(1 + n) more; deprecated fields cost 2 more) and
   reported in `added`.
3. Every composite end gets leaf fields: `id`, `name`, `title` when present, else the first
   scalar or enum fields without required arguments, at most `leaf_fields`; `__typename` when
   the type has none (unions).
4. An input field (`ProductAttributeFilterInput.sku`, as a slice shows it) is no selection but
   a key of a variable's value, and an enum value (`SortEnum.DESC`) a value at a key of its
   enum's type: each is carried by the argument of a placed field whose value can hold it in
   the fewest keys (`schema.inputs.input_path`), inside an input field also named first, a
   declared variable before an optional argument then declared, and the variable lists it
   with its keys (`filter.sku`, `sort.price = DESC`).
"""

from schemanav.build.builder import (
    DEFAULT_LEAF_FIELDS,
    build_operation,
    field_coordinates,
    split_coordinates,
)
from schemanav.build.records import AutoFix, BuildResult, Carried, Variable

__all__ = [
    "DEFAULT_LEAF_FIELDS",
    "AutoFix",
    "BuildResult",
    "Carried",
    "Variable",
    "build_operation",
    "field_coordinates",
    "split_coordinates",
]
