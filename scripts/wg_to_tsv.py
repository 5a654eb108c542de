#!/usr/bin/env python3
"""Turn one of the GraphQL AI Working Group's schema slices into schemanav's benchmark files.

Reads a folder laid out like upstream's `benchmark/evaluation/src/` slice
(`github/schema.graphql`, `github/queries/gh-ext-*.yaml`; `gitlab/…`, `glab-*.yaml` with
`--schema gitlab`) and writes, atomically:

- `schemas/NAME-wg.graphqls`: the schema, byte for byte;
- `benchmarks/NAME-wg.tsv`: one `question<TAB>Type.field,…` line per YAML file, sorted by
  id, keeping the plain field coordinates of `mustInclude` in file order.

`mustInclude` also lists argument coordinates (`Type.field(arg:)`) and bare type names;
schemanav's corpus has one entry per field, so those are left out and counted. With
`--labels full` the script writes `benchmarks/NAME-wg-full.tsv` instead, keeping every
`mustInclude` entry (fields, arguments and types, in file order): the Working Group's own
definition of a complete answer, for scoring slices.

Standard library only: the YAML files use a small, regular subset (top-level keys with plain,
quoted or block scalars, block lists, and nested mappings we never read), which
`parse_yaml_subset` handles; pulling in PyYAML for that would make the script a dependency.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class WgSchema:
    """Where one of the Working Group's schemas lives upstream and where its files are written."""

    name: str
    title: str
    query_prefix: str

    @property
    def schema_relpath(self) -> Path:
        return Path(self.name) / "schema.graphql"

    @property
    def queries_relpath(self) -> Path:
        return Path(self.name) / "queries"

    @property
    def query_glob(self) -> str:
        return f"{self.query_prefix}-*.yaml"

    @property
    def schema_out(self) -> Path:
        return Path("schemas") / f"{self.name}-wg.graphqls"

    def tsv_out(self, labels: str) -> Path:
        suffix = "-full" if labels == "full" else ""
        return Path("benchmarks") / f"{self.name}-wg{suffix}.tsv"


WG_SCHEMAS = {
    "github": WgSchema("github", "GitHub", "gh-ext"),
    "gitlab": WgSchema("gitlab", "GitLab", "glab"),
}

_NAME = r"[_A-Za-z][_0-9A-Za-z]*"
FIELD_COORDINATE = re.compile(rf"{_NAME}\.{_NAME}")
ARGUMENT_COORDINATE = re.compile(rf"{_NAME}\.{_NAME}\({_NAME}:\)")
TYPE_COORDINATE = re.compile(_NAME)
_TOP_LEVEL_KEY = re.compile(r"([_A-Za-z][-_0-9A-Za-z]*):(?:[ \t]+(.*))?$")


class ConversionError(Exception):
    """A problem with the input that the user must fix; reported as one line."""


class NestedBlock:
    """A nested mapping (such as `answerSchema`), kept unparsed: nothing here reads one."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines


YamlValue = str | list[str] | NestedBlock | None


# --- YAML subset ---------------------------------------------------------------------------


def parse_yaml_subset(text: str, source: str = "<yaml>") -> dict[str, YamlValue]:
    """Parse top-level `key: value` pairs.

    Values: plain scalars (continuation lines folded with spaces, ` #` comments dropped),
    '…' and "…" quoted scalars (possibly over several lines), `|`/`>` block scalars with
    chomping indicators, `- item` block lists (indented or not), `[]`, and nested mappings
    (returned as `NestedBlock`). Scalars stay strings: nothing here needs numbers or booleans.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it does not start another
    result: dict[str, YamlValue] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line.strip() or line.startswith("#") or line == "---":
            continue
        match = _TOP_LEVEL_KEY.match(line)
        if match is None:
            raise ConversionError(f"{source}:{index}: expected 'key: value' at column 1")
        key, rest = match.group(1), (match.group(2) or "").strip()
        block: list[str] = []
        while index < len(lines):
            following = lines[index]
            indented = following.startswith((" ", "\t")) or not following.strip()
            list_item = not rest and (following == "-" or following.startswith("- "))
            if not (indented or list_item):
                break
            block.append(following)
            index += 1
        try:
            result[key] = _parse_value(rest, block)
        except ConversionError as err:
            raise ConversionError(f"{source}: {key}: {err}") from None
    return result


