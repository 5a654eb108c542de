"""Label a public app's real GraphQL client operations with the schema coordinates they touch.

A development set is made from what a real client asks of its API: the operations it ships,
each labelled with every coordinate it touches, and a question per operation written by hand
as that app's users would ask it. This script does the mechanical part for any app:

1. reads every GraphQL document under the `--source` folders: whole `.graphql` / `.gql` /
   `.graphqls` files, and tagged templates (`gql\\`…\\``, `graphql\\`…\\``, `gql(\\`…\\`)`,
   `graphql(\\`…\\`)`) in JavaScript / TypeScript / Vue / Svelte sources (the only hand
   parsing); `${…}` interpolations are dropped, since they only paste in fragments that are
   found by name anyway;
2. parses each document with graphql-core and files every operation and fragment by name
   (fragments are global by name, as Relay, graphql-codegen and Apollo's loaders treat them);
3. builds each named operation's document (the operation and the fragments it reaches),
   drops client-only parts (fields marked `@client`; directives the schema does not declare,
   such as Relay's `@connection`, `@arguments`, `@argumentDefinitions`), and validates it
   with graphql-core's specified rules (Relay's fragment-local variables aside);
4. labels each valid operation with `Type.field` for every selected field (on the type the
   selection is written on, so inside a fragment or inline fragment on its type condition)
   and `Type.field(arg:)` for every argument given.

With `--questions` (`operation<TAB>question` rows written by hand, `#` comments) and `--out`,
it writes the labelled benchmark `schemanav bench --bench-file` reads: `question<TAB>labels`,
under the header lines of `--header` (provenance and licence), each label checked to exist.
Without `--questions` it lists the valid operations (`kind  name  file  n  labels`);
`--show-invalid` adds the dropped ones and why; `--json FILE` writes operations with text.

    python scripts/client_operations.py --source /tmp/app/src --schema schemas/app.graphqls \\
        --questions benchmarks/app-questions.tsv --header benchmarks/app-header.txt \\
        --out benchmarks/app-full.tsv
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from graphql import (
    DirectiveNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    TypeInfo,
    TypeInfoVisitor,
    Visitor,
    build_client_schema,
    build_schema,
    is_interface_type,
    is_object_type,
    parse,
    print_ast,
    specified_rules,
    validate,
    visit,
)
from graphql.language import ArgumentNode
from graphql.validation import (
    NoUndefinedVariablesRule,
    NoUnusedFragmentsRule,
    NoUnusedVariablesRule,
)
from graphql.validation.rules import ASTValidationRule

DOCUMENT_SUFFIXES = {".graphql", ".gql", ".graphqls"}
CODE_SUFFIXES = {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"}
SKIPPED_FOLDERS = {"node_modules", ".git", "dist", "build", "__generated__", "generated"}
TAGGED_TEMPLATE = re.compile(r"\b(?:gql|graphql)\s*(?:\(\s*)?`([^`]*)`")
INTERPOLATION = re.compile(r"\$\{[^}]*\}")
MAX_SOURCE_BYTES = 4_000_000
# Relay's fragment variables (`@argumentDefinitions`) are local to the fragment, so an operation
# may spread a fragment whose variables it never declares; unused parts are a client's business.
RELAXED_RULES = (NoUndefinedVariablesRule, NoUnusedVariablesRule, NoUnusedFragmentsRule)


@dataclass
class Operation:
    name: str
    kind: str  # query | mutation | subscription
    file: str
    text: str
    labels: list[str] = field(default_factory=list)


@dataclass
class Report:
    documents: int = 0
    unparsable: dict[str, str] = field(default_factory=dict)
    operations_found: int = 0
    invalid: dict[str, list[str]] = field(default_factory=dict)
    valid: list[Operation] = field(default_factory=list)


def load_schema(path: Path) -> GraphQLSchema:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        data = json.loads(text)
        return build_client_schema(data.get("data", data))
    return build_schema(text)


def source_files(folders: list[Path]) -> list[Path]:
    files = []
    for folder in folders:
        if folder.is_file():
            files.append(folder)
            continue
        for path in sorted(folder.rglob("*")):
            if any(part in SKIPPED_FOLDERS for part in path.parts) or not path.is_file():
                continue
            if path.suffix in DOCUMENT_SUFFIXES | CODE_SUFFIXES:
                files.append(path)
    return files


def documents_in(path: Path) -> list[str]:
    if path.stat().st_size > MAX_SOURCE_BYTES:
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix in DOCUMENT_SUFFIXES:
        # `#import "./x.graphql"` lines (graphql-tag/loader) are comments to the parser.
        return [text]
    return [INTERPOLATION.sub("", match.group(1)) for match in TAGGED_TEMPLATE.finditer(text)]


def strip_client_parts(document: DocumentNode, schema: GraphQLSchema) -> DocumentNode:
    """The document without `@client` fields and without directives the schema does not know."""
    known = {directive.name for directive in schema.directives}

    class Stripper(Visitor):
        def enter_field(self, node: FieldNode, *_args: object) -> object:
            if any(d.name.value == "client" for d in node.directives or ()):
                return self.REMOVE
            return None

        def enter_directive(self, node: DirectiveNode, *_args: object) -> object:
            return None if node.name.value in known else self.REMOVE

    result: DocumentNode = visit(document, Stripper())
    return result


def reached_fragments(
    node: OperationDefinitionNode | FragmentDefinitionNode,
    fragments: dict[str, FragmentDefinitionNode],
) -> list[FragmentDefinitionNode]:
    found: dict[str, FragmentDefinitionNode] = {}
    pending = [node]
    while pending:
        current = pending.pop()

        class Spreads(Visitor):
            def enter_fragment_spread(self, spread: FragmentSpreadNode, *_args: object) -> None:
                name = spread.name.value
                if name not in found and name in fragments:
                    found[name] = fragments[name]
                    pending.append(fragments[name])

        visit(current, Spreads())
    return list(found.values())


def operation_labels(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: dict[str, FragmentDefinitionNode],
) -> list[str]:
    """`Type.field` and `Type.field(arg:)` for everything the operation selects, in reading
    order with fragments followed where first spread."""
    labels: dict[str, None] = {}
    visited: set[str] = set()

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
                    return  # @include(if:) and the like are not coordinates of fields
                parent = type_info.get_parent_type()
                owner = next(a for a in reversed(ancestors) if isinstance(a, FieldNode))
                if parent is None or type_info.get_argument() is None:
                    raise ValueError(f"argument {node.name.value} without a definition")
                labels.setdefault(f"{parent.name}.{owner.name.value}({node.name.value}:)")

            def enter_fragment_spread(self, node: FragmentSpreadNode, *_args: object) -> None:
                name = node.name.value
                if name not in visited:
                    visited.add(name)
                    walk(fragments[name])

        visit(node, TypeInfoVisitor(type_info, Labeller()))

    walk(operation)
    return list(labels)


def collect(folders: list[Path], schema: GraphQLSchema) -> Report:
    report = Report()
    operations: dict[str, tuple[OperationDefinitionNode, str]] = {}
    fragments: dict[str, FragmentDefinitionNode] = {}
    root = folders[0] if folders[0].is_dir() else folders[0].parent
    for path in source_files(folders):
        relative = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        for number, text in enumerate(documents_in(path)):
            report.documents += 1
            try:
                document = parse(text)
            except GraphQLError as error:
                report.unparsable[f"{relative}#{number}"] = error.message
                continue
            for definition in document.definitions:
                if isinstance(definition, FragmentDefinitionNode):
                    fragments.setdefault(definition.name.value, definition)
                elif isinstance(definition, OperationDefinitionNode) and definition.name:
                    report.operations_found += 1
                    operations.setdefault(definition.name.value, (definition, relative))
    rules: list[type[ASTValidationRule]] = [r for r in specified_rules if r not in RELAXED_RULES]
    for name, (operation, relative) in sorted(operations.items()):
        needed = reached_fragments(operation, fragments)
        document = strip_client_parts(DocumentNode(definitions=(operation, *needed)), schema)
        errors = validate(schema, document, rules)
        if errors:
            report.invalid[name] = [error.message for error in errors]
            continue
        kept = {d.name.value: d for d in document.definitions[1:]}  # type: ignore[union-attr]
        stripped = document.definitions[0]
        assert isinstance(stripped, OperationDefinitionNode)
        labels = operation_labels(schema, stripped, kept)  # type: ignore[arg-type]
        report.valid.append(
            Operation(name, stripped.operation.value, relative, print_ast(document), labels)
        )
    return report


def check_label(schema: GraphQLSchema, label: str) -> bool:
    match = re.fullmatch(r"(\w+)\.(\w+)(?:\((\w+):\))?", label)
    if not match:
        return False
    owner = schema.get_type(match.group(1))
    if not (is_object_type(owner) or is_interface_type(owner)):
        return False
    definition = owner.fields.get(match.group(2))  # type: ignore[union-attr]
    if definition is None:
        return False
    return match.group(3) is None or match.group(3) in definition.args


def read_questions(path: Path) -> list[tuple[int, str, str]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            sys.exit(f"{path}:{number}: expected 'operation<TAB>question'")
        rows.append((number, parts[0].strip(), parts[1].strip()))
    return rows


def summary(report: Report) -> str:
    kinds: dict[str, int] = {}
    for op in report.valid:
        kinds[op.kind] = kinds.get(op.kind, 0) + 1
    return (
        f"# documents {report.documents} (unparsable {len(report.unparsable)}); named operations "
        f"{report.operations_found}; invalid (dropped) {len(report.invalid)}; valid "
        f"{len(report.valid)} ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})"
    )


def write_benchmark(report: Report, args: argparse.Namespace) -> None:
    by_name = {op.name: op for op in report.valid}
    rows = []
    for number, name, question in read_questions(args.questions):
        if name not in by_name:
            sys.exit(f"{args.questions}:{number}: no valid operation named {name}")
        rows.append(f"{question}\t{','.join(by_name[name].labels)}")
    header = [] if args.header is None else args.header.read_text(encoding="utf-8").splitlines()
    if any(line and not line.startswith("#") for line in header):
        sys.exit(f"{args.header}: every header line must start with '#'")
    header += [
        "# Format: question<TAB>every coordinate the operation touches: Type.field and",
        "# Type.field(arg:) (labels: full). Written by scripts/client_operations.py; do not edit.",
    ]
    args.out.write_text("\n".join(header + rows) + "\n", encoding="utf-8")
    print(f"# wrote {len(rows)} rows to {args.out}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--source", type=Path, action="append", required=True,
                        help="a folder (or file) of the app's client code; repeatable")
    parser.add_argument("--schema", type=Path, required=True, help="SDL or introspection JSON")
    parser.add_argument("--questions", type=Path, help="operation<TAB>question TSV")
    parser.add_argument("--header", type=Path, help="'#' lines of provenance for --out")
    parser.add_argument("--out", type=Path, help="labelled TSV to write (needs --questions)")
    parser.add_argument("--json", type=Path, help="write the valid operations as JSON")
    parser.add_argument("--show-invalid", action="store_true", help="print why ops were dropped")
    args = parser.parse_args()

    schema = load_schema(args.schema)
    report = collect(args.source, schema)
    bad = sorted({lab for op in report.valid for lab in op.labels if not check_label(schema, lab)})
    if bad:
        sys.exit(f"labels missing from the schema: {', '.join(bad)}")
    print(summary(report), file=sys.stderr)
    if args.show_invalid:
        for name, errors in sorted(report.invalid.items()):
            print(f"# invalid {name}: {' | '.join(errors)}", file=sys.stderr)
        for where, message in sorted(report.unparsable.items()):
            print(f"# unparsable {where}: {message}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps([asdict(op) for op in report.valid], indent=1) + "\n")
    if not args.questions:
        for op in report.valid:
            print(f"{op.kind}\t{op.name}\t{op.file}\t{len(op.labels)}\t{','.join(op.labels)}")
        return
    if not args.out:
        sys.exit("--questions needs --out")
    write_benchmark(report, args)


if __name__ == "__main__":
    main()
