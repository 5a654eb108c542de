"""Output that fits (issue 42): a table too wide for the terminal folds into stacked records
and never cuts an identifier; a pipe gets plain columns from every table printer; a table
with nothing to show is not printed; a comparison says its change in the words of its
measure."""

from __future__ import annotations

import io

from rich.console import Console

from schemanav.bench.report import TextTable, hanging_lines, print_table
from schemanav.compare.report import _change, _change_words

LONG = "ContributionsCollection.popularPullRequestContribution"
TABLE = TextTable(
    "Hits",
    ("coordinate", "kind", "detail"),
    (False, False, False),
    ((LONG, "field", "DOT_PLUS_GLOSS " * 4), ("Movie.title", "field", "String!")),
    "Two rows.",
)


def _printed(table: TextTable, *, terminal: bool, width: int = 80) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=terminal, color_system=None)
    console.soft_wrap = not terminal
    print_table(console, table)
    return buffer.getvalue()


def test_a_table_too_wide_for_the_terminal_becomes_records_with_whole_names() -> None:
    out = _printed(TABLE, terminal=True, width=60)
    assert "┃" not in out  # not a boxed table squeezed into 60 columns
    lines = out.splitlines()
    assert any(LONG in line for line in lines)  # whole, on a line of its own if need be
    assert max(len(line) for line in lines) <= 60  # no line left for the terminal to break
    assert "Two rows." in out


def test_a_long_cell_of_a_record_wraps_under_itself_between_words() -> None:
    lead = "  detail      "
    lines = hanging_lines(lead, f"renamed to {LONG}?", 70)
    assert lines == [f"{lead}renamed to", f"{' ' * len(lead)}{LONG}?"]
    words = "the first words of a question that is much longer than its line " * 2
    wrapped = hanging_lines(lead, words, 40)
    assert len(wrapped) > 2 and all(len(line) <= 40 for line in wrapped)
    assert all(line.startswith(" " * len(lead)) for line in wrapped[1:])
    assert " ".join(" ".join(wrapped).split()) == f"detail {words.strip()}"  # words whole
    # a name wider than the room under its column moves left only as far as it must
    assert hanging_lines(lead, LONG, 55) == [lead.rstrip(), " " + LONG]


def test_a_table_that_fits_is_boxed_and_cells_are_never_folded() -> None:
    narrow = TextTable("T", ("coordinate", "n"), (False, True), ((LONG, "1"),))
    out = _printed(narrow, terminal=True, width=80)
    assert "┃" in out and LONG in out


def test_a_pipe_gets_plain_columns_however_narrow() -> None:
    out = _printed(TABLE, terminal=False, width=20)
    lines = out.splitlines()
    assert lines[0] == "Hits"
    assert lines[2].startswith(LONG + "  field")
    assert not any(char in out for char in "┃│━")


def test_a_table_without_rows_prints_its_caption_only() -> None:
    empty = TextTable("Nothing", ("a", "b"), (False, True), (), "No question changed.")
    for terminal in (True, False):
        assert _printed(empty, terminal=terminal).strip() == "No question changed."


def test_a_change_is_said_in_the_words_of_its_measure() -> None:
    assert _change("tokens_at_50", -0.04) == "-0.0"
    assert _change_words("tokens_at_50", -0.04, worse=False) == "fewer tokens, better"
    assert _change_words("mrr", -0.074, worse=True) == "fell, worse"
    assert _change_words("never_complete", 3, worse=True) == "more questions, worse"
    assert _change("recall", 0.1234) == "+0.123"
    assert _change("never_complete", 4.0) == "+4"  # questions are whole
    assert _change("rank_p50", -1.5) == "-1.5"  # a median rank may be a half
