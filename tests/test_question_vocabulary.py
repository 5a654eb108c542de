"""schemanav.question.vocabulary: a question read against one schema's type names (one object or
many, short forms, values that are not words), by one reader for the ranking and the slicer."""

from __future__ import annotations

from schemanav.question.vocabulary import (
    IRREGULAR_PLURALS,
    NO_QUESTION,
    ORDER_WORDS,
    SET_WORDS,
    TIME_MARK,
    VALUE_MARK,
    ShortForms,
    TypeNames,
    plural_forms,
    reader_of,
    type_words,
    without_value_literals,
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


def test_numbers_quotes_paths_global_ids_and_snake_case_names_are_literals() -> None:
    names = TypeNames(["Issue"])
    questions = ("issue 42", "issue 'login bug'", "issue in a/b", "issue gid://x/Issue/1")
    for question in (*questions, "the login_bug issue"):
        assert names.mentions(question).one == {"Issue"}, question
    assert names.mentions("the login-bug issue, a follow-up").one == frozenset()


def test_a_path_that_is_surely_a_value_is_no_word_of_the_question() -> None:
    # Quoted, marked as an identifier, or repeating the word beside it: a value.
    in_project = without_value_literals("in project group/project, list")
    assert in_project.split() == ["in", "project", ",", "list"]
    assert without_value_literals('the "group/project" group').split() == ["the", "group"]
    assert without_value_literals("repo owner-1/repo-1").split() == ["repo"]
    # Other slashes join words.
    for kept in ("resolved/resolvable state", "CI/CD variables"):
        assert without_value_literals(kept) == kept
    # A URI is a value whole: the type its path names is no second mention of it.
    blanked = without_value_literals("merge request gid://gitlab/MergeRequest/1, its jobs")
    assert blanked.split() == ["merge", "request", ",", "its", "jobs"]
    assert without_value_literals("see https://example.com/a/b.").split() == ["see", "."]


def test_a_quoted_text_of_several_words_is_no_word_of_the_question() -> None:
    asked = 'Rename the "Warehouse" group to "Fulfillment team" and let it manage orders.'
    words = without_value_literals(asked).replace('"', " ").split()
    assert "Warehouse" in words and "team" not in words and "Fulfillment" not in words
    # Quotes pair in order: the words between two quoted words are the question's.
    kept = 'the "example" team in the "octocat" organization'
    assert without_value_literals(kept) == kept


def test_an_opaque_identifier_is_no_word_of_the_question() -> None:
    # A UUID, a hexadecimal ID and a global ID are values whole: the analyzer would read
    # their single letters and digits as words.
    asked = "service 1d4b8e2a-7c3f-4a9d-b6e0-5f2c9a1d8e47, run 8d3e91, cluster Q2x1c3Rlci0tLTEyMw"
    assert without_value_literals(asked).split() == ["service", ",", "run", ",", "cluster"]
    # A random key is a value too, after its prefix (which stays a word): its letters and
    # digits take turns three times, or twice in mixed case.
    keyed = "meeting mtg_St5dUp, order ord_9z2w1x, bucket bkt_7f3a9c21, user local|Rt5mNq"
    assert without_value_literals(keyed).split() == [
        "meeting", "mtg_", ",", "order", "ord_", ",", "bucket", "bkt_", ",", "user", "local|"
    ]
    # A word holds no digit, a number no letter, and a short name with a digit is a word; so
    # is a numeronym, a name in one case turning twice, and one holding a lower-case word.
    for kept in (
        "a decade since 2024", "the s3 bucket", "v2 deploys", "ab12c", "i18n and k8s e2e",
        "AES256GCM", "x86_64", "the setOrg2FA write",
    ):
        assert without_value_literals(kept) == kept


def test_a_type_named_only_inside_a_path_literal_is_not_mentioned() -> None:
    names = TypeNames(["Group", "Project", "MergeRequest"])
    mentions = names.mentions("merge requests of project group/project")
    assert mentions.singular == {"Project"} and mentions.one == {"Project"}


def test_each_or_every_one_of_a_type_names_a_set() -> None:
    names = TypeNames(["Project", "Job"])
    mentions = names.mentions("for each project in group g/p, every job")
    assert mentions.plural == {"Project", "Job"} and not mentions.singular


def test_a_namespaced_type_is_named_by_its_noun_where_no_type_is() -> None:
    names = TypeNames(["CiRunner", "PbPage", "Status", "PbStatus", "RunGroup", "Run", "TaxonRate"])
    mentions = names.mentions("the runners, one page and its status, a group, the rate")
    assert mentions.plural == {"CiRunner"}
    # `Status` is named by "status" itself; `Run` is a type, so `RunGroup` is no namespace's
    # group; `Taxon` is no short prefix.
    assert mentions.singular == {"PbPage", "Status"}


def test_a_plural_names_a_compound_type_by_its_last_noun_beside_its_first_words_type() -> None:
    names = TypeNames(
        ["Product", "ProductReview", "User", "UserReview", "Service", "ServiceInstance"]
    )
    # "reviews" names no type, but `Product` is named: its reviews are `ProductReview`s.
    assert names.mentions("the reviews of product 12").plural == {"ProductReview"}
    # A noun after a set word is a set as a plural is: every review of product 12.
    assert names.mentions("every review of product 12").plural == {"ProductReview"}
    # Both `Product` and `User` are named: which reviews is not said.
    assert names.mentions("reviews of product 12 by user 3").plural == set()
    # Nor does a noun in the singular ("its instance": the service's, or another's?), nor
    # a plural beside no type its compounds begin with.
    assert names.mentions("service 4 and its instance").plural == set()
    assert names.mentions("the latest reviews").plural == set()


def _forms(returned: dict[str, int], vocabulary: set[str]) -> ShortForms:
    return ShortForms(returned, lambda word: word in vocabulary)


def test_unknown_acronyms_and_clippings_read_as_the_type_they_abbreviate() -> None:
    forms = _forms({"MergeRequest": 40, "Repository": 30, "MemberRole": 2}, {"open"})
    # `mr` is both MergeRequest's and MemberRole's acronym: the type more fields reach wins.
    assert forms.expand("open mrs") == "open mrs merge requests"
    assert forms.expand("repo") == "repo repository"


def test_an_unknown_word_dropping_its_silent_e_reads_as_the_type_word_it_derives() -> None:
    forms = _forms({"Quotation": 40, "WarehousingProvider": 30, "Stalker": 5, "Notation": 5}, set())
    assert forms.expand("quotes of customer 7") == "quotes of customer 7 quotation"
    assert forms.expand("warehouse 2") == "warehouse 2 warehousing"
    # A suffix begins with a vowel ("-ing", "-ation"): "stale" is no `stalker`; and a word
    # of four letters is too short to tell ("note" is no `notation`).
    assert forms.expand("stale note") == "stale note"


def test_known_words_are_left_alone_and_negations_add_the_word() -> None:
    forms = _forms({"OpenRequest": 40, "Repository": 30}, {"or", "repo", "resolved", "unresolved"})
    assert forms.expand("or") == "or"
    assert forms.expand("repo") == "repo"
    assert forms.expand("unresolved threads") == "unresolved threads resolved"


def test_a_word_of_a_sentence_is_never_an_acronym() -> None:
    # Pronouns, prepositions and the like are words the schema need not know.
    forms = _forms({"MlExperiment": 40, "IssueType": 30, "AccessToken": 20}, set())
    assert forms.expand("commits by me when it ran at noon") == "commits by me when it ran at noon"
    assert forms.expand("ats") == "ats access tokens"


def test_a_known_acronym_without_a_vowel_still_expands() -> None:
    # The schema writes `introducedByMr`, so "mr" is a known word; no English word lacks a
    # vowel, so it is the schema's own short form of MergeRequest.
    forms = _forms({"MergeRequest": 40}, {"mr", "mrs"})
    assert forms.expand("last mr") == "last mr merge request"
    assert forms.expand("my mrs") == "my mrs merge requests"


def test_a_set_word_reaches_over_one_adjective_and_order_words_are_asked_for() -> None:
    names = TypeNames(["PullRequest", "Pipeline"])
    assert names.mentions("each merged pull request").plural == {"PullRequest"}
    assert names.mentions("each of the merged pull request").plural == frozenset()
    # "last" makes a set only for those who ask for it (the slicer does, the ranking not).
    question = "the last successful pipeline"
    assert names.mentions(question).plural == frozenset()
    assert names.mentions(question, SET_WORDS | ORDER_WORDS).plural == {"Pipeline"}


def test_one_reader_per_schema_reads_for_the_ranking_and_the_slicer() -> None:
    names = frozenset({"Project", "Pipeline", "Query"})
    reader = reader_of(names)
    assert reader_of(frozenset(names)) is reader  # the ranking's and the slicer's, one
    question = "the last pipeline of project 7"
    # The ranking: "last" makes no set; the slicer: it does (a way in through a list).
    ranking = reader.mentions(question)
    assert ranking.plural == frozenset() and ranking.one == {"Pipeline", "Project"}
    sliced = reader.for_slice(question, str.split)
    assert sliced.many == {"Pipeline"} and sliced.one == {"Project"}
    assert sliced.named == {"Pipeline"}
    # The ranking keeps only the types a field reaches.
    assert reader.mentions("query 1 of project 7").among({"Project"}).one == {"Project"}


def test_the_slicers_reading_marks_time_and_quoted_values() -> None:
    reader = reader_of(frozenset({"Branch"}))
    sliced = reader.for_slice("commits since 2025-05-01 on the 'main' branch", str.split)
    assert {TIME_MARK, VALUE_MARK + "branch", "commits", "branch"} <= sliced.words
    assert not sliced.writes
    assert reader.for_slice("Delete the 'main' branch.", str.split).writes
    assert reader.for_slice("branches", str.split).words == {"branches"}
    # Its words are the ranking's: no value's (`without_value_literals`).
    of_repo = reader.for_slice("branches of repo 8d3e91", str.split)
    assert of_repo.words == {"branches", "of", "repo"}
    assert not NO_QUESTION.words and not NO_QUESTION.named


def test_irregular_plurals_are_the_analyzers_too() -> None:
    from schemanav.question.analyzer import split_camel

    assert IRREGULAR_PLURALS["person"] == "people"
    assert split_camel("keyPeople children") == "key person child"


def test_an_acronyms_plural_and_an_interfaces_prefix_are_no_words_of_their_own() -> None:
    """"IDs" is the plural of ID (not "I" and "Ds"), and the `I` of `ISolidDefinition` marks
    an interface: the pronoun in "may I" must not match it."""
    from schemanav.question.analyzer import Stemmer, split_camel

    stem = Stemmer()
    assert stem("nodeIDs, their URLs and IPs") == ["node", "id", "their", "url", "and", "ip"]
    assert stem("ISolidDefinition") == ["solid", "definit"]
    assert split_camel("May I see IPv4 and IOS?") == "May I see I Pv 4 and IOS"


def _every_form_mentions(names: list[str], question: str, set_words: frozenset[str]) -> object:
    """What the reader finds once it has split and inflected every name (`_every_form`)."""
    reader = TypeNames(names)
    reader._LAZY_QUESTIONS = 0  # the table from the first question on
    found = reader.mentions(question, set_words)
    assert reader._table is not None
    return found


def test_names_looked_up_by_their_letters_find_what_every_form_finds() -> None:
    """The first questions look names up by their letters (`TypeNames._may_name`), later
    ones in the table of every name's forms: both find the same types, singular and plural,
    irregular plurals, acronym-like humps, digits, underscores and names that are no
    GraphQL name included."""
    names = [
        "MergeRequest", "Policy", "Status", "Child", "KeyPerson", "Man", "Woman", "CIJob",
        "URLPath", "V2Thing", "snake_case_type", "Project", "ProjectStatus", "Box", "X",
        "Ünïcode", "_", "Mirror2Issue", "Issue", "CiRunner", "PbPage", "PbStatus", "GlBox",
    ]  # fmt: skip
    questions = [
        "every merge requests and policies with statuses",
        "runners and pages, one runner, the page, a status, boxes",
        "all the children and key people, one man and two women",
        "ci jobs on url paths for v2 things",
        "snake case types in project 42 and the project statuses",
        "boxes boxs boxes of x and xs, mirror2 issues",
        "ünïcode types",
        "",
    ]
    for question in questions:
        for set_words in (SET_WORDS, SET_WORDS | ORDER_WORDS):
            lazy = TypeNames(names).mentions(question, set_words)
            assert lazy == _every_form_mentions(names, question, set_words), question
    reader = TypeNames(names)
    for question in questions * 2:  # past `_LAZY_QUESTIONS`: the table
        assert reader.mentions(question) == _every_form_mentions(names, question, SET_WORDS)
    assert reader._table is not None


def test_two_nouns_the_schema_writes_as_one_word_read_as_its_compound() -> None:
    from schemanav.question.analyzer import Stemmer

    stem = Stemmer()
    vocabulary = {"fullnam", "timelog", "roundtrip", "setup", "rollback", "name"}
    forms = ShortForms({}, lambda word: all(t in vocabulary for t in stem(word)), stem)
    assert forms.expand("their full names") == "their full names fullnames"
    assert forms.expand("time log entries") == "time log entries timelog"
    assert forms.expand("a round-trip test") == "a round-trip test roundtrip"
    # A phrasal verb asks for a change ("set up", "roll back"), and a compound stemming to one
    # of its parts is no word of its own ("name li" stems to "name").
    phrasal = "set up an IP, roll back the deploy"
    assert forms.expand(phrasal) == phrasal
    assert forms.expand("name Li Wei") == "name Li Wei"


def test_expansions_go_before_the_closing_mark_so_a_request_still_reads_as_one() -> None:
    from schemanav.question import read

    forms = _forms({"MergeRequest": 40}, set())
    # After the period, the words would end the text and the request would read as none.
    assert forms.expand("Approve mr 5.") == "Approve mr 5 merge request."
    assert read(forms.expand("Approve mr 5.")).writes
    assert forms.expand("Which mrs are open?") == "Which mrs are open merge requests?"
