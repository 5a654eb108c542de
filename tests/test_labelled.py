"""Loading labelled-question TSV files, and refusing malformed ones with every problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemanav.bench.labelled import (
    LabelledFileError,
    LabelledQuery,
    coordinate_kind,
    known_coordinates,
    load_labelled,
    shown_by_entry,
    unknown_coordinates,
)
from schemanav.corpus import Corpus, Format
from schemanav.corpus.model import build_corpus
from schemanav.errors import InputError
from schemanav.limits import MAX_QUESTION_CHARS
from schemanav.schema import bundled_path, load_schema


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


def test_a_line_with_a_tab_is_a_question_even_after_a_hash(tmp_path: Path) -> None:
    path = _write(tmp_path, "# comment: no tab\n#123 still open?\tIssue.state\n")
    (query,) = load_labelled(path)
    assert query == LabelledQuery("#123 still open?", ("Issue.state",))
    assert query.line == 2  # for the runner's warning


def test_a_question_over_the_limit_is_refused_naming_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, f"ok\tA.b\n{'x' * (MAX_QUESTION_CHARS + 1)}\tA.b\n")
    assert _problems(path) == [
        f"{path}:2: the question is {MAX_QUESTION_CHARS + 1:,} characters long; the limit is "
        f"{MAX_QUESTION_CHARS:,} characters: ask in fewer words"
    ]
    _write(tmp_path, f"{'x' * MAX_QUESTION_CHARS}\tA.b\n")  # at the limit: read
    assert len(load_labelled(path)) == 1


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
        f"{path}:1: no tab; expected 'question<TAB>coordinate[,coordinate...]'"
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
        "Movie.",  # empty field
        ".title",  # empty type
        "Movie.title.name",  # a path, not a coordinate
        "Movie.1title",  # a name may not start with a digit
        "Movie.ti-tle",  # '-' is not in a GraphQL name
        "Movie. title",  # inner blank
        "Query.movie(id)",  # an argument coordinate ends in `:)`
        "Query.movie(id:",  # unclosed
        "Query(id:)",  # an argument needs its field
        "Query.movie(id:).x",  # nothing after the argument
        "@deprecated",  # directive coordinate
        "@deprecated(reason:)",  # directive argument
    ],
)
def test_malformed_coordinate_names_it(tmp_path: Path, coordinate: str) -> None:
    path = _write(tmp_path, f"q\t{coordinate}\n")
    (problem,) = _problems(path)
    assert problem.startswith(f"{path}:1: '{coordinate}' is not a coordinate of the form")
    assert "Type.field, Type.field(arg:) or Type" in problem


def test_labels_may_name_fields_arguments_and_types(tmp_path: Path) -> None:
    path = _write(tmp_path, "q\tQuery.movie(id:), Movie ,Movie.title,_T.f(_a1:)\n")
    (query,) = load_labelled(path)
    assert query.expected_coordinates == ("Query.movie(id:)", "Movie", "Movie.title", "_T.f(_a1:)")
    assert [coordinate_kind(c) for c in query.expected_coordinates] == [
        "argument",
        "type",
        "field",
        "argument",
    ]
    with pytest.raises(ValueError, match="not a coordinate"):
        coordinate_kind("Movie.title.name")


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
        "\tMovie.title, Query.movie(id)\n"  # 5: empty question AND a bad coordinate
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
    assert "'Query.movie(id)'" in error.problems[2]
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


SCHEMA = """
type Query { movie(id: ID!, locale: Locale): Movie  search(filter: MovieFilter): [Result!]! }
type Movie { title: String! }
type Person { name: String }
union Result = Movie | Person
enum Locale { EN FR }
input MovieFilter { title: String }
"""


def _corpus(tmp_path: Path) -> Corpus:
    path = _write(tmp_path, SCHEMA, name="schema.graphqls")
    return build_corpus(load_schema(str(path)).schema)


def test_known_coordinates_are_fields_their_arguments_and_types(tmp_path: Path) -> None:
    known = known_coordinates(_corpus(tmp_path))
    assert {
        "Query.movie",
        "Query.movie(id:)",
        "Query.movie(locale:)",
        "Query.search(filter:)",
    } <= known
    assert {"Query", "Movie", "Person", "Result", "Locale", "MovieFilter", "ID"} <= known
    # an argument of another field, a field of an input type, an enum value: not labels
    assert not {"Query.search(id:)", "MovieFilter.title", "Locale.EN", "Movie.title(id:)"} & known


def test_a_listed_entry_shows_what_its_rendering_prints(tmp_path: Path) -> None:
    movie = next(e for e in _corpus(tmp_path).entries if e.coordinate == "Query.movie")
    own = {"Query.movie", "Query"}
    arguments = {"Query.movie(id:)", "Query.movie(locale:)"}
    for fmt in (Format.RAW, Format.DOT_PLUS_GLOSS):
        assert shown_by_entry(movie, fmt) == own
        assert "Movie" not in movie.render(fmt).replace("Query.movie", "")
    assert shown_by_entry(movie, Format.GLOSS) == own | {"Movie"}
    assert shown_by_entry(movie, Format.SDL) == own | {"Movie"} | arguments
    # the claim matches the text: SDL prints each argument's name, GLOSS prints none
    assert all(f"{name}:" in movie.render(Format.SDL) for name in ("id", "locale"))
    assert "locale" not in movie.render(Format.GLOSS)


def test_a_file_with_no_tab_at_all_is_one_problem_naming_what_it_should_be(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, "type Query {\n  movies: [Movie!]!\n}\n" * 50)
    problems = _problems(path)
    assert len(problems) == 1
    assert "is not a labelled TSV: no line holds a tab" in problems[0]
    assert "a schema goes to --schema" in problems[0]
