"""One object or many, and short forms: read from a schema's own type names."""

from __future__ import annotations

from schemanav.retrieval.quantity import (
    ShortForms,
    TypeNames,
    plural_forms,
    type_words,
    without_path_literals,
)


def test_type_names_split_at_humps_and_take_english_plurals() -> None:
    assert type_words("MergeRequest") == "merge request"
    assert type_words("CIJob") == "ci job"
    assert plural_forms("policy") == {"policys", "policyes", "policies"}


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
    # Other slashes join words; a URI keeps its path (it may name a type).
    for kept in ("resolved/resolvable state", "CI/CD variables", "gid://gitlab/Issue/1"):
        assert without_path_literals(kept) == kept


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
    forms = _forms({"MergeRequest": 40}, {"mr", "resolved", "unresolved"})
    assert forms.expand("mr") == "mr"
    assert forms.expand("unresolved threads") == "unresolved threads resolved"
