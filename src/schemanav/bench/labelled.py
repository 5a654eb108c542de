"""Labelled questions: a TSV of `question<TAB>Type.field[,Type.field…]`, one per line.

Lines whose first non-blank character is `#` and blank lines are skipped. A malformed file
is refused with every problem at once (`file:line: what is wrong`), so a hand-written
benchmark can be fixed in one pass instead of one error per run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from dataclasses import dataclass
from pathlib import Path

from schemanav.errors import InputError
from schemanav.textfile import read_text

_NAME = r"[_A-Za-z][_0-9A-Za-z]*"
_FIELD_COORDINATE = re.compile(rf"{_NAME}\.{_NAME}")


@dataclass(frozen=True)
class LabelledQuery:
    """One question and the field coordinates that answer it (in file order, no repeats)."""

    question: str
    expected_coordinates: tuple[str, ...]


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


def _parse_line(where: str, line: str) -> tuple[LabelledQuery | None, list[str]]:
    """The query on one non-comment line, or the problems that stop it being one."""
    tabs = line.count("\t")
    if tabs == 0:
        return None, [f"{where}: no tab; expected 'question<TAB>Type.field[,Type.field...]'"]
    if tabs > 1:
        return None, [
            f"{where}: {tabs} tabs; expected exactly one, between the question and the coordinates"
        ]
    raw_question, raw_coordinates = line.split("\t")
    question = raw_question.strip()
    problems: list[str] = []
    if not question:
        problems.append(f"{where}: empty question before the tab")
    pieces = [piece.strip() for piece in raw_coordinates.split(",")]
    if not any(pieces):
        problems.append(f"{where}: no expected coordinates after the tab")
        return None, problems
    for piece in pieces:
        if not piece:
            problems.append(f"{where}: empty coordinate (a stray comma) in the coordinate list")
        elif not _FIELD_COORDINATE.fullmatch(piece):
            problems.append(
                f"{where}: '{piece}' is not a field coordinate of the form Type.field"
                " (GraphQL names on both sides; argument coordinates such as"
                " Type.field(arg:) are not supported)"
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
        if not stripped or stripped.startswith("#"):
            continue
        saw_question_line = True
        query, line_problems = _parse_line(f"{source}:{number}", line)
        problems.extend(line_problems)
        if query is not None:
            queries.append(query)
    if not saw_question_line:
        problems.append(f"{source}: no questions found")
    if problems:
        raise LabelledFileError(problems)
    return queries


def unknown_coordinates(queries: Iterable[LabelledQuery], known: Set[str]) -> list[str]:
    """Expected coordinates that the schema does not have (sorted, each once).

    A label naming a field the corpus lacks can never be retrieved, so it would silently
    cap recall; the CLI warns about these (or refuses them under --strict).
    """
    return sorted(
        {
            coordinate
            for query in queries
            for coordinate in query.expected_coordinates
            if coordinate not in known
        }
    )
