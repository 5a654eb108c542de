"""schemanav.question: a request to change something is told from a question to read by its
grammar alone."""

from __future__ import annotations

from collections.abc import Callable, Container

import pytest

from schemanav.question import read
from schemanav.question.grammar import (
    asks_for_write,
    asks_to_read,
    in_first_person,
    in_time,
    lists_many,
    pages,
    quoted_value_nouns,
    requested_write,
    searches_text,
    sorts,
    streams,
    write_verbs,
)


def requested(question: str, writes: dict[str, list[tuple[int, frozenset[str]]]]) -> list[int]:
    """The writes `requested_write` finds for the question as it is read once (`read`)."""
    reading = read(question)
    return requested_write(reading.request, writes, reading.request_clause)


def verbs(question: str, named: Container[str]) -> list[str]:
    """`write_verbs` for the question as it is read once (`read`)."""
    return write_verbs(read(question).request, named)


@pytest.mark.parametrize(
    "question",
    [
        "Block this spam account.",
        "Delete the comment I wrote on yesterday's thread",
        "Please mark order 1042 as shipped.",
        "Follow stani!",
        'Create a new group called "Climbers"',
        "Let me sign in as this customer to see their store.",
        # The request after the scene it is set in.
        "I just signed in: merge my guest cart into my account's cart.",
        "My session is about to expire; keep me signed in.",
        "We're getting DDoSed — turn on under-attack mode for service 12.",
        "I forgot my password, send a reset link to jane@acme.io.",
        "Password login is switched off: send a sign-in link to admin@acme.io.",
        "Here is my code 482913 for token 3f9a; finish signing me in.",
        # …and before what its answer should tell.
        "Test the nightly schedule as if it ticked at midnight: which runs would it request?",
        "Delete organization org_9 and everything in it; which teams went with it?",
        "In poker meeting 12, set the estimate of task 7 to 5; how often was it exported?",
        # …and after a phrase setting where or when, up to its comma.
        'In the main menu draft, move "Sale" under "Shop".',
        "From now on, only let people follow me if they pay 1 GHO.",
        "As a platform admin, do a dry run of banning account spam-1: which would go?",
        # A verb of change said in words whose first reads.
        "Get rid of the old staging cluster from our organization.",
        # Giving someone else something changes what they may do.
        "Give user 77 the admin role.",
        # "Open a …" opens a new one.
        'Open a ticket in the Support group titled "Printer jams".',
        # A request asked as a question of the one asked.
        "Can you enable the CDN for service 12?",
        "Could you please delete volume 7?",
    ],
)
def test_an_imperative_sentence_asks_for_a_write(question: str) -> None:
    assert asks_for_write(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which orders were cancelled this week?",
        "Show me the open pull requests of octocat/hello.",
        "List every asset of the daily_events job.",
        "draft pull requests not ready",  # keywords: no sentence
        "teams added this year",  # keywords: a noun first, no determiner after it
        "subscription 88 status",
        "Block this spam account?",  # asked, not requested
        "Let me see the cart.",
        "How many views did the signup form get?",
        "Show product 5: its title, price and stock.",  # a read, and what it shows
        "I changed my address; get fresh shipping prices for my cart.",
        "Show run 8: which steps failed?",
        "In the octocat/example repository, list the merged pull requests.",
        "For the nightly job, show its schedules and sensors.",
        "Give me the full configuration of the web pipeline.",
        "Pull all teams in acme-inc with their names.",
        "Here's an ID, VGVhbS0tLTEy; tell me what it is.",
        "Can you pull up the token with slug acme/default?",
        "Can you tell me which volumes exist?",
        "Can I delete volume 7?",  # asks whether the asker may
        "I'm using a project token right now — which project is it scoped to?",
        "Team 8 is locked for non-payment: which organization is it?",
        # A statement opens with its subject.
        "I'm in meeting 5 and want to switch templates: list the templates I can use.",
        "Someone saved page 230 while I was editing it. Show me their version.",
        "Someone sent me the invite link with token 7Yb: which team is it for?",
        # …and its verb can follow a name or number: "Order" is the subject, not the verb.
        "Order 17 was split between sellers: show each seller's sub-order.",
        "I need every cluster in acme-inc sorted by name, showing each one's description.",
        "Tail the runtime logs of deployment 12.",
        "Open ticket 31450 and show me its articles.",
        "Open the ticket 5.",
        "Do a search for the open tickets.",
        "Do the nightly runs fail often?",
        "Pipelines of project 5: which failed?",
    ],
)
def test_questions_reading_verbs_and_keywords_ask_for_none(question: str) -> None:
    assert not asks_for_write(question)


