"""Label a public app's real GraphQL client operations with the schema coordinates they touch.

A development set is made from what a real client asks of its API: the operations it ships,
each labelled with every coordinate it touches, and a question per operation written by hand
as that app's users would ask it. This script does the mechanical part for any app:

1. reads every GraphQL document under the `--source` folders (in path order under their
   common parent, each path once): whole `.graphql` / `.gql` / `.graphqls` files, and tagged
   templates (`gql\\`…\\``, `graphql\\`…\\``, `gql(\\`…\\`)`, `graphql(\\`…\\`)`) in
   JavaScript / TypeScript (not `.d.ts`) / Vue / Svelte sources (the only hand parsing). A
   source map (`x.js.map`, `x.mjs.map`, …, also under `dist` / `build`) is read instead of the
   file it maps: each first-party `sourcesContent` entry (no `node_modules`) as the file its
   source path names (a URL's path, else the path beside the map), by that path's suffix, so
   the templates of the original .ts/.tsx are read where shipped code renamed or compiled them;
2. `${NAME}` becomes the text of the string constant NAME (`const NAME = \\`…\\``, `'…'`,
   `"…"`; typed, gql-tagged or not) of the same file, else, if the file imports NAME, of the
   constant so named in the module it names (`./x`: that file; `~/a/x`: a path ending so;
   else any), if those have one text: clients paste field lists, error blocks and query
   strings in so. It is expanded likewise (never inside itself). A fragment document is not
   pasted, since fragments are found by name anyway, and any other `${…}` is dropped;
3. parses each document with graphql-core and files every operation and fragment by name
   (fragments are global by name, as Relay, graphql-codegen and Apollo's loaders treat them).
   An operation read again (one module in two bundles) is kept once; another operation under
   a name already filed is kept as `Name@<file>` (its path as in 1; `#2`… after that), the
   first in path order keeping the plain name, so that a question can name either; an
   operation without a name is skipped, or with `--name-anonymous` filed under its file's
   name (`anonymous_name`: apps that never name their operations, as Wiki.js's);
4. builds each named operation's document (the operation and the fragments it reaches),
   drops client-only parts (fields marked `@client`; directives the schema does not declare,
   such as Relay's `@connection`, `@arguments`, `@argumentDefinitions`), and validates it
   with graphql-core's specified rules but those that real clients' documents break: the
   variable rules (Relay's fragment-local variables), and OverlappingFieldsCanBeMerged
   (sibling fragments on a union's members selecting a same-named field of different types,
   which servers and gql.tada accept; an alias would select the same field, so no label
   depends on it). An empty selection set (`{}`: fields pasted in at run time) is invalid;
5. labels each valid operation with `Type.field` for every selected field (on the type the
   selection is written on, so inside a fragment or inline fragment on its type condition)
   and `Type.field(arg:)` for every argument given; introspection (`__typename`,
   `__type(name:) { enumValues }`, their arguments) is not the app's schema.

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
import os
import posixpath
import re
import sys
from dataclasses import asdict, dataclass, field
from itertools import chain, count
from pathlib import Path, PurePosixPath
from typing import Any

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
    is_interface_type,
    is_introspection_type,
    is_object_type,
    parse,
    print_ast,
    specified_rules,
    validate,
    visit,
)
from graphql.language import ArgumentNode, NameNode, SelectionSetNode
from graphql.validation.rules import ASTValidationRule

DOCUMENT_SUFFIXES = {".graphql", ".gql", ".graphqls"}
CODE_SUFFIXES = {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"}
SOURCE_SUFFIXES = DOCUMENT_SUFFIXES | CODE_SUFFIXES
SKIPPED_FOLDERS = {"node_modules", ".git", "dist", "build", "__generated__", "generated"}
TAGGED_TEMPLATE = re.compile(r"\b(?:gql|graphql)\s*(?:\(\s*)?`([^`]*)`")
INTERPOLATION = re.compile(r"\$\{([^}]*)\}")
# `const NAME = `…``, `'…'` or `"…"`, optionally typed and tagged (`gql`, `x.gql(`, /* GraphQL */).
CONSTANT = re.compile(
    r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*(?:/\*\s*GraphQL\s*\*/\s*)?"
    r"(?:(?:[\w$]+\.)?(?:gql|graphql)\s*(?:\(\s*)?)?"
    r"""(?:`([^`]*)`|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")(?![ \t]*[+.[])"""
)
IMPORTS = re.compile(
    r"""\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*["']([^"'\n]+)["']"""
)
FRAGMENT_DOCUMENT = re.compile(r"(?:\s|#[^\n]*|,)*fragment\s+[_A-Za-z]\w*\s+on\b")
SOURCE_MAP = re.compile(r"\.[cm]?[jt]sx?\.map$")
MAX_SOURCE_BYTES = 4_000_000
MAX_MAP_BYTES = 64_000_000
RELAXED_RULES = {"NoUndefinedVariablesRule", "NoUnusedVariablesRule", "NoUnusedFragmentsRule",
                 "OverlappingFieldsCanBeMergedRule"}  # see 4. above


class NoEmptySelectionSets(ASTValidationRule):
    """`{}` parses (graphql-core 3.3), but is left where `${…}` pasted fields in at run time."""

    def enter_selection_set(self, node: SelectionSetNode, *_args: object) -> None:
        if not node.selections:
            self.report_error(GraphQLError("Empty selection set (filled in at run time?)", node))


@dataclass
class Source:
    relative: str  # the file's path under the --source folders, or the path a source map gives
    text: str

    @property
    def suffix(self) -> str:
        return PurePosixPath(self.relative).suffix


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
    repeats: int = 0  # the same operation text again under its name (another chunk, file)
    renamed: list[str] = field(default_factory=list)
    invalid: dict[str, list[str]] = field(default_factory=dict)
    valid: list[Operation] = field(default_factory=list)


def load_schema(path: Path) -> GraphQLSchema:
    """The schema as schemanav loads it (SDL or introspection JSON): one that breaks a
    type-system rule (an implementation deprecating a field its interface does not, as
    Railway's does) still answers its clients, so operations are validated against it as it
    is, with a note of the rule."""
    from schemanav.schema import describe_violations
    from schemanav.schema import load_schema as load

    loaded = load(str(path))
    if loaded.violations:
        print(f"note: {describe_violations(loaded.violations)}", file=sys.stderr)
    return loaded.schema


def map_sources(path: Path, root: Path) -> list[Source]:
    """The first-party sources a source map carries (`sourcesContent`), at the paths they name."""
    if path.stat().st_size > MAX_MAP_BYTES:
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
        base = posixpath.join(path.parent.relative_to(root).as_posix(), data.get("sourceRoot", ""))
        pairs = zip(data.get("sources") or [], data.get("sourcesContent") or [], strict=False)
    except (ValueError, AttributeError, TypeError):
        return []
    found = []
    for name, text in pairs:
        if isinstance(name, str) and isinstance(text, str) and "node_modules" not in name:
            name = re.split(r"[?#]", name)[0]
            url = re.match(r"[A-Za-z][\w+.-]*://[^/]*/?", name)
            where = name[url.end() :] if url else posixpath.join(base, name)
            found.append(Source(re.sub(r"^(?:\.\.?/|/)+", "", posixpath.normpath(where)), text))
    return found


def read_sources(folders: list[Path]) -> list[Source]:
    """The sources under the folders, as 1. above says."""
    root = Path(os.path.commonpath([f if f.is_dir() else f.parent for f in folders]))
    paths = [folder for folder in folders if folder.is_file()]
    for folder in (folder for folder in folders if folder.is_dir()):
        for path in sorted(folder.rglob("*")):
            skipped = {"node_modules", ".git"} if SOURCE_MAP.search(path.name) else SKIPPED_FOLDERS
            if path.is_file() and not skipped.intersection(path.relative_to(folder).parts):
                paths.append(path)
    maps = {path: map_sources(path, root) for path in paths if SOURCE_MAP.search(path.name)}
    unique: dict[str, Source] = {}
    for path in paths:
        found = maps.get(path, [])
        mapped = maps.get(path.with_name(path.name + ".map"))  # then read through its map
        declarations = re.search(r"\.d\.[cm]?ts$", path.name)  # TypeScript's types only
        if path.suffix in SOURCE_SUFFIXES and not mapped and not declarations:
            text = path.read_text(encoding="utf-8", errors="replace")
            found = [Source(path.relative_to(root).as_posix(), text)]
        for source in found:
            if source.suffix in SOURCE_SUFFIXES and len(source.text) <= MAX_SOURCE_BYTES:
                unique.setdefault(source.relative, source)
    return sorted(unique.values(), key=lambda source: PurePosixPath(source.relative).parts)


class Constants:
    """The string constants of the sources, for the `${NAME}` that templates paste in (see 2.)."""

    def __init__(self, sources: list[Source]) -> None:
        self.local: dict[tuple[str, str], set[str]] = {}  # (file, name) -> texts
        self.imports: dict[tuple[str, str], tuple[str, str]] = {}  # -> (name exported, module)
        self.anywhere: dict[str, list[tuple[str, str]]] = {}  # name -> [(text, file)]
        for source in (source for source in sources if source.suffix in CODE_SUFFIXES):
            for match in CONSTANT.finditer(source.text):
                text = next(group for group in match.groups()[1:] if group is not None)
                self.local.setdefault((source.relative, match.group(1)), set()).add(text)
                self.anywhere.setdefault(match.group(1), []).append((text, source.relative))
            for names, module in IMPORTS.findall(source.text):
                for spec in names.split(","):
                    words = spec.split()[1:] if spec.split()[:1] == ["type"] else spec.split()
                    if len(words) == 1 or (len(words) == 3 and words[1] == "as"):
                        self.imports[source.relative, words[-1]] = (words[0], module)

    def lookup(self, name: str, relative: str) -> tuple[str, str] | None:
        """(text, file) of the constant NAME in the file, else of the one it imports: of those
        so named, the ones at the module's path (or ending as it), if they have one text."""
        texts = self.local.get((relative, name))
        if texts is not None:
            return (next(iter(texts)), relative) if len(texts) == 1 else None
        exported, module = self.imports.get((relative, name), ("", ""))
        found = self.anywhere.get(exported, [])
        if module.startswith("."):  # `./x`: that file; `~/a/x`, `@/a/x`, `pkg/a/x`: a tail
            path = module_path(posixpath.join(posixpath.dirname(relative), module))
            near = [c for c in found if module_path(c[1]) == posixpath.normpath(path)]
        else:
            tail = "/" + module_path(re.sub(r"^[~@]/", "", module))
            near = [c for c in found if module_path("/" + c[1]).endswith(tail)]
        found = near or found
        return found[0] if len({text for text, _ in found}) == 1 else None

    def expand(self, text: str, relative: str, seen: frozenset[str] = frozenset()) -> str:
        def paste(match: re.Match[str]) -> str:
            name = match.group(1).strip()
            value = self.lookup(name, relative)
            if value is None or f"{value[1]}:{name}" in seen:  # unknown, or inside itself
                return ""
            if FRAGMENT_DOCUMENT.match(INTERPOLATION.sub("", value[0])):
                return ""  # found by name anyway
            return self.expand(value[0], value[1], seen | {f"{value[1]}:{name}"})

        return INTERPOLATION.sub(paste, text)


def module_path(path: str) -> str:
    return re.sub(r"(?:/index)?\.[cm]?[jt]sx?$", "", path)


def documents_in(source: Source, constants: Constants) -> list[str]:
    if source.suffix in DOCUMENT_SUFFIXES:
        # `#import "./x.graphql"` lines (graphql-tag/loader) are comments to the parser.
        return [source.text]
    return [
        constants.expand(match.group(1), source.relative)
        for match in TAGGED_TEMPLATE.finditer(source.text)
    ]


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
                parent = type_info.get_parent_type()
                if node.name.value.startswith("__") or (parent and is_introspection_type(parent)):
                    return  # `__typename`, `__type(name:) { enumValues }`: not the app's schema
                if parent is None or type_info.get_field_def() is None:
                    raise ValueError(f"no field definition for {node.name.value}")
                labels.setdefault(f"{parent.name}.{node.name.value}")

            def enter_argument(self, node: ArgumentNode, *args: Any) -> None:
                ancestors: list[object] = args[3]
                if type_info.get_directive() is not None:
                    return  # @include(if:) and the like are not coordinates of fields
                parent = type_info.get_parent_type()
                owner = next(a for a in reversed(ancestors) if isinstance(a, FieldNode))
                if owner.name.value.startswith("__") or (parent and is_introspection_type(parent)):
                    return  # `__type(name:)`: skipped as its field is
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