def _parse_value(rest: str, block: list[str]) -> YamlValue:
    if rest.startswith(("|", ">")):
        return _block_scalar(rest, block)  # keeps trailing blank lines for `|+`
    while block and not block[-1].strip():
        block = block[:-1]
    if rest.startswith(("'", '"')):
        return _quoted_scalar("\n".join([rest, *block]))
    if rest in ("[]", "[ ]"):
        return []
    if rest.startswith(("[", "{", "&", "*", "!")):
        raise ConversionError(f"unsupported YAML value {rest[:20]!r}")
    if rest:
        return _plain_scalar([rest, *block])
    content = [line for line in block if line.strip() and not line.lstrip().startswith("#")]
    if not content:
        return None
    if content[0].lstrip() == "-" or content[0].lstrip().startswith("- "):
        return _block_list(block)
    return NestedBlock(block)


def _strip_comment(text: str) -> str:
    """Drop a ` #` comment from a plain scalar line (a `#` glued to text is content)."""
    if text.startswith("#"):
        return ""
    position = text.find(" #")
    tab_position = text.find("\t#")
    cuts = [p for p in (position, tab_position) if p >= 0]
    return text[: min(cuts)] if cuts else text


def _fold(lines: list[str]) -> str:
    """YAML flow folding: a single line break is a space, each blank line is a newline."""
    folded = ""
    pending_newlines = 0
    for line in lines:
        stripped = line.strip()
        if not stripped:
            pending_newlines += 1
            continue
        if folded:
            folded += "\n" * pending_newlines if pending_newlines else " "
        folded += stripped
        pending_newlines = 0
    return folded


def _plain_scalar(lines: list[str]) -> str:
    kept: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("#"):
            break  # a comment line ends a plain scalar
        without_comment = _strip_comment(line)
        kept.append(without_comment)
        if without_comment != line:
            break  # text after a comment is not part of the scalar
    value = _fold(kept)
    if value in ("~", "null", "Null", "NULL"):
        raise ConversionError("null where text was expected")
    return value


_ESCAPE_MARK = "\uffff"  # a Unicode noncharacter: never in the text itself
_ESCAPE_MARKS = re.compile(f"{_ESCAPE_MARK}(\\d+){_ESCAPE_MARK}")
_DOUBLE_QUOTE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
    "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip


def _quoted_scalar(text: str) -> str:
    quote = text[0]
    pieces: list[str] = []
    escaped: list[str] = []  # escape results stand in as marks so folding cannot touch them
    position = 1
    while True:
        if position >= len(text):
            raise ConversionError(f"unterminated {quote}quoted{quote} scalar")
        char = text[position]
        if quote == "'" and char == "'":
            if text.startswith("''", position):
                pieces.append("'")
                position += 2
                continue
            break
        if quote == '"' and char == '"':
            break
        if quote == '"' and char == "\\":
            escape = text[position + 1 : position + 2]
            if escape == "\n":  # escaped line break: join without a space
                position += 2
                while position < len(text) and text[position] in " \t":
                    position += 1
                continue
            if escape in ("x", "u", "U"):
                width = {"x": 2, "u": 4, "U": 8}[escape]
                digits = text[position + 2 : position + 2 + width]
                escaped.append(chr(int(digits, 16)))
                pieces.append(f"{_ESCAPE_MARK}{len(escaped) - 1}{_ESCAPE_MARK}")
                position += 2 + width
                continue
            if escape not in _DOUBLE_QUOTE_ESCAPES:
                raise ConversionError(f"unknown escape \\{escape} in a double-quoted scalar")
            escaped.append(_DOUBLE_QUOTE_ESCAPES[escape])
            pieces.append(f"{_ESCAPE_MARK}{len(escaped) - 1}{_ESCAPE_MARK}")
            position += 2
            continue
        pieces.append(char)
        position += 1
    trailing = text[position + 1 :].strip()
    if trailing and not trailing.startswith("#"):
        raise ConversionError(f"text after the closing quote: {trailing[:20]!r}")
    raw = "".join(pieces)
    folded = _fold_quoted(raw) if "\n" in raw else raw
    return _ESCAPE_MARKS.sub(lambda m: escaped[int(m.group(1))], folded)


