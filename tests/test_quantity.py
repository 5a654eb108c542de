"""One object or many, and short forms: read from a schema's own type names."""

from __future__ import annotations

from schemanav.question.grammar import (
    in_first_person,
    in_time,
    quoted_value_nouns,
    requested_write,
)
from schemanav.retrieval.quantity import (
    ORDER_WORDS,
    SET_WORDS,
    ShortForms,
    TypeNames,
    is_time_scalar,
    plural_forms,
    type_words,
    without_path_literals,
)


def test_type_names_split_at_humps_and_take_english_plurals() -> None:
    assert type_words("MergeRequest") == "merge request"
    assert type_words("CIJob") == "ci job"
    assert plural_forms("policy") == {"policys", "policyes", "policies"}
    assert "key people" in plural_forms("key person")  # irregular plurals too


def test_a_type_named_in_the_plural_is_not_asked_for_once() -> None:
    names = TypeNames(["MergeRequest", "Project", "Policy"])
    many = names.mentions("Which merge requests of project group/project have policies?")
    assert many.plural == {"MergeRequest", "Policy"}
    assert many.singular == {"Project"}
    assert many.literal
    # The project is named once beside a path: one object of it; the merge requests are many.
    assert many.one == {"Project"}


def test_without_a_literal_identifier_nothing_is_asked_for_once() -> None:
    mentions = TypeNames(["MergeRequest"]).mentions("show the merge request")
    assert mentions.singular == {"MergeRequest"} and not mentions.literal
    assert mentions.one == frozenset()


def test_numbers_quotes_paths_and_global_ids_are_literals() -> None:
    names = TypeNames(["Issue"])
    for question in ("issue 42", "issue 'login bug'", "issue in a/b", "issue gid://x/Issue/1"):
        assert names.mentions(question).one == {"Issue"}, question


def test_a_path_that_is_surely_a_value_is_no_word_of_the_question() -> None:
    # Quoted, marked as an identifier, or repeating the word beside it: a value.
    in_project = without_path_literals("in project group/project, list")
    assert in_project.split() == ["in", "project", ",", "list"]
    assert without_path_literals('the "group/project" group').split() == ["the", "group"]
    assert without_path_literals("repo owner-1/repo-1").split() == ["repo"]
    # Other slashes join words.
    for kept in ("resolved/resolvable state", "CI/CD variables"):
        assert without_path_literals(kept) == kept
    # A URI is a value whole: the type its path names is no second mention of it.
    blanked = without_path_literals("merge request gid://gitlab/MergeRequest/1, its jobs")
    assert blanked.split() == ["merge", "request", ",", "its", "jobs"]
    assert without_path_literals("see https://example.com/a/b.").split() == ["see", "."]


def test_a_type_named_only_inside_a_path_literal_is_not_mentioned() -> None:
    names = TypeNames(["Group", "Project", "MergeRequest"])
    mentions = names.mentions("merge requests of project group/project")
    assert mentions.singular == {"Project"} and mentions.one == {"Project"}


def test_each_or_every_one_of_a_type_names_a_set() -> None:
    names = TypeNames(["Project", "Job"])
    mentions = names.mentions("for each project in group g/p, every job")
    assert mentions.plural == {"Project", "Job"} and not mentions.singular


def _forms(returned: dict[str, int], vocabulary: set[str]) -> ShortForms:
    return ShortForms(returned, lambda word: word in vocabulary)


def test_unknown_acronyms_and_clippings_read_as_the_type_they_abbreviate() -> None:
    forms = _forms({"MergeRequest": 40, "Repository": 30, "MemberRole": 2}, {"open"})
    # `mr` is both MergeRequest's and MemberRole's acronym: the type more fields reach wins.
    assert forms.expand("open mrs") == "open mrs merge requests"
    assert forms.expand("repo") == "repo repository"


def test_known_words_are_left_alone_and_negations_add_the_word() -> None:
    forms = _forms({"OpenRequest": 40, "Repository": 30}, {"or", "repo", "resolved", "unresolved"})
    assert forms.expand("or") == "or"
    assert forms.expand("repo") == "repo"
    assert forms.expand("unresolved threads") == "unresolved threads resolved"


def test_a_known_acronym_without_a_vowel_still_expands() -> None:
    # The schema writes `introducedByMr`, so "mr" is a known word; no English word lacks a
    # vowel, so it is the schema's own short form of MergeRequest.
    forms = _forms({"MergeRequest": 40}, {"mr", "mrs"})
    assert forms.expand("last mr") == "last mr merge request"
    assert forms.expand("my mrs") == "my mrs merge requests"


def test_a_question_is_in_time_by_a_time_word_or_a_date() -> None:
    for question in ("merged last month", "stale branches", "since 2025-05-01", "when was it"):
        assert in_time(question), question
    for question in ("the latest pipeline", "open merge requests", "issue 42"):
        assert not in_time(question), question


def test_a_scalar_is_a_point_in_time_by_its_own_name_or_description() -> None:
    assert is_time_scalar("DateTime", None)
    assert is_time_scalar("ISO8601Date", None)
    assert is_time_scalar("GitTimestamp", None)
    assert is_time_scalar("Instant", "An ISO-8601 encoded UTC instant.")
    # Words that merely contain "time" or "date" are not those words.
    assert not is_time_scalar("TimelogID", "A `TimelogID` is a global ID.")
    assert not is_time_scalar("MetadataKey", None)
    assert not is_time_scalar("URI", "An RFC 3986 URI.")


def test_a_question_about_its_asker_is_in_the_first_person() -> None:
    for question in ("my merged merge requests", "todo items waiting for me", "issues I opened"):
        assert in_first_person(question), question
    # "Show me …" is addressed by the asker, not about them.
    for question in ("Show me the releases of group/project", "give me the open issues"):
        assert not in_first_person(question), question


def test_a_set_word_reaches_over_one_adjective_and_order_words_are_asked_for() -> None:
    names = TypeNames(["PullRequest", "Pipeline"])
    assert names.mentions("each merged pull request").plural == {"PullRequest"}
    assert names.mentions("each of the merged pull request").plural == frozenset()
    # "last" makes a set only for those who ask for it (the slicer does, the ranking not).
    question = "the last successful pipeline"
    assert names.mentions(question).plural == frozenset()
    assert names.mentions(question, SET_WORDS | ORDER_WORDS).plural == {"Pipeline"}


def test_the_word_after_a_quoted_value_says_what_the_value_is() -> None:
    assert quoted_value_nouns("coverage for the 'main' branch in group/project") == ["branch"]
    assert quoted_value_nouns('the "example" field and the "x" team') == ["field", "team"]
    # A path names an object (a lookup's business); a function word names nothing.
    assert quoted_value_nouns('members of the "group/project" group') == []
    assert quoted_value_nouns("commits by 'me' on main") == []


def test_a_write_is_asked_for_by_a_question_that_opens_with_its_verb() -> None:
    close, comment = frozenset({"close", "issue"}), frozenset({"add", "comment"})
    writes = {"close": [(1, close)], "issue": [(1, close)], "add": [(2, comment)],
              "comment": [(2, comment)]}  # fmt: skip
    assert requested_write("Close issue 42 in octocat/example", writes) == [1]
    assert requested_write("Please add comments to issue 5", writes) == [2]
    # A read naming the write's words, or an imperative missing one of them, asks none.
    assert requested_write("issues close to the deadline", writes) == []
    assert requested_write("List who closed issue 42 and why: close issue", writes) == []
    assert requested_write("Add a label to issue 5", writes) == []