def test_a_question_opening_with_a_question_word_or_a_reading_verb_reads() -> None:
    for question in ("Show quote request 7: who asked for it?", "Which quotes has 77 asked for?",
                     "Please list the open orders.", "Can you show me the cart?",
                     "How heavy is product 12?", "Is the orders asset fresh?"):
        assert asks_to_read(question), question
    # A request, a statement or keywords open otherwise.
    for question in ("Request a quote for product 7.", "Count one more view of the form.",
                     "We're getting DDoSed — turn on under-attack mode.",
                     "I want to contribute to this collective.", "quote request 7 status",
                     "Do a dry run of the nightly schedule."):
        assert not asks_to_read(question), question


@pytest.mark.parametrize(
    "question",
    [
        "Get rid of the ci-legacy token.",
        "Take Jordan off the team.",
        "Take down the banner.",
        "Kick these two members out of my group.",
    ],
)
def test_verbs_said_in_several_words_stand_for_the_verbs_of_removal(question: str) -> None:
    assert verbs(question, {"revoke", "tokens"}) == ["delete"]


def test_their_first_word_alone_is_not_a_verb_of_removal() -> None:
    assert verbs("Get the ci-legacy token.", {"revoke", "tokens"}) == []
    assert verbs("Take the team to the new org.", {"revoke", "tokens"}) == []


def test_a_request_after_its_scene_names_the_write_by_its_verb() -> None:
    name = frozenset({"merge", "carts"})
    writes = {"merge": [(0, name)], "carts": [(0, name)]}
    assert requested("Back again: merge the carts.", writes) == []  # no asker in the scene
    assert requested("I just signed in: merge the carts.", writes) == [0]


def test_the_reading_is_one_record_of_the_question() -> None:
    reading = read("Cancel subscription 88.")
    assert reading.question == "Cancel subscription 88." and reading.writes
    assert not read("subscription 88 status").writes


def test_a_question_is_in_time_by_a_time_word_or_a_date() -> None:
    for question in ("merged last month", "stale branches", "since 2025-05-01", "when was it"):
        assert in_time(question), question
    for question in ("the latest pipeline", "open merge requests", "issue 42"):
        assert not in_time(question), question


@pytest.mark.parametrize(
    ("reads", "says", "does_not_say"),
    [
        # A site's pages are things a schema keeps, not a way of reading a set.
        (
            pages,
            ["orders, 20 per page", "reviews ten at a time", "the next page of runs", "25 a page",
             "Page through the keys", "load more if there are any", "whether there are more pages",
             "and say if more results exist"],
            ["Is page 8841 live on the site?", "List the pages of the blog",
             "a form to put on a page", "Add a page category"],
        ),
        # "The latest release" picks one object: no order of a set.
        (
            sorts,
            ["newest first", "sorted by title", "cheapest first", "in alphabetical order",
             "ordered by date", "the 10 most recently updated pages", "the 5 newest runs"],
            ["the latest pipeline", "the first issue", "order 42's total", "its last 5 runs"],
        ),
        (
            searches_text,
            ['tags whose name contains "summer"', 'Search products for "jacket"',
             "titles matching 'api'", "pages whose title mentions “pricing”"],
            ['the "summer" tag', "what jobs does each repository contain?",
             "its meta description for search engines", "the customer's search history"],
        ),
        # A question follows changes by its verb or a phrase; a page or an asset "is live".
        (
            streams,
            ["Stream the build logs of deployment 42", "Tail the HTTP logs live",
             "Please watch deployment 7 and tell me when it stops", "new comments as they come in",
             "order updates in real time", "Let me know whenever a draft is added",
             "Tell me live when the checklist changes", "Warn me as soon as it goes down",
             "Tell me when my two-factor setup changes", "Tell me when the summary is ready"],
            ["Is page 8841 live on the site?", "Where does the orders asset live?",
             "Call my webhook whenever someone comments", "Which repositories do I watch?",
             "List the build logs of deployment 42", "Tell me when the release was published",
             "Give everyone 5 minutes and tell me when it ends"],
        ),
    ],
    ids=["pages", "sorts", "searches_text", "streams"],
)  # fmt: skip
def test_how_a_question_reads_a_list_is_read_from_its_words(
    reads: Callable[[str], bool], says: list[str], does_not_say: list[str]
) -> None:
    for question in says:
        assert reads(question), question
    for question in does_not_say:
        assert not reads(question), question