def _fold_quoted(raw: str) -> str:
    """Trim spaces around each line break; a lone break becomes a space, a blank line `\\n`."""
    first, *middle, last = raw.split("\n")
    folded = first.rstrip()
    blank_lines = 0
    for line in [*(part.strip() for part in middle), None]:
        if line == "":
            blank_lines += 1
            continue
        text = last.lstrip() if line is None else line
        folded += ("\n" * blank_lines if blank_lines else " ") + text
        blank_lines = 0
    return folded


def _block_scalar(header: str, block: list[str]) -> str:
    indicator, modifiers = header[0], header[1:].split("#", 1)[0].strip()
    chomping = "-" if "-" in modifiers else "+" if "+" in modifiers else ""
    digits = "".join(c for c in modifiers if c.isdigit())
    content_lines = [line for line in block if line.strip()]
    if digits:
        indent = int(digits)
    elif content_lines:
        indent = len(content_lines[0]) - len(content_lines[0].lstrip(" "))
    else:
        return ""
    body = [line[indent:] if line.strip() else "" for line in block]
    if indicator == "|":
        text = "\n".join(body)
    else:
        text = ""
        previous_more_indented = True
        for number, line in enumerate(body):
            more_indented = line.startswith((" ", "\t"))
            if number == 0:
                text = line
            elif not line:
                text += "\n"
            elif text.endswith("\n") or more_indented or previous_more_indented:
                text += ("" if text.endswith("\n") else "\n") + line
            else:
                text += " " + line
            previous_more_indented = more_indented if line else previous_more_indented
    if chomping == "-":
        return text.rstrip("\n")
    if chomping == "+":
        return text + "\n"
    return text.rstrip("\n") + "\n" if text.strip("\n") else ""


def _block_list(block: list[str]) -> list[str]:
    items: list[list[str]] = []
    dash_indent: int | None = None
    for line in block:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if stripped == "-" or stripped.startswith("- "):
            if dash_indent is None:
                dash_indent = indent
            if indent == dash_indent:
                items.append([stripped[1:].strip()])
                continue
        if not items or dash_indent is None or indent <= dash_indent:
            raise ConversionError(f"unexpected line in a list: {stripped[:30]!r}")
        items[-1].append(line)
    values: list[str] = []
    for first, *continuation in items:
        if first.startswith(("'", '"')):
            values.append(_quoted_scalar("\n".join([first, *continuation])))
        elif first.startswith(("[", "{", "&", "*", "!", "|", ">")) or re.match(r"\S+:( |$)", first):
            raise ConversionError(f"unsupported list item {first[:30]!r}")
        else:
            values.append(_plain_scalar([first, *continuation]))
    return values


# --- conversion ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelledQuestion:
    id: str
    question: str
    targets: tuple[str, ...]
    argument_coordinates: int
    type_coordinates: int
    all_coordinates: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConversionSummary:
    questions: int
    targets: int
    argument_coordinates: int
    type_coordinates: int


