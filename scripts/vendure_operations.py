"""Label the Vendure Admin UI's real GraphQL operations with the schema coordinates they touch.

The Vendure Admin UI (npm package `@vendure/admin-ui`, MIT licence) ships its client operations
as `gql` template literals in its compiled ES modules (`esm2022/**/*.mjs`: mostly
`core/data/definitions/*-definitions.mjs`, plus the list and detail components' own
`*.graphql.mjs` / `*.component.mjs` files). Fragments are separate templates, pulled into an
operation by `${SOME_FRAGMENT}` interpolation. This script

1. pulls every `const NAME = gql \\`...\\`` template out of those files (the only hand parsing),
   and resolves the `${NAME}` interpolations by constant name, recursively;
2. parses each resolved document with graphql-core (repeated fragment definitions, which a
   fragment interpolated twice produces, are kept once) and validates it against the schema
   with graphql-core's specified rules; documents using the client-only `@client` directive
   (Apollo local state) are dropped and counted apart, and so are documents that do not
   validate;
3. labels each named operation with every coordinate it touches, walking it with `TypeInfo`:
   `Type.field` for each selected field (the parent type is the type the selection is written
   on, so fields inside an inline fragment or a fragment spread count on its type condition,
   concrete or abstract; `__typename` and other introspection fields are skipped), and
   `Type.field(arg:)` for each field argument used. Fragments are followed where they are
   spread, each once per operation.

With `--questions` (a TSV of `operation<TAB>question`, written by hand, `#` comments allowed)
and `--out`, it writes the labelled benchmark that `schemanav.bench.labelled.load_labelled`
reads: `question<TAB>label,label,...`, one row per question, with the labels of its operation.
Every label is checked to exist in the schema.

Get the admin-ui package (npm only; unpack it outside the repository):

    cd /tmp && npm pack @vendure/admin-ui@2.3.4 && tar xzf vendure-admin-ui-2.3.4.tgz
    # -> /tmp/package (the schema, schemas/vendure-admin.graphqls, is committed; its header
    #    says how it was produced from @vendure/core 2.3.4)

Run (from the repository root):

    .venv/bin/python scripts/vendure_operations.py --admin-ui /tmp/package \\
        --schema schemas/vendure-admin.graphqls \\
        --questions benchmarks/vendure-admin-questions.tsv \\
        --out benchmarks/vendure-admin-full.tsv

Without `--questions` it prints each valid operation's kind, name, source file and labels
(`--json FILE` writes them, with the operation text, as JSON); `--show-invalid` also lists
the dropped operations and why. With @vendure/admin-ui 2.3.4 and the committed schema:
334 gql templates, 276 operations, 16 dropped for `@client`, 3 invalid, 257 valid
(105 queries, 152 mutations).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLSchema,
    OperationDefinitionNode,
    TypeInfo,
    TypeInfoVisitor,
    Visitor,
    build_schema,
    is_interface_type,
    is_object_type,
    parse,
    print_ast,
    validate,
    visit,
)
from graphql.language import ArgumentNode, DirectiveNode

# At the start of a line, so that the usage examples inside doc comments (` * const X = gql`)
# are not taken for the package's own operations.
GQL_TEMPLATE = re.compile(r"^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*gql\s*`([^`]*)`", re.M)
INTERPOLATION = re.compile(r"\$\{\s*([A-Za-z_$][\w$]*)\s*\}")


@dataclass
class Template:
    name: str
    file: str
    text: str


@dataclass
class Operation:
    name: str
    kind: str  # query | mutation | subscription
    file: str
    constant: str
    text: str
    labels: list[str] = field(default_factory=list)


@dataclass
class Report:
    templates: int = 0
    operations_found: int = 0
    client_only: list[str] = field(default_factory=list)
    invalid: dict[str, list[str]] = field(default_factory=dict)
    valid: list[Operation] = field(default_factory=list)


def read_templates(admin_ui: Path) -> dict[str, Template]:
    """Every `const NAME = gql \\`...\\`` in the package's esm2022 modules, by constant name."""
    root = admin_ui / "esm2022"
    if not root.is_dir():
        sys.exit(f"{root} not found: pass the unpacked @vendure/admin-ui package directory")
    templates: dict[str, Template] = {}
    for path in sorted(root.rglob("*.mjs")):
        source = path.read_text(encoding="utf-8")
        for match in GQL_TEMPLATE.finditer(source):
            name, text = match.group(1), match.group(2)
            relative = str(path.relative_to(admin_ui))
            if name in templates and templates[name].text != text:
                sys.exit(
                    f"gql constant {name} defined differently in "
                    f"{templates[name].file} and {relative}"
                )
            templates.setdefault(name, Template(name, relative, text))
    return templates