def test_a_question_gives_an_object_by_its_opaque_global_identifier() -> None:
    for question in ("Show test suite U3VpdGUtLS03Nzc=", "cluster Q2x1c3Rlci0tLTEyMw's queues",
                     "merge request gid://gitlab/MergeRequest/1?"):
        assert read(question).global_id, question
    for question in ("commit a1b2c3d4e5f67890", "repository owner-1/repo-1", "order 10042",
                     "the ios-unit-tests suite", "acme-inc/web-frontend"):
        assert not read(question).global_id, question


def test_a_question_with_two_commas_lists_many_things() -> None:
    assert lists_many("Show product 5: its status, tags, pictures, title and description.")
    assert read("Open run 8: its status, config, and tags.").lists
    assert not lists_many("Show product 5 with its title and description.")
    assert not read("Which tags does it have, if any?").lists


def test_a_question_about_its_asker_is_in_the_first_person() -> None:
    for question in ("my merged merge requests", "todo items waiting for me", "issues I opened"):
        assert in_first_person(question), question
    # "Show me …" is addressed by the asker, not about them.
    for question in ("Show me the releases of group/project", "give me the open issues"):
        assert not in_first_person(question), question


def test_the_words_beside_a_quoted_value_say_what_the_value_is() -> None:
    assert quoted_value_nouns("coverage for the 'main' branch in group/project") == ["branch"]
    assert quoted_value_nouns('the "example" field and the "x" team') == ["field", "team"]
    # …and so does the word before it.
    assert quoted_value_nouns('issues found via JQL "assignee = me" for me') == ["jql"]
    assert quoted_value_nouns("the label 'bug', open ones") == ["label"]
    # A path names an object (a lookup's business); a function word names nothing.
    assert quoted_value_nouns('members of the "group/project" group') == []
    assert quoted_value_nouns("commits by 'me' on main") == []
    assert quoted_value_nouns("tags named 'v1' this week") == ["named"]  # a name, then


def test_a_write_is_asked_for_by_a_question_that_opens_with_its_verb() -> None:
    close, comment = frozenset({"close", "issue"}), frozenset({"add", "comment"})
    writes = {"close": [(1, close)], "issue": [(1, close)], "add": [(2, comment)],
              "comment": [(2, comment)]}  # fmt: skip
    assert requested("Close issue 42 in octocat/example", writes) == [1]
    assert requested("Please add comments to issue 5", writes) == [2]
    # A read naming the write's words, or an imperative missing one of them, asks none.
    assert requested("issues close to the deadline", writes) == []
    assert requested("List who closed issue 42 and why: close issue", writes) == []
    assert requested("Add a label to issue 5", writes) == []


def test_of_several_writes_a_request_names_the_one_its_first_clause_names_most() -> None:
    cluster, queue = frozenset({"cluster", "create"}), frozenset({"cluster", "queue", "create"})
    service = frozenset({"service", "update"})
    edge = frozenset({"update", "service", "edge", "config"})
    writes = {"create": [(1, cluster), (2, queue)], "update": [(3, service), (4, edge)]}
    # The first clause says what to change; the rest what to set or tell.
    assert requested("Create a cluster called Linux, and make gpu its default queue.",
                     writes) == [1]  # fmt: skip
    assert requested("Create a queue for cluster Linux.", writes) == [2]
    assert requested("Update the edge settings of service 5, and confirm the config ID.",
                     writes) == [4]  # fmt: skip
    assert requested("Update service 5, set its edge config.", writes) == [3]
    # …and first what the verb acts on: a later word of the clause names where.
    writes["create"].append((5, frozenset({"pipeline", "create"})))
    assert requested("Create a pipeline called api in the Linux cluster.", writes) == [5]


def test_a_write_named_by_another_verb_of_the_family_is_asked_for_by_its_object() -> None:
    remove_tag, delete_rate = frozenset({"remove", "tag"}), frozenset({"delete", "tax", "rate"})
    update_order = frozenset({"update", "order"})
    writes = {"remove": [(1, remove_tag)], "tag": [(1, remove_tag)], "delete": [(2, delete_rate)],
              "update": [(3, update_order)], "order": [(3, update_order)]}  # fmt: skip
    # No `delete…` write changes a tag: `removeTag` does.
    assert requested('Delete the "Winter" tag.', writes) == [1]
    assert requested("Change the order's note to 'gift'.", writes) == [3]
    # A number in the object is a value, not a word of what is changed.
    assert requested("Remove the 2 big tags.", writes) == [1]
    # Only what the verb acts on counts, not any word of the request…
    assert requested('Rename the "Warehouse" group to "Fulfillment" and let it manage orders.',
                     writes) == []  # fmt: skip
    # …and a write in the request's own verb is taken at its word.
    assert requested("Delete the tax rate for tags.", writes) == [2]