def read_question(path: Path) -> LabelledQuestion:
    """One YAML file → its question text and plain field targets, with what was left out."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConversionError(f"cannot read {path}: {err}") from None
    fields = parse_yaml_subset(text, str(path))
    question, must_include = fields.get("query"), fields.get("mustInclude")
    if not isinstance(question, str) or not question.strip():
        raise ConversionError(f"{path}: 'query' must be non-empty text")
    if not isinstance(must_include, list):
        raise ConversionError(f"{path}: 'mustInclude' must be a list of coordinates")
    record_id = fields.get("id")
    targets: list[str] = []
    everything: list[str] = []
    arguments = types = 0
    for coordinate in must_include:
        if coordinate not in everything:
            everything.append(coordinate)
        if FIELD_COORDINATE.fullmatch(coordinate):
            if coordinate not in targets:
                targets.append(coordinate)
        elif ARGUMENT_COORDINATE.fullmatch(coordinate):
            arguments += 1
        elif TYPE_COORDINATE.fullmatch(coordinate):
            types += 1
        else:
            raise ConversionError(f"{path}: unrecognised coordinate {coordinate!r} in mustInclude")
    if not targets:
        raise ConversionError(f"{path}: mustInclude names no Type.field coordinate")
    return LabelledQuestion(
        id=record_id if isinstance(record_id, str) and record_id else path.stem,
        question=" ".join(question.split()),
        targets=tuple(targets),
        argument_coordinates=arguments,
        type_coordinates=types,
        all_coordinates=tuple(everything),
    )


def check_source(src: Path, wg: WgSchema) -> list[Path]:
    """The YAML files of a source folder, or a one-line error saying what is missing."""
    layout = f"{wg.schema_relpath} and {wg.queries_relpath / wg.query_glob}"
    if not (src / wg.schema_relpath).is_file():
        raise ConversionError(f"{src} lacks {wg.schema_relpath}: expected a folder with {layout}")
    files = sorted((src / wg.queries_relpath).glob(wg.query_glob))
    if not files:
        raise ConversionError(
            f"{src} has no {wg.queries_relpath / wg.query_glob} files: "
            f"expected a folder with {layout}"
        )
    return files


def _write_atomically(target: Path, data: bytes) -> None:
    """Write next to the target, then rename: readers see the old file or the new, never half."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp_name, 0o644)
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def convert(
    src: Path,
    out_dir: Path,
    source_label: str,
    labels: str = "fields",
    wg: WgSchema = WG_SCHEMAS["github"],
) -> ConversionSummary:
    """Write the schema and the TSV; `labels` is `fields` (default) or `full` (every entry)."""
    files = check_source(src, wg)
    questions = sorted((read_question(path) for path in files), key=lambda q: q.id)
    header = [
        f"# GraphQL AI Working Group schema-navigation benchmark, {wg.title} slice.",
        f"# Source: {source_label} (licence OWFa-1.0).",
        "# Produced by scripts/fetch-wg-benchmark.sh; do not edit by hand.",
    ]
    if labels == "full":
        header += [
            "# Format: question<TAB>every mustInclude coordinate, in file order: Type.field,",
            "# Type.field(arg:) and bare Type names (labels: full).",
        ]
        lines = header + [f"{q.question}\t{','.join(q.all_coordinates)}" for q in questions]
    else:
        header += [
            "# Format: question<TAB>the Type.field coordinates of mustInclude, in file order;",
            "# argument coordinates Type.field(arg:) and bare type names are left out.",
        ]
        lines = header + [f"{q.question}\t{','.join(q.targets)}" for q in questions]
    tsv = ("\n".join(lines) + "\n").encode("utf-8")
    try:
        schema_bytes = (src / wg.schema_relpath).read_bytes()
    except OSError as err:
        raise ConversionError(f"cannot read {src / wg.schema_relpath}: {err.strerror}") from None
    _write_atomically(out_dir / wg.schema_out, schema_bytes)
    _write_atomically(out_dir / wg.tsv_out(labels), tsv)
    chosen = (lambda q: q.all_coordinates) if labels == "full" else (lambda q: q.targets)
    return ConversionSummary(
        questions=len(questions),
        targets=sum(len(chosen(q)) for q in questions),
        argument_coordinates=sum(q.argument_coordinates for q in questions),
        type_coordinates=sum(q.type_coordinates for q in questions),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", required=True, type=Path, help="folder laid out like shared/wg")
    parser.add_argument("--out-dir", required=True, type=Path, help="gets schemas/, benchmarks/")
    parser.add_argument("--source-label", default="a local copy", help="provenance for the header")
    parser.add_argument(
        "--labels",
        choices=("fields", "full"),
        default="fields",
        help="fields: Type.field only, to benchmarks/NAME-wg.tsv (default); "
        "full: also Type.field(arg:) and Type, to benchmarks/NAME-wg-full.tsv",
    )
    parser.add_argument(
        "--schema",
        choices=sorted(WG_SCHEMAS),
        default="github",
        help="which of the Working Group's schemas to convert (default github)",
    )
    args = parser.parse_args(argv)
    wg = WG_SCHEMAS[args.schema]
    try:
        summary = convert(args.src, args.out_dir, args.source_label, args.labels, wg)
    except ConversionError as err:
        print(f"wg_to_tsv: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out_dir / wg.schema_out}")
    tsv_out = wg.tsv_out(args.labels)
    counts = f"{summary.questions} questions, {summary.targets} targets"
    print(f"wrote {args.out_dir / tsv_out}: {counts}")
    if args.labels == "full":
        return 0
    print(
        f"left out {summary.argument_coordinates} argument coordinates (Type.field(arg:)) "
        f"and {summary.type_coordinates} type coordinates (Type)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