def resolve(name: str, templates: dict[str, Template], stack: tuple[str, ...] = ()) -> str:
    """The template's text with each `${NAME}` replaced by that template, recursively."""
    if name in stack:
        sys.exit(f"interpolation cycle: {' -> '.join((*stack, name))}")
    template = templates.get(name)
    if template is None:
        raise KeyError(name)
    return INTERPOLATION.sub(
        lambda m: resolve(m.group(1), templates, (*stack, name)), template.text
    )


def dedupe_fragments(document: DocumentNode) -> DocumentNode:
    """Keep the first definition of each fragment name (a fragment interpolated twice appears
    twice, as Apollo's gql tag also tolerates); differing definitions of one name are an error."""
    seen: dict[str, str] = {}
    definitions = []
    for definition in document.definitions:
        if isinstance(definition, FragmentDefinitionNode):
            name = definition.name.value
            printed = print_ast(definition)
            if name in seen:
                if seen[name] != printed:
                    raise ValueError(f"fragment {name} defined twice, differently")
                continue
            seen[name] = printed
        definitions.append(definition)
    return DocumentNode(definitions=tuple(definitions))


def uses_client_directive(document: DocumentNode) -> bool:
    found = False

    class Finder(Visitor):
        def enter_directive(self, node: DirectiveNode, *_args: object) -> None:
            nonlocal found
            if node.name.value == "client":
                found = True

    visit(document, Finder())
    return found


def operation_labels(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: dict[str, FragmentDefinitionNode],
) -> list[str]:
    """`Type.field` and `Type.field(arg:)` for everything the operation selects, in document
    order with fragments followed where first spread."""
    labels: dict[str, None] = {}
    visited_fragments: set[str] = set()

    def walk(node: OperationDefinitionNode | FragmentDefinitionNode) -> None:
        type_info = TypeInfo(schema)

        class Labeller(Visitor):
            def enter_field(self, node: FieldNode, *_args: object) -> None:
                if node.name.value.startswith("__"):
                    return
                parent = type_info.get_parent_type()
                if parent is None or type_info.get_field_def() is None:
                    raise ValueError(f"no field definition for {node.name.value}")
                labels.setdefault(f"{parent.name}.{node.name.value}")

            def enter_argument(
                self,
                node: ArgumentNode,
                _key: object,
                _parent: object,
                _path: object,
                ancestors: list[object],
            ) -> None:
                if type_info.get_directive() is not None:
                    return  # @include(if:) and the like are not schema coordinates of fields
                # While inside a field's arguments, TypeInfo's parent type is the field's owner.
                parent = type_info.get_parent_type()
                owner_field = next(a for a in reversed(ancestors) if isinstance(a, FieldNode))
                if parent is None or type_info.get_argument() is None:
                    raise ValueError(f"argument {node.name.value} without a definition")
                labels.setdefault(f"{parent.name}.{owner_field.name.value}({node.name.value}:)")

            def enter_fragment_spread(self, node: FragmentSpreadNode, *_args: object) -> None:
                # Walking the fragment where it is spread keeps the labels in reading order.
                name = node.name.value
                if name not in visited_fragments:
                    visited_fragments.add(name)
                    walk(fragments[name])

        visit(node, TypeInfoVisitor(type_info, Labeller()))

    walk(operation)
    return list(labels)


def collect(admin_ui: Path, schema: GraphQLSchema) -> Report:
    templates = read_templates(admin_ui)
    report = Report(templates=len(templates))
    for name, template in templates.items():
        try:
            text = resolve(name, templates)
        except KeyError as missing:
            sys.exit(f"{template.file}: {name} interpolates unknown constant {missing}")
        document = parse(text)
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        if not operations:
            continue  # a fragment template
        document = dedupe_fragments(document)
        report.operations_found += len(operations)
        op_names = [op.name.value if op.name else f"<anonymous in {name}>" for op in operations]
        if uses_client_directive(document):
            report.client_only.extend(op_names)
            continue
        errors = validate(schema, document)
        if errors:
            for op_name in op_names:
                report.invalid[op_name] = [e.message for e in errors]
            continue
        fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        for operation, op_name in zip(operations, op_names, strict=True):
            if operation.name is None:
                report.invalid[op_name] = ["anonymous operation"]
                continue
            labels = operation_labels(schema, operation, fragments)
            report.valid.append(
                Operation(
                    op_name,
                    operation.operation.value,
                    template.file,
                    name,
                    print_ast(document),
                    labels,
                )
            )
    return report