def test_a_write_of_the_family_is_asked_for_by_its_object_and_where_it_is_acted_on() -> None:
    delete_list = frozenset({"ticket", "checklist", "delete"})
    remove_link = frozenset({"link", "remove"})
    writes = {"delete": [(1, delete_list)], "ticket": [(1, delete_list)],
              "checklist": [(1, delete_list)], "remove": [(2, remove_link)],
              "link": [(2, remove_link)]}  # fmt: skip
    assert requested("Remove the checklist from ticket 50077 entirely.", writes) == [1]
    # The object names a part of it: the place alone does not ("the entry" is no checklist).
    assert requested("Remove the entry from ticket checklist 312.", writes) == []


def test_a_verb_of_another_family_before_a_new_thing_asks_to_create_it() -> None:
    create, update = frozenset({"create", "wishlist"}), frozenset({"update", "wishlist"})
    writes = {"create": [(1, create)], "update": [(2, update)],
              "wishlist": [(1, create), (2, update)]}  # fmt: skip
    # "make" updates ("Make my wishlist 19 public") …
    assert requested("Make my wishlist 19 public.", writes) == [2]
    # … but what is made "a new" one was not there before.
    assert requested('Make a new private wishlist called "Nursery".', writes) == [1]
    # A verb of no family is left as it is: the schema may name its writes by it.
    assert read("Generate a new agent token.").request[0] == "generate"


def test_the_family_verbs_a_schema_names_most_writes_by_name_them_too() -> None:
    edit_tier, edit_comment = frozenset({"edit", "tier"}), frozenset({"edit", "comment"})
    writes = {"edit": [(1, edit_tier), (2, edit_comment)], "tier": [(1, edit_tier)],
              "comment": [(2, edit_comment)]}  # fmt: skip
    # "edit" is not among the family's first two words ("update", "change"), but this
    # schema names more writes by it than by any other verb of the family.
    assert requested('Change tier 5 "Backer" to a monthly amount.', writes) == [1]
    writes["update"] = [(3, frozenset({"update", "order"})), (4, frozenset({"update", "tag"}))]
    writes["modify"] = [(5, frozenset({"modify", "tier"}))]
    assert requested('Change tier 5 "Backer" to a monthly amount.', writes) == [1]


def test_an_imperative_asks_for_the_writes_of_its_verb_one_word_short_of_their_name() -> None:
    item_delete = frozenset({"ticket", "checklist", "item", "delete"})
    delete = frozenset({"ticket", "delete"})
    writes = {"delete": [(1, item_delete), (2, delete)], "ticket": [(1, item_delete), (2, delete)],
              "checklist": [(1, item_delete)], "item": [(1, item_delete)]}  # fmt: skip
    question = 'Delete the item "Order laptop" from checklist 312.'
    reading = read(question)
    # No write's name stands whole in the request ("ticket" is not said) …
    assert requested(question, writes) == []
    # … but an imperative of change asks for those one word short (`ticketDelete`, named by
    # the verb and one word, is not: "ticket" would be all it says).
    found = requested_write(reading.request, writes, reading.request_clause, imperative=True)
    assert found == [1]
    assert requested_write(["delete", "everything"], writes, imperative=True) == []


def test_a_verb_of_change_stands_for_the_words_writes_are_named_by() -> None:
    named = {"publish", "media", "delete", "update"}
    assert verbs("Remove this photo.", named) == ["delete"]
    assert verbs("Please rename the tag", named) == ["update", "change"]
    assert verbs("Duplicate this product.", named) == ["clone", "copy"]
    # A change of amount, a correction, a choice and a refusal are writes too.
    assert verbs("Raise the price of Express shipping to $18.", named) == ["update", "change"]
    assert verbs("Fix the typo in my post.", named) == ["update", "change"]
    assert verbs("Choose standard shipping for my order.", named) == ["select"]
    assert verbs("Decline quote request 8.", named) == ["reject"]
    assert verbs("Cancel subscription 88.", named) == ["terminate"]
    assert verbs("Stop the hourly schedule.", named) == ["cancel", "terminate"]
    # A verb the schema's writes are named by is taken at its word; a read has no verb of change.
    assert verbs("Publish this photo.", named) == []
    assert verbs("Delete this photo.", named) == []
    assert verbs("Show the photos.", named) == []
