"""Loading labelled-question TSV files, and refusing malformed ones with every problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemanav.bench.labelled import (
    LabelledFileError,
    LabelledQuery,
    load_labelled,
    unknown_coordinates,
)
from schemanav.errors import InputError
from schemanav.schema import bundled_path


def _write(tmp_path: Path, text: str, name: str = "questions.tsv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(LabelledFileError) as caught:
        load_labelled(path)
    return caught.value.problems


def test_loads_questions_skipping_comments_and_blank_lines(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "# movie questions\n"
        "\n"
        "  which field is a movie's title?  \t  Movie.title \n"
        "   # an indented comment\n"
        "   \t  \n"
        "who acted in it?\tMovie.cast, Person.name,Movie.cast\r\n"
        "\n",
    )
    assert load_labelled(path) == [
        LabelledQuery("which field is a movie's title?", ("Movie.title",)),
        # surrounding whitespace stripped, the repeated Movie.cast dropped, order kept
        LabelledQuery("who acted in it?", ("Movie.cast", "Person.name")),
    ]


def test_accepts_a_str_path_a_byte_order_mark_and_underscored_names(tmp_path: Path) -> None:
    path = tmp_path / "bom.tsv"
    path.write_bytes("\ufeffq\t_Type1._field_2\n".encode())
    assert load_labelled(str(path)) == [LabelledQuery("q", ("_Type1._field_2",))]


def test_the_sample_benchmark_shipped_with_the_repo_loads() -> None:
    sample = bundled_path("moviedb-sample.tsv")
    queries = load_labelled(sample)
    assert queries
    assert all(query.expected_coordinates for query in queries)


def test_no_tab(tmp_path: Path) -> None:
    path = _write(tmp_path, "which field is the title? Movie.title\n")
    assert _problems(path) == [
        f"{path}:1: no tab; expected 'question<TAB>Type.field[,Type.field...]'"
    ]


def test_two_or_more_tabs(tmp_path: Path) -> None:
    path = _write(tmp_path, "q\tMovie.title\tMovie.cast\nq2\tA.b\t\t\n")
    problems = _problems(path)
    assert len(problems) == 2
    assert problems[0].startswith(f"{path}:1: 2 tabs")
    assert problems[1].startswith(f"{path}:2: 3 tabs")


def test_empty_question(tmp_path: Path) -> None:
    path = _write(tmp_path, "   \tMovie.title\n")
    assert _problems(path) == [f"{path}:1: empty question before the tab"]


def test_empty_coordinate_list(tmp_path: Path) -> None:
    path = _write(tmp_path, "q\t \nq2\t , ,\n")
    assert _problems(path) == [
        f"{path}:1: no expected coordinates after the tab",
        f"{path}:2: no expected coordinates after the tab",
    ]


def test_stray_comma_is_an_empty_coordinate(tmp_path: Path) -> None:
    path = _write(tmp_path, "q\tMovie.title,,Movie.cast\n")
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:1: empty coordinate")


@pytest.mark.parametrize(
    "coordinate",
    [
        "Movie",  # no field
        "Movie.",  # empty field
        ".title",  # empty type
        "Movie.title.name",  # a path, not a coordinate
        "Movie.1title",  # a name may not start with a digit
        "Movie.ti-tle",  # '-' is not in a GraphQL name
        "Movie. title",  # inner blank
        "Query.movie(id:)",  # argument coordinate
        "@deprecated",  # directive coordinate
    ],
)
def test_malformed_coordinate_names_it(tmp_path: Path, coordinate: str) -> None:
    path = _write(tmp_path, f"q\t{coordinate}\n")
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:1: '{coordinate}' is not a field coordinate")
    assert "Type.field(arg:) are not supported" in problem


def test_a_file_with_no_questions(tmp_path: Path) -> None:
    path = _write(tmp_path, "# only a comment\n\n   \n")
    assert _problems(path) == [f"{path}: no questions found"]
    empty = _write(tmp_path, "", name="empty.tsv")
    assert _problems(empty) == [f"{empty}: no questions found"]


def test_every_problem_is_reported_at_once_with_its_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "# header comment\n"  # 1
        "good question\tMovie.title\n"  # 2
        "no tab here\n"  # 3
        "\n"  # 4
        "\tMovie.title, Query.movie(id:)\n"  # 5: empty question AND a bad coordinate
        "two\ttabs\there\n"  # 6
        "fine again\tPerson.name\n"  # 7
        "nothing after\t\n",  # 8
    )
    with pytest.raises(LabelledFileError) as caught:
        load_labelled(path)
    error = caught.value
    assert [problem.split(": ", 1)[0] for problem in error.problems] == [
        f"{path}:3",
        f"{path}:5",
        f"{path}:5",
        f"{path}:6",
        f"{path}:8",
    ]
    assert "empty question" in error.problems[1]
    assert "'Query.movie(id:)'" in error.problems[2]
    # One line for the CLI, every problem in it, and the input-error exit code.
    assert str(error) == "; ".join(error.problems)
    assert "\n" not in str(error)
    assert isinstance(error, InputError)
    assert error.exit_code == 2


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.tsv"
    with pytest.raises(InputError, match="not found") as caught:
        load_labelled(missing)
    assert str(missing) in str(caught.value)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        load_labelled(tmp_path)


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.tsv"
    path.write_bytes("caf\u00e9 question\tMovie.title\n".encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8") as caught:
        load_labelled(path)
    assert not isinstance(caught.value, LabelledFileError)


def test_unknown_coordinates_sorted_and_unique() -> None:
    queries = [
        LabelledQuery("a", ("Movie.title", "Movie.budget")),
        LabelledQuery("b", ("Query.movie", "Movie.budget", "Actor.age")),
    ]
    known = {"Movie.title", "Query.movie"}
    assert unknown_coordinates(queries, known) == ["Actor.age", "Movie.budget"]
    assert unknown_coordinates(queries, known | {"Actor.age", "Movie.budget"}) == []
    assert unknown_coordinates([], known) == []
