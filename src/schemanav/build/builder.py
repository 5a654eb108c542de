"""The builder behind `schemanav.build.build_operation` (how it places, connects, fills and
declares: the package's docstring)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal
from weakref import WeakKeyDictionary

from schemanav.build.records import AutoFix, BuildResult, Carried, Variable
from schemanav.errors import InputError
from schemanav.text import clipped

if TYPE_CHECKING:
    from graphql import (
        DocumentNode,
        GraphQLArgument,
        GraphQLField,
        GraphQLNamedType,
        GraphQLObjectType,
        GraphQLSchema,
    )

    from schemanav.graph import SchemaGraph

DEFAULT_LEAF_FIELDS = 3
PREFERRED_LEAVES = ("id", "name", "title")
DEPRECATED_HOP_COST = 2.0

_NAME = r"[_A-Za-z][_0-9A-Za-z]*"
_COORDINATE = re.compile(rf"({_NAME})\.({_NAME})(?:\(({_NAME}):\))?")
_REPLACEMENT = re.compile(rf"\bUse\s+(?:the\s+)?`?({_NAME}(?:\.{_NAME})?)`?")
_SEPARATORS = re.compile(r"[\s,>→]+")

Placement = Literal["direct", "fragment"]


def split_coordinates(items: Iterable[str]) -> list[str]:
    """Coordinates from free text: separated by spaces, commas, `>` or `→` (a path as
    `searchSchema` prints it), each once, in order."""
    pieces: list[str] = []
    for item in items:
        pieces.extend(piece for piece in _SEPARATORS.split(item) if piece)
    return list(dict.fromkeys(pieces))


def field_coordinates(schema: GraphQLSchema, document: DocumentNode | str) -> tuple[str, ...]:
    """The field coordinates an operation selects, in document order, each once.

    The parent type comes from graphql-core's `TypeInfo`, so a field inside `... on Commit`
    counts as `Commit.x`. A field selected on a type also counts for every interface of that
    type declaring it (`Repository.id` is `Node.id` too). Unknown fields and `__typename`
    are skipped.
    """
    from graphql import TypeInfo, TypeInfoVisitor, Visitor, parse, visit

    if isinstance(document, str):
        document = parse(document)
    type_info = TypeInfo(schema)
    found: dict[str, None] = {}

    class _Fields(Visitor):
        def enter_field(self, node: Any, *_: Any) -> None:
            parent = type_info.get_parent_type()
            name = node.name.value
            fields = getattr(parent, "fields", None)
            if parent is None or fields is None or name not in fields:
                return
            found[f"{parent.name}.{name}"] = None
            for interface in getattr(parent, "interfaces", ()):
                if name in interface.fields:
                    found[f"{interface.name}.{name}"] = None

    visit(document, TypeInfoVisitor(type_info, _Fields()))
    return tuple(found)


def build_operation(
    schema: GraphQLSchema,
    coordinates: Sequence[str],
    *,
    leaf_fields: int = DEFAULT_LEAF_FIELDS,
) -> BuildResult:
    """One operation containing every coordinate; see the module docstring for how.

    Raises `InputError` for an empty list, text that is not a coordinate, or a coordinate the
    schema does not have (with the closest existing ones). Coordinates that start at another
    root type than the one most of them start at, or that cannot be reached from it, are left
    out with a warning (and listed in `missing`).
    """
    builder = _Builder(schema, leaf_fields)
    requested = builder.parse(coordinates)
    return builder.build(requested)


@dataclass
class _Selection:
    """A selection set on one type: fields by name, inline fragments by type name."""

    type_name: str
    order: int
    fields: dict[str, _FieldNode] = field(default_factory=dict)
    fragments: dict[str, _Selection] = field(default_factory=dict)

    def is_empty(self) -> bool:
        return not self.fields and all(f.is_empty() for f in self.fragments.values())


@dataclass
class _FieldNode:
    owner: str
    name: str
    definition: GraphQLField
    selection: _Selection | None
    optional_arguments: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Step:
    """One hop of a connection: select `field_name` on the current type, then (for an
    abstract return type) enter the inline fragment `fragment`."""

    field_name: str
    fragment: str | None


class _Builder:
    def __init__(self, schema: GraphQLSchema, leaf_fields: int) -> None:
        self.schema = schema
        self.leaf_fields = leaf_fields
        self._order = 0
        self.added: list[str] = []
        self.leaves: list[str] = []
        self.warnings: list[str] = []
        self.fixes: list[AutoFix] = []
        self.optional: dict[str, list[str]] = {}
        self.inputs: list[str] = []  # requested input fields, carried by variables' values
        self.nodes: list[tuple[_Selection, _FieldNode]] = []

    # input ----------------------------------------------------------------------------------

    def parse(self, coordinates: Sequence[str]) -> list[str]:
        """The requested fields, deprecated ones swapped (`_replace_deprecated`); requested
        input fields go to `inputs`."""
        from graphql import is_enum_type, is_input_object_type

        from schemanav.schema.define import closest_coordinates

        items = split_coordinates(coordinates)
        if not items:
            raise InputError("no coordinates given: name fields as Type.field")
        fields: list[str] = []
        problems: list[str] = []
        for item in items:
            match = _COORDINATE.fullmatch(item)
            if match is None:
                problems.append(
                    f"{clipped(item)!r} is not a field coordinate (Type.field or Type.field(arg:))"
                )
                continue
            owner, name, argument = match.groups()
            known = self._field(owner, name)
            named = self.schema.get_type(owner)
            value = is_enum_type(named) and name in getattr(named, "values", {})
            if value or (known is not None and is_input_object_type(named)):
                if argument is not None:
                    what = "an enum value" if value else "an input field"
                    problems.append(f"{clipped(item)}: {what} takes no arguments")
                else:
                    self.inputs.append(f"{owner}.{name}")
                continue
            if known is None or (argument is not None and argument not in known.args):
                wanted = f"{owner}.{name}" if known is None else item
                closest = closest_coordinates(self.schema, wanted)
                hint = f" (did you mean {', '.join(closest)}?)" if closest else ""
                problems.append(f"{clipped(wanted)} is not in the schema{hint}")
                continue
            coordinate = f"{owner}.{name}"
            if argument is not None:
                self.optional.setdefault(coordinate, []).append(argument)
            fields.append(coordinate)
        if problems:
            raise InputError("; ".join(problems))
        if not fields:
            owner = self.inputs[0].split(".")[0]
            raise InputError(
                f"{self.inputs[0]} is sent inside an argument's value: name the field whose "
                f"argument takes it too (`schemanav define {owner}` shows where it is used)"
            )
        self.inputs = list(dict.fromkeys(self.inputs))
        return [self._replace_deprecated(c) for c in dict.fromkeys(fields)]

    def _field(self, owner: str, name: str) -> GraphQLField | None:
        named = self.schema.get_type(owner)
        fields = getattr(named, "fields", None)
        return None if fields is None else fields.get(name)

    def _replace_deprecated(self, coordinate: str) -> str:
        owner, name = coordinate.split(".")
        definition = self._field(owner, name)
        reason = definition.deprecation_reason if definition is not None else None
        if reason is None:
            return coordinate
        match = _REPLACEMENT.search(reason)
        replacement: str | None = None
        if match is not None:
            named = match.group(1)
            new_owner, _, new_name = named.rpartition(".")
            if self._field(owner, new_name) is not None and new_name != name:
                replacement = f"{owner}.{new_name}"
            elif new_owner and self._field(new_owner, new_name) is not None:
                replacement = f"{new_owner}.{new_name}"
        if replacement is None:
            self.warnings.append(
                f"{coordinate} is deprecated and its reason names no replacement; kept "
                f"({' '.join(reason.split())})"
            )
            return coordinate
        self.fixes.append(AutoFix(coordinate, replacement, " ".join(reason.split())))
        if coordinate in self.optional:
            self.optional.setdefault(replacement, []).extend(self.optional.pop(coordinate))
        return replacement

    # placing --------------------------------------------------------------------------------

    def build(self, requested: list[str]) -> BuildResult:
        requested = list(dict.fromkeys(requested))
        root_type = self._root_for(requested)
        root = self._new_selection(root_type.name)
        pending = list(requested)
        unplaced: list[str] = []
        while pending:
            placed = self._place_hostable(root, pending)
            if placed:
                continue
            connection = self._connect(root, pending)
            if connection is None:
                for coordinate in pending:
                    unplaced.append(coordinate)
                    self.warnings.append(
                        f"{coordinate} cannot be reached from {root_type.name}; left out"
                    )
                break
            coordinate, source, steps = connection
            host = self._walk(source, steps)
            self._place(coordinate, host)
            pending.remove(coordinate)
        carried = self._carry_inputs()
        self._add_leaves(root)
        variables = self._variables()
        for key, held in carried.items():
            variables[key] = replace(variables[key], carries=tuple(held))
        text = self._print(root, root_type.name, variables)
        return self._checked(text, requested, variables)

    def _carry_inputs(self) -> dict[tuple[int, str], list[Carried]]:
        """Each requested input field, by the placed field's argument whose value holds it
        (`_value_for`), the shallowest first, so a deeper one goes inside one already carried
        (`sku` then `eq`: `filter.sku.eq`); an optional argument is then declared. Per
        argument (`_variables`' key), what it carries."""
        from graphql import is_enum_type

        from schemanav.schema.inputs import MAX_INPUT_DEPTH

        carried: dict[tuple[int, str], list[Carried]] = {}
        found = {c: self._value_for(c, carried) for c in self.inputs}
        depth = {c: len(way[2]) if way else MAX_INPUT_DEPTH for c, way in found.items()}
        for coordinate in sorted(self.inputs, key=depth.__getitem__):
            best = self._value_for(coordinate, carried)
            if best is None:
                self.warnings.append(
                    f"no argument of the operation takes {coordinate}; left out (name the "
                    "field whose argument's value holds it)"
                )
                continue
            node, argument_name, keys = best
            optional = not _required(node.definition.args[argument_name])
            if optional and argument_name not in node.optional_arguments:
                node.optional_arguments.append(argument_name)
            owner, _, name = coordinate.partition(".")
            value = name if is_enum_type(self.schema.get_type(owner)) else None
            held = Carried(coordinate, keys, value)
            carried.setdefault((id(node), argument_name), []).append(held)
        return carried

    def _value_for(
        self, coordinate: str, carried: dict[tuple[int, str], list[Carried]]
    ) -> tuple[_FieldNode, str, tuple[str, ...]] | None:
        """The placed field's argument whose value holds the input field or enum value
        `coordinate`, and its keys there (`input_path`): inside an input field already carried
        first (the agent named both), then an argument already a variable, then the fewest
        keys, then the earliest placed."""
        from schemanav.schema.inputs import input_path

        best: tuple[tuple[int, int, int, int], _FieldNode, str, tuple[str, ...]] | None = None
        for order, (_, node) in enumerate(self.nodes):
            for argument_name, argument in node.definition.args.items():
                declared = _required(argument) or argument_name in node.optional_arguments
                ways = [(1, input_path(self.schema, argument.type, coordinate))]
                for held in carried.get((id(node), argument_name), ()):
                    inner = self._field(*held.coordinate.split("."))
                    if inner is not None:
                        keys = input_path(self.schema, inner.type, coordinate)
                        ways.append((0, None if keys is None else (*held.keys, *keys)))
                for within, keys in ways:
                    if keys is None:
                        continue
                    rank = (within, 0 if declared else 1, len(keys), order)
                    if best is None or rank < best[0]:
                        best = (rank, node, argument_name, keys)
        return None if best is None else best[1:]

    def _root_for(self, requested: list[str]) -> GraphQLObjectType:
        roots = [
            root
            for root in (
                self.schema.query_type,
                self.schema.mutation_type,
                self.schema.subscription_type,
            )
            if root is not None
        ]
        if not roots:
            raise InputError("the schema has no query type, so no operation can be built")
        # Coordinates at several roots (a search slice often holds a mutation or two): the
        # root with the most of them wins, the query root on a tie; the others are left out.
        owners = [c.split(".")[0] for c in requested]
        return max(roots, key=lambda root: owners.count(root.name))

    def _new_selection(self, type_name: str) -> _Selection:
        self._order += 1
        return _Selection(type_name, self._order)

    def _selections(self, root: _Selection) -> list[_Selection]:
        found: list[_Selection] = []
        stack = [root]
        while stack:
            selection = stack.pop()
            found.append(selection)
            stack.extend(node.selection for node in selection.fields.values() if node.selection)
            stack.extend(selection.fragments.values())
        return found

    def _placement(self, owner: str, at: str) -> Placement | None:
        """How a field of `owner` can be selected in a selection set on type `at`."""
        from graphql import is_abstract_type, is_interface_type

        if owner == at:
            return "direct"
        owner_type = self.schema.get_type(owner)
        at_type = self.schema.get_type(at)
        if owner_type is None or at_type is None:
            return None
        if is_interface_type(owner_type) and self.schema.is_sub_type(owner_type, at_type):
            return "direct"
        if is_abstract_type(at_type):
            from graphql import do_types_overlap

            if do_types_overlap(self.schema, owner_type, at_type):  # type: ignore[arg-type]
                return "fragment"
        return None

    def _host(self, root: _Selection, coordinate: str) -> tuple[_Selection, Placement] | None:
        owner = coordinate.split(".")[0]
        if owner == root.type_name:
            return root, "direct"
        best: tuple[tuple[int, int], _Selection, Placement] | None = None
        for selection in self._selections(root):
            if selection is root:
                continue
            placement = self._placement(owner, selection.type_name)
            if placement is None:
                continue
            rank = (0 if placement == "direct" else 1, -selection.order)
            if best is None or rank < best[0]:
                best = (rank, selection, placement)
        return None if best is None else (best[1], best[2])

    def _place_hostable(self, root: _Selection, pending: list[str]) -> bool:
        for coordinate in pending:
            host = self._host(root, coordinate)
            if host is not None:
                selection, placement = host
                if placement == "fragment":
                    selection = self._fragment(selection, coordinate.split(".")[0])
                self._place(coordinate, selection)
                pending.remove(coordinate)
                return True
        return False

    def _fragment(self, selection: _Selection, type_name: str) -> _Selection:
        if type_name not in selection.fragments:
            selection.fragments[type_name] = self._new_selection(type_name)
        return selection.fragments[type_name]

    def _place(self, coordinate: str, selection: _Selection) -> _FieldNode:
        name = coordinate.split(".")[1]
        node = self._select(selection, name)
        for argument in self.optional.get(coordinate, ()):
            if argument not in node.optional_arguments:
                node.optional_arguments.append(argument)
        return node

    def _select(self, selection: _Selection, name: str) -> _FieldNode:
        from graphql import TypeNameMetaFieldDef, get_named_type, is_composite_type

        existing = selection.fields.get(name)
        if existing is not None:
            return existing
        definition = (
            TypeNameMetaFieldDef if name == "__typename" else self._field(selection.type_name, name)
        )
        assert definition is not None, (selection.type_name, name)
        named = get_named_type(definition.type)
        child = self._new_selection(named.name) if is_composite_type(named) else None
        node = _FieldNode(selection.type_name, name, definition, child)
        selection.fields[name] = node
        self.nodes.append((selection, node))
        return node

    # connecting -----------------------------------------------------------------------------

    def _connect(
        self, root: _Selection, pending: list[str]
    ) -> tuple[str, _Selection, list[_Step]] | None:
        """The cheapest way from any placed selection (the latest placed first on a tie) to a
        type that can hold a pending coordinate: (that coordinate, the selection to start
        from, the hops), found by `SchemaGraph.cheapest_way`."""
        graph, hops = _graph_of(self.schema)
        owners = {coordinate: coordinate.split(".")[0] for coordinate in pending}

        def holder(type_name: str) -> str | None:
            for coordinate in pending:
                if self._placement(owners[coordinate], type_name) == "direct":
                    return coordinate
            return None

        sources = sorted(self._selections(root), key=lambda s: -s.order)
        way = graph.cheapest_way(
            [(selection.type_name, 0.0) for selection in sources],
            lambda type_name: holder(type_name) is not None,
            hops,
        )
        if way is None:
            return None
        coordinate = holder(way.target)
        assert coordinate is not None
        entries = graph.corpus.entries
        steps = [_Step(entries[entry].field, fragment) for entry, fragment in way.hops]
        return coordinate, sources[way.source], steps

    def _walk(self, source: _Selection, steps: list[_Step]) -> _Selection:
        selection = source
        for step in steps:
            node = self._select(selection, step.field_name)
            self.added.append(f"{selection.type_name}.{step.field_name}")
            assert node.selection is not None
            selection = node.selection
            if step.fragment is not None and step.fragment != selection.type_name:
                selection = self._fragment(selection, step.fragment)
        return selection

    # leaves, variables, text ----------------------------------------------------------------

    def _add_leaves(self, root: _Selection) -> None:
        for selection in self._selections(root):
            if selection is root or not selection.is_empty():
                continue
            for name in self._leaf_names(selection.type_name):
                self._select(selection, name)
                if name != "__typename":
                    self.leaves.append(f"{selection.type_name}.{name}")

    def _leaf_names(self, type_name: str) -> list[str]:
        from graphql import get_named_type, is_leaf_type

        named: GraphQLNamedType | None = self.schema.get_type(type_name)
        fields = getattr(named, "fields", None) or {}
        usable = [
            name
            for name, definition in fields.items()
            if is_leaf_type(get_named_type(definition.type))
            and not definition.deprecation_reason
            and not any(_required(arg) for arg in definition.args.values())
        ]
        ordered = [n for n in PREFERRED_LEAVES if n in usable]
        ordered += [n for n in usable if n not in ordered]
        return ordered[: max(1, self.leaf_fields)] or ["__typename"]

    def _variables(self) -> dict[tuple[int, str], Variable]:
        taken: set[str] = set()
        bound: dict[tuple[int, str], Variable] = {}
        for _, node in self.nodes:
            for argument_name, argument in node.definition.args.items():
                required = _required(argument)
                if not required and argument_name not in node.optional_arguments:
                    continue
                name = argument_name
                if name in taken:
                    name = node.name + argument_name[:1].upper() + argument_name[1:]
                base, number = name, 2
                while name in taken:
                    name, number = f"{base}{number}", number + 1
                taken.add(name)
                bound[(id(node), argument_name)] = Variable(
                    name,
                    str(argument.type),
                    f"{node.owner}.{node.name}({argument_name}:)",
                    required,
                )
        return bound

    def _print(
        self, root: _Selection, root_name: str, variables: dict[tuple[int, str], Variable]
    ) -> str:
        keyword = "query"
        if self.schema.mutation_type is not None and root_name == self.schema.mutation_type.name:
            keyword = "mutation"
        elif (
            self.schema.subscription_type is not None
            and root_name == self.schema.subscription_type.name
        ):
            keyword = "subscription"
        declared = ", ".join(f"${v.name}: {v.type}" for v in variables.values())
        head = f"{keyword}({declared})" if declared else keyword
        lines = [head + " {"]
        self._print_selection(root, variables, 1, lines)
        lines.append("}")
        return "\n".join(lines)

    def _print_selection(
        self,
        selection: _Selection,
        variables: dict[tuple[int, str], Variable],
        depth: int,
        lines: list[str],
    ) -> None:
        indent = "  " * depth
        for node in selection.fields.values():
            bound = [
                (argument, variables[(id(node), argument)])
                for argument in node.definition.args
                if (id(node), argument) in variables
            ]
            arguments = ""
            if bound:
                arguments = "(" + ", ".join(f"{a}: ${v.name}" for a, v in bound) + ")"
            if node.selection is None:
                lines.append(f"{indent}{node.name}{arguments}")
                continue
            lines.append(f"{indent}{node.name}{arguments} {{")
            self._print_selection(node.selection, variables, depth + 1, lines)
            lines.append(f"{indent}}}")
        for type_name, fragment in selection.fragments.items():
            lines.append(f"{indent}... on {type_name} {{")
            self._print_selection(fragment, variables, depth + 1, lines)
            lines.append(f"{indent}}}")

    def _checked(
        self, text: str, requested: list[str], variables: dict[tuple[int, str], Variable]
    ) -> BuildResult:
        from graphql import parse, validate

        document = parse(text)
        errors = tuple(" ".join(error.message.split()) for error in validate(self.schema, document))
        present = field_coordinates(self.schema, document)
        held = {c.coordinate for variable in variables.values() for c in variable.carries}
        return BuildResult(
            operation=text,
            variables=tuple(variables.values()),
            valid=not errors,
            errors=errors,
            requested=(*requested, *self.inputs),
            coordinates=present,
            missing=(
                *(c for c in requested if c not in present),
                *(c for c in self.inputs if c not in held),
            ),
            added=tuple(dict.fromkeys(self.added)),
            leaves=tuple(dict.fromkeys(self.leaves)),
            auto_fixes=tuple(self.fixes),
            warnings=tuple(self.warnings),
        )


_GRAPHS: WeakKeyDictionary[GraphQLSchema, tuple[SchemaGraph, list[float]]] = WeakKeyDictionary()


def _graph_of(schema: GraphQLSchema) -> tuple[SchemaGraph, list[float]]:
    """The schema's graph and each field's hop cost (1, deprecated fields 1 +
    `DEPRECATED_HOP_COST`), made once per schema: an agent builds many operations on one."""
    known = _GRAPHS.get(schema)
    if known is None:
        from schemanav.corpus.model import build_corpus
        from schemanav.graph import SchemaGraph

        graph = SchemaGraph(build_corpus(schema))
        hops = [
            1.0 + (DEPRECATED_HOP_COST if entry.deprecation else 0.0)
            for entry in graph.corpus.entries
        ]
        known = _GRAPHS[schema] = (graph, hops)
    return known


def _undefined() -> Any:
    from graphql import Undefined

    return Undefined


def _required(argument: GraphQLArgument) -> bool:
    """Whether an argument must be given: non-null, without a default."""
    from graphql import is_non_null_type

    return is_non_null_type(argument.type) and argument.default_value is _undefined()