def anonymous_name(source: Source, number: int) -> str:
    """The name an unnamed operation is known by (`--name-anonymous`): its file's name in
    PascalCase (`page-query-single.gql` → `PageQuerySingle`), and in a code file the ordinal
    of its tagged template there, from 1 (`admin-users.vue`'s second → `AdminUsers2`)."""
    stem = PurePosixPath(source.relative).name.split(".")[0]
    name = "".join(word.capitalize() for word in re.split(r"[^A-Za-z0-9]+", stem))
    return name if source.suffix in DOCUMENT_SUFFIXES else f"{name}{number + 1}"


def named(operation: OperationDefinitionNode, name: str) -> OperationDefinitionNode:
    """The operation under `name` (graphql-core's nodes are frozen)."""
    fields = {key: getattr(operation, key) for key in operation.keys if key != "name"}
    return OperationDefinitionNode(**fields, name=NameNode(value=name))


def collect(folders: list[Path], schema: GraphQLSchema, name_anonymous: bool = False) -> Report:
    report = Report()
    operations: dict[str, tuple[OperationDefinitionNode, str]] = {}
    texts: dict[str, set[str]] = {}  # operation name -> the texts filed under it
    fragments: dict[str, FragmentDefinitionNode] = {}
    sources = read_sources(folders)
    constants = Constants(sources)
    for source in sources:
        for number, text in enumerate(documents_in(source, constants)):
            report.documents += 1
            try:
                document = parse(text)
            except GraphQLError as error:
                report.unparsable[f"{source.relative}#{number}"] = error.message
                continue
            for definition in document.definitions:
                if isinstance(definition, FragmentDefinitionNode):
                    fragments.setdefault(definition.name.value, definition)
                elif isinstance(definition, OperationDefinitionNode) and (
                    definition.name or name_anonymous
                ):
                    report.operations_found += 1
                    if definition.name is None:
                        name = anonymous_name(source, number)
                        definition = named(definition, name)
                    else:
                        name = definition.name.value
                    printed = print_ast(definition)
                    if printed in texts.setdefault(name, set()):
                        report.repeats += 1
                        continue
                    texts[name].add(printed)
                    at = f"{name}@{source.relative}"
                    keys = chain([name, at], (f"{at}#{n}" for n in count(2)))
                    key = next(key for key in keys if key not in operations)
                    report.renamed += [key] if key != name else []
                    operations[key] = (definition, source.relative)
    rules = [r for r in specified_rules if r.__name__ not in RELAXED_RULES]
    rules.append(NoEmptySelectionSets)
    for name, (operation, relative) in sorted(operations.items()):
        needed = reached_fragments(operation, fragments)
        document = strip_client_parts(DocumentNode(definitions=(operation, *needed)), schema)
        errors = validate(schema, document, rules)
        if errors:
            report.invalid[name] = [error.message for error in errors]
            continue
        stripped, *rest = document.definitions
        kept = {d.name.value: d for d in rest if isinstance(d, FragmentDefinitionNode)}
        assert isinstance(stripped, OperationDefinitionNode)
        labels = operation_labels(schema, stripped, kept)
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
    definition = owner.fields.get(match.group(2))
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
        f"{report.operations_found} (repeated {report.repeats}, renamed Name@file "
        f"{len(report.renamed)}); invalid (dropped) {len(report.invalid)}; valid "
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
    parser.add_argument("--name-anonymous", action="store_true",
                        help="label unnamed operations too, named after their file")
    args = parser.parse_args()

    schema = load_schema(args.schema)
    report = collect(args.source, schema, args.name_anonymous)
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