def check_label(schema: GraphQLSchema, label: str) -> bool:
    match = re.fullmatch(r"(\w+)\.(\w+)(?:\((\w+):\))?", label)
    if not match:
        return False
    owner = schema.get_type(match.group(1))
    if not (is_object_type(owner) or is_interface_type(owner)):
        return False
    field_def = owner.fields.get(match.group(2))
    if field_def is None:
        return False
    return match.group(3) is None or match.group(3) in field_def.args


def read_questions(path: Path) -> list[tuple[int, str, str]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if not line.strip() or (line.lstrip().startswith("#") and "\t" not in line):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            sys.exit(f"{path}:{number}: expected 'operation<TAB>question'")
        rows.append((number, parts[0].strip(), parts[1].strip()))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--admin-ui", type=Path, required=True, help="unpacked @vendure/admin-ui package"
    )
    parser.add_argument("--schema", type=Path, required=True, help="Admin API SDL")
    parser.add_argument("--questions", type=Path, help="operation<TAB>question TSV")
    parser.add_argument("--out", type=Path, help="labelled TSV to write (needs --questions)")
    parser.add_argument("--json", type=Path, help="write the valid operations and labels as JSON")
    parser.add_argument("--show-invalid", action="store_true", help="print validation errors")
    args = parser.parse_args()

    schema = build_schema(args.schema.read_text(encoding="utf-8"))
    report = collect(args.admin_ui, schema)
    bad = sorted(
        {label for op in report.valid for label in op.labels if not check_label(schema, label)}
    )
    if bad:
        sys.exit(f"labels missing from the schema: {', '.join(bad)}")

    kinds: dict[str, int] = {}
    for op in report.valid:
        kinds[op.kind] = kinds.get(op.kind, 0) + 1
    print(
        f"# gql templates {report.templates}; operations found {report.operations_found}; "
        f"@client (dropped) {len(report.client_only)}; invalid (dropped) {len(report.invalid)}; "
        f"valid {len(report.valid)} ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})",
        file=sys.stderr,
    )
    if args.show_invalid:
        for name, errors in sorted(report.invalid.items()):
            print(f"# invalid {name}: {' | '.join(errors)}", file=sys.stderr)
        for name in report.client_only:
            print(f"# @client {name}", file=sys.stderr)
    if args.json:
        args.json.write_text(
            json.dumps([op.__dict__ for op in report.valid], indent=1) + "\n", encoding="utf-8"
        )

    if not args.questions:
        for op in report.valid:
            print(f"{op.kind}\t{op.name}\t{op.file}\t{len(op.labels)}\t{','.join(op.labels)}")
        return
    if not args.out:
        sys.exit("--questions needs --out")
    by_name = {op.name: op for op in report.valid}
    rows = []
    for number, name, question in read_questions(args.questions):
        if name not in by_name:
            sys.exit(f"{args.questions}:{number}: no valid operation named {name}")
        rows.append(f"{question}\t{','.join(by_name[name].labels)}")
    header = [
        "# Vendure Admin API schema-navigation benchmark, labelled from real client operations.",
        "# Source: the GraphQL operations of @vendure/admin-ui 2.3.4 (npm; MIT licence,",
        "# Copyright (c) 2018 Michael Bromley), validated against schemas/vendure-admin.graphqls",
        "# (the Admin API schema served by @vendure/core 2.3.4). Questions: hand-written, one per",
        "# operation, some with a keyword twin (benchmarks/vendure-admin-questions.tsv).",
        "# Produced by: .venv/bin/python scripts/vendure_operations.py",
        "#   --admin-ui <unpacked @vendure/admin-ui 2.3.4 package>",
        "#   --schema schemas/vendure-admin.graphqls",
        "#   --questions benchmarks/vendure-admin-questions.tsv",
        "#   --out benchmarks/vendure-admin-full.tsv",
        "#   (do not edit by hand; get the package with: npm pack @vendure/admin-ui@2.3.4)",
        "# Format: question<TAB>every coordinate the operation touches: Type.field and",
        "# Type.field(arg:) (labels: full).",
    ]
    args.out.write_text("\n".join(header + rows) + "\n", encoding="utf-8")
    print(f"# wrote {len(rows)} rows to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
