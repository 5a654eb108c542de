"""Labelled questions: a TSV of `question<TAB>coordinate[,coordinate…]`, one per line.

A coordinate (the schema-coordinates RFC) names a field `Type.field`, an argument
`Type.field(arg:)` or a type `Type`. Recall and rank are about whatever the labels name;
an output holds a label only when it *shows* it (see `shown_by_entry`).

Blank lines are skipped, and so are comments: lines whose first non-blank character is `#`
and that hold no tab. A line with a tab is always a question, even one that starts with `#`
(`#123 still open?`); bench warns about such questions, in case a line was meant to be
commented out. A question longer than `schemanav.limits.MAX_QUESTION_CHARS` is refused, as
`search` refuses it (bench calls the backends directly). A malformed file
is refused with every problem at once (`file:line: what is wrong`), so a hand-written
benchmark can be fixed in one pass instead of one error per run.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from schemanav.errors import InputError
from schemanav.limits import question_problem
from schemanav.textfile import read_text

if TYPE_CHECKING:
    from schemanav.corpus import Corpus, CorpusEntry, Format

_NAME = r"[_A-Za-z][_0-9A-Za-z]*"
_COORDINATE = re.compile(rf"(?P<type>{_NAME})(?:\.(?P<field>{_NAME})(?:\((?P<arg>{_NAME}):\))?)?")
COORDINATE_FORMS = "Type.field, Type.field(arg:) or Type"

CoordinateKind = Literal["field", "argument", "type"]


def coordinate_kind(coordinate: str) -> CoordinateKind:
    """`Type.field` → field, `Type.field(arg:)` → argument, `Type` → type.

    Raises ValueError for anything else (a path, a directive, an enum value is not a label).
    """
    match = _COORDINATE.fullmatch(coordinate)
    if match is None:
        raise ValueError(f"{coordinate!r} is not a coordinate of the form {COORDINATE_FORMS}")
    if match["arg"] is not None:
        return "argument"
    return "field" if match["field"] is not None else "type"


def argument_coordinate(owner: str, field: str, argument: str) -> str:
    return f"{owner}.{field}({argument}:)"


@dataclass(frozen=True)
class LabelledQuery:
    """One question and the coordinates that answer it (in file order, no repeats); `line`:
    where it is in its file (1-based; 0 when it comes from elsewhere)."""

    question: str
    expected_coordinates: tuple[str, ...]
    line: int = field(default=0, compare=False)


SHOWN_PROBLEMS = 10


class LabelledFileError(InputError):
    """A labelled file with problems; `problems` holds one `file:line: what` per problem.

    The message lists every problem, up to `SHOWN_PROBLEMS` of them and then how many more:
    a file that is not a labelled TSV at all should not flood the terminal.
    """

    def __init__(self, problems: list[str]) -> None:
        shown = "; ".join(problems[:SHOWN_PROBLEMS])
        if len(problems) > SHOWN_PROBLEMS:
            shown += f"; … and {len(problems) - SHOWN_PROBLEMS} more problems"
        super().__init__(shown)
        self.problems = list(problems)


def is_comment(line: str) -> bool:
    """A comment: first non-blank character `#`, and no tab (a line with a tab is a question)."""
    return line.lstrip().startswith("#") and "\t" not in line


def _parse_line(where: str, line: str) -> tuple[LabelledQuery | None, list[str]]:
    """The query on one non-comment line, or the problems that stop it being one."""
    tabs = line.count("\t")
    if tabs == 0:
        return None, [f"{where}: no tab; expected 'question<TAB>coordinate[,coordinate...]'"]
    if tabs > 1:
        return None, [
            f"{where}: {tabs} tabs; expected exactly one, between the question and the coordinates"
        ]
    raw_question, raw_coordinates = line.split("\t")
    question = raw_question.strip()
    problems: list[str] = []
    if not question:
        problems.append(f"{where}: empty question before the tab")
    too_long = question_problem(question)
    if too_long:
        problems.append(f"{where}: {too_long}")
    pieces = [piece.strip() for piece in raw_coordinates.split(",")]
    if not any(pieces):
        problems.append(f"{where}: no expected coordinates after the tab")
        return None, problems
    for piece in pieces:
        if not piece:
            problems.append(f"{where}: empty coordinate (a stray comma) in the coordinate list")
        elif not _COORDINATE.fullmatch(piece):
            problems.append(
                f"{where}: '{piece}' is not a coordinate of the form {COORDINATE_FORMS}"
                " (GraphQL names; paths, directives and enum values are not labels)"
            )
    if problems:
        return None, problems
    return LabelledQuery(question, tuple(dict.fromkeys(pieces))), []


def load_labelled(path: str | Path) -> list[LabelledQuery]:
    """Read a labelled TSV; raise `LabelledFileError` listing every malformed line.

    Missing, unreadable or non-UTF-8 files raise `InputError` saying so.
    """
    source = Path(path)
    text = read_text(source, "labelled file")
    queries: list[LabelledQuery] = []
    problems: list[str] = []
    saw_question_line = False
    # split("\n") rather than splitlines(): the latter also breaks on form feeds and
    # Unicode separators, which would make the reported line numbers wrong.
    for number, raw_line in enumerate(text.split("\n"), start=1):
        line = raw_line.removesuffix("\r")
        stripped = line.strip()
        if not stripped or is_comment(line):
            continue
        saw_question_line = True
        query, line_problems = _parse_line(f"{source}:{number}", line)
        problems.extend(line_problems)
        if query is not None:
            queries.append(dataclasses.replace(query, line=number))
    if not saw_question_line:
        problems.append(f"{source}: no questions found")
    if len(problems) > SHOWN_PROBLEMS and not queries and "\t" not in text:
        # Not a labelled TSV at all (a schema, a JSON file): one line, not one per line.
        raise LabelledFileError(
            [
                f"{source} is not a labelled TSV: no line holds a tab; each line is "
                "'question<TAB>coordinate[,coordinate...]' (a schema goes to --schema)"
            ]
        )
    if problems:
        raise LabelledFileError(problems)
    return queries


def known_coordinates(corpus: Corpus) -> frozenset[str]:
    """Every coordinate a label may name in this schema: each output field, each of its
    arguments, and each type the corpus knows (owners, return and argument types, interfaces,
    unions, enums, input objects)."""
    known: set[str] = set(corpus.possible_types) | set(corpus.enum_values)
    known |= set(corpus.input_fields) | set(corpus.type_descriptions)
    for entry in corpus.entries:
        known.update((entry.coordinate, entry.owner, entry.named_return_type))
        for argument in entry.arguments:
            known.add(argument_coordinate(entry.owner, entry.field, argument.name))
            known.add(argument.type.strip("[]!"))
    return frozenset(known)


def shown_by_entry(entry: CorpusEntry, fmt: Format) -> frozenset[str]:
    """The coordinates a listed corpus entry shows to a reader, by rendering.

    - its field `Type.field`, always;
    - its owner type `Type`, always (every rendering names it: the coordinate in RAW and
      DOT_PLUS_GLOSS, `Owner type:` in GLOSS, `# on type` in SDL);
    - its return type, where the rendering prints it (GLOSS and SDL);
    - its arguments `Type.field(arg:)`, where the rendering prints them (SDL only: GLOSS
      says nothing of arguments, RAW and DOT_PLUS_GLOSS show the coordinate alone).
    """
    from schemanav.corpus import Format

    shown = {entry.coordinate, entry.owner}
    if fmt in (Format.GLOSS, Format.SDL):
        shown.add(entry.named_return_type)
    if fmt is Format.SDL:
        shown.update(argument_coordinate(entry.owner, entry.field, a.name) for a in entry.arguments)
    return frozenset(shown)


def unknown_coordinates(queries: Iterable[LabelledQuery], known: Set[str]) -> list[str]:
    """Expected coordinates that the schema does not have (sorted, each once); `known` is
    `known_coordinates(corpus)`.

    A label naming a coordinate the schema lacks can never be retrieved, so it would
    silently cap recall; the CLI warns about these (or refuses them under --strict).
    """
    return sorted(
        {
            coordinate
            for query in queries
            for coordinate in query.expected_coordinates
            if coordinate not in known
        }
    )
