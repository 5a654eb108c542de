"""The default backend, mechanism by mechanism, on schemas small enough to work out by hand.

Each test names the rule of `schemanav.retrieval.structural` it checks and computes the
expected number from that rule, not from running the code: BM25F over the parts of a field,
closeness to the root (with interface/union and mutation-root costs), sibling evidence, and
paths as hits.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from graphql import build_schema

from schemanav.cache import read_checked, write_checked
from schemanav.corpus import Corpus, Format, build_corpus
from schemanav.events import SilentEvents
from schemanav.retrieval import SearchHit, structural, type_ways
from schemanav.retrieval.structural import (
    ROOT_CLOSENESS,
    StructuralBackend,
    StructuralParams,
    StructuralSearcher,
)
from schemanav.retrieval.structural_index import (
    SET_ROUTE_BY_IDENTIFIER,
    SET_ROUTE_HOME,
    SET_ROUTE_NONE,
    SET_ROUTE_PLUMBING,
)
from schemanav.schema import bundled_path

K1 = 1.2


@pytest.fixture
def no_sibling_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scores without the evidence a field takes from its siblings and from the way into its
    type (`SIBLING_EVIDENCE`, `INWARD_EVIDENCE` 0), so another mechanism's factor reads
    plainly."""
    monkeypatch.setattr(structural, "SIBLING_EVIDENCE", 0.0)
    monkeypatch.setattr(structural, "INWARD_EVIDENCE", 0.0)


def _corpus(sdl: str) -> Corpus:
    return build_corpus(build_schema(sdl))


def _structural(
    corpus: Corpus,
    params: StructuralParams | None = None,
    fmt: Format = Format.RAW,
    max_paths: int = 2,
) -> StructuralSearcher:
    """The one place this file builds a structural searcher (indexed over `corpus`)."""
    backend = StructuralBackend(fmt, params=params or StructuralParams(), max_paths=max_paths)
    return backend.index(corpus)


def _by_coordinate(corpus: Corpus, scores: Iterable[Any]) -> dict[str, float]:
    return {c: float(s) for c, s in zip(corpus.coordinates, scores, strict=True)}


def _idf(documents: int, containing: int) -> float:
    return math.log(1 + (documents - containing + 0.5) / (containing + 0.5))


def _saturate(pseudo_tf: float) -> float:
    return pseudo_tf / (K1 + pseudo_tf)


# --- 1. BM25F over the parts of a field ------------------------------------------------------

# Three entries: Query.films, Film.title, Film.rating. Custom scalar `Text`, because the
# built-in scalars carry long descriptions that would enter the return-detail part.
# Stemmed parts, with the length of each:
#   name           film (1)                      | titl (1)  | rate (1)                 avg 1
#   owner          queri (1)                     | film (1)  | film (1)                 avg 1
#   return         film (1)                      | text (1)  | rate (1)                 avg 1
#   description    film whose genr match (4)     | – (0)     | – (0)                    avg 4/3
#   arguments      filter genr (2)               | – (0)     | – (0)                    avg 2/3
#   return_detail  a motion pictur (3)           | – (0)     | general restrict (2)     avg 5/3
BM25F_SDL = """
type Query {
  "Films whose genre matches."
  films(filter: FilmFilter): [Film!]!
}

"A motion picture."
type Film {
  title: Text
  rating: Rating
}

scalar Text

input FilmFilter {
  genre: Text
}

enum Rating {
  GENERAL
  RESTRICTED
}
"""


@pytest.fixture(scope="module")
def films() -> Corpus:
    return _corpus(BM25F_SDL)


def _lexical(
    corpus: Corpus, query: str, params: StructuralParams | None = None
) -> dict[str, float]:
    return _by_coordinate(corpus, _structural(corpus, params).lexical_scores(query))


def _lexical_and_final(
    corpus: Corpus, backend: StructuralSearcher, query: str
) -> tuple[dict[str, float], dict[str, float]]:
    """A question's lexical scores and its final scores, by coordinate."""
    lexical = _by_coordinate(corpus, backend.lexical_scores(query))
    return lexical, _by_coordinate(corpus, backend.search_scores(query))


def test_the_name_part_weighs_two(films: Corpus) -> None:
    # "title": Film.title's name only; length 1 = average, so t̃f = 2.0 · 1 / 1.
    scores = _lexical(films, "title")
    assert scores["Film.title"] == pytest.approx(_idf(3, 1) * _saturate(2.0))
    assert scores["Query.films"] == scores["Film.rating"] == 0.0


def test_owner_return_and_description_parts_add_up(films: Corpus) -> None:
    # "films" → film: in all three entries, so idf = ln(1 + 0.5/3.5).
    # Query.films: name 2.0 + return 0.7 + description 0.5 / (1 − 0.75 + 0.75 · 4/(4/3)) = 0.2.
    # Film.title and Film.rating: owner 1.5 only.
    scores = _lexical(films, "films")
    assert scores["Query.films"] == pytest.approx(_idf(3, 3) * _saturate(2.0 + 0.7 + 0.2))
    assert scores["Film.title"] == pytest.approx(_idf(3, 3) * _saturate(1.5))
    assert scores["Film.rating"] == scores["Film.title"]


def test_description_and_arguments_are_length_normalised(films: Corpus) -> None:
    # "genre" → genr: Query.films's description (0.5 / 2.5) and its input-object argument
    # field `genre` (w / (1 − 0.75 + 0.75 · 2/(2/3)) = w / 2.5, w the arguments' weight).
    w = StructuralParams().arguments_weight
    scores = _lexical(films, "genre")
    assert scores["Query.films"] == pytest.approx(_idf(3, 1) * _saturate(0.2 + w / 2.5))
    # Without length normalisation (b = 0) both parts count at full weight.
    flat = StructuralParams(description_b=0.0, arguments_b=0.0)
    assert _lexical(films, "genre", flat)["Query.films"] == pytest.approx(
        _idf(3, 1) * _saturate(0.5 + w)
    )


def test_enum_values_and_type_descriptions_speak_for_the_return_type(films: Corpus) -> None:
    # "restricted": a value of the Rating enum, Film.rating's return detail (length 2, avg 5/3).
    restricted = _lexical(films, "restricted")
    assert restricted["Film.rating"] == pytest.approx(
        _idf(3, 1) * _saturate(0.3 / (0.25 + 0.75 * 2 / (5 / 3)))
    )
    # "motion": Film's own description, the return detail of Query.films (length 3).
    motion = _lexical(films, "motion")
    assert motion["Query.films"] == pytest.approx(
        _idf(3, 1) * _saturate(0.3 / (0.25 + 0.75 * 3 / (5 / 3)))
    )


def test_terms_add_and_a_zero_weight_silences_a_part(films: Corpus) -> None:
    # "rating": name (2.0) and return type (0.7) of Film.rating; "title" adds nothing to it.
    both = _lexical(films, "restricted rating")
    alone = _lexical(films, "restricted")
    assert both["Film.rating"] == pytest.approx(
        alone["Film.rating"] + _idf(3, 1) * _saturate(2.0 + 0.7)
    )
    muted = StructuralParams(name_weight=0.0)
    assert _lexical(films, "rating", muted)["Film.rating"] == pytest.approx(
        _idf(3, 1) * _saturate(0.7)
    )
    assert _lexical(films, "title", muted)["Film.title"] == 0.0
    assert set(_lexical(films, "unheard of words").values()) == {0.0}


# --- 2. Closeness to the root -----------------------------------------------------------------

# Every field is described "thing", so every entry has a lexical score and the ratio of
# search score to lexical score is the closeness of its owner type.
CHAIN_SDL = """
schema { query: Root mutation: Change }

type Root {
  "thing" shop: Shop
  "thing" node(id: ID!): Node
  "thing" media: Media
}

type Shop {
  "thing" shelf: Shelf
}

type Shelf {
  "thing" book: Book
}

type Book implements Node {
  "thing" id: ID!
  "thing" price: Int
}

interface Node {
  "thing" id: ID!
}

type Author implements Node {
  "thing" id: ID!
}

type Editor implements Node {
  "thing" id: ID!
}

union Media = Photo | Clip

type Photo {
  "thing" width: Int
}

type Clip {
  "thing" seconds: Int
}

type Change {
  "thing" addBook: AddBookPayload
}

type AddBookPayload {
  "thing" book: Book
  "thing" receipt: Int
}

type Orphan {
  "thing" lost: Int
}
"""


@pytest.fixture(scope="module")
def chain() -> Corpus:
    return _corpus(CHAIN_SDL)


def _closeness(corpus: Corpus, params: StructuralParams | None = None) -> dict[str, float]:
    """search score / lexical score per entry: closeness (with `no_sibling_evidence`)."""
    backend = _structural(corpus, params)
    lexical, final = _lexical_and_final(corpus, backend, "thing")
    assert all(value > 0 for value in lexical.values())
    return {coordinate: final[coordinate] / lexical[coordinate] for coordinate in lexical}


def _expected(cost: float) -> float:
    return 1 / (1 + ROOT_CLOSENESS * cost)


@pytest.mark.usefixtures("no_sibling_evidence")
def test_each_hop_from_the_query_root_divides_by_one_plus_0_3_per_hop(chain: Corpus) -> None:
    assert ROOT_CLOSENESS == 0.3
    closeness = _closeness(chain)
    assert closeness["Root.shop"] == pytest.approx(_expected(0))
    assert closeness["Shop.shelf"] == pytest.approx(_expected(1))
    assert closeness["Shelf.book"] == pytest.approx(_expected(2))
    assert closeness["Book.price"] == pytest.approx(_expected(3))
    # A type no root reaches counts as 20 hops away.
    assert closeness["Orphan.lost"] == pytest.approx(_expected(20))


@pytest.mark.usefixtures("no_sibling_evidence")
def test_passing_through_an_interface_or_union_costs_log2_of_one_plus_its_types(
    chain: Corpus,
) -> None:
    closeness = _closeness(chain)
    # Node has three possible types (Book, Author, Editor): 1 hop + log2(4) = 3.
    assert closeness["Author.id"] == pytest.approx(_expected(1 + math.log2(4)))
    # The interface's own fields are one hop away, like any field's owner.
    assert closeness["Node.id"] == pytest.approx(_expected(1))
    # Media is a union of two (Photo, Clip): 1 + log2(3).
    assert closeness["Photo.width"] == pytest.approx(_expected(1 + math.log2(3)))
    assert closeness["Clip.seconds"] == pytest.approx(_expected(1 + math.log2(3)))
    # Book is 3 away either way: down Shop and Shelf, or through node(id:) at 1 + log2(4).
    # Without the penalty node(id:) brings every type behind it to 1 hop.
    assert closeness["Book.price"] == pytest.approx(_expected(3))
    free = _closeness(chain, StructuralParams(abstract_penalty=0.0))
    assert free["Book.price"] == pytest.approx(_expected(1))
    assert free["Author.id"] == pytest.approx(_expected(1))


@pytest.mark.usefixtures("no_sibling_evidence")
def test_the_mutation_root_starts_three_hops_behind(chain: Corpus) -> None:
    closeness = _closeness(chain)
    assert closeness["Change.addBook"] == pytest.approx(_expected(3))
    assert closeness["AddBookPayload.receipt"] == pytest.approx(_expected(4))
    nearer = _closeness(chain, StructuralParams(other_root_cost=0.0))
    assert nearer["AddBookPayload.receipt"] == pytest.approx(_expected(1))


def test_a_write_asked_for_in_the_imperative_ranks_first(chain: Corpus) -> None:
    searcher = _structural(chain)
    written = _by_coordinate(chain, searcher.search_scores("Add book Dune to the shelf"))
    assert max(written, key=written.__getitem__) == "Change.addBook"
    # The same words, as a read: the write keeps its place behind the query root's fields.
    read = _by_coordinate(chain, searcher.search_scores("books added to the shelf: add book"))
    assert max(read, key=read.__getitem__) != "Change.addBook"
    assert read["Change.addBook"] < written["Change.addBook"]


def test_a_write_named_by_the_requests_verb_alone_ranks_first() -> None:
    corpus = _corpus(
        """
        type Query { globalFeed: Feed feedPosts(feed: ID): [Post!]! }
        type Feed { id: ID! name: String posts: [Post!]! }
        type Post { id: ID! content: String }
        type Mutation {
          post(content: String!, feed: ID): Post
          setFeedName(id: ID!, name: String!): Feed
        }
        """
    )
    searcher = _structural(corpus)
    written = _by_coordinate(corpus, searcher.search_scores('Post "gm" to the global feed.'))
    assert max(written, key=written.__getitem__) == "Mutation.post"
    read = _by_coordinate(corpus, searcher.search_scores("Posts of the global feed"))
    assert max(read, key=read.__getitem__) != "Mutation.post"


def test_a_read_asks_for_no_write_its_verb_names() -> None:
    # The schema's one write of search rebuilds the index: a read opening with "search"
    # asks for the query's search, a request with "search" as its verb for the write.
    corpus = _corpus(
        """
        type Query { pages(query: String): [Page!]! }
        type Page { id: ID! title: String }
        type Mutation { search: Boolean }
        """
    )
    searcher = _structural(corpus)
    read = _by_coordinate(corpus, searcher.search_scores('Search the pages for "vpn".'))
    assert max(read, key=read.__getitem__) != "Mutation.search"
    asked = _by_coordinate(corpus, searcher.search_scores("Please search."))
    assert max(asked, key=asked.__getitem__) == "Mutation.search"


def test_a_question_looking_for_a_quoted_text_lifts_the_fields_that_search(
    no_sibling_evidence: None,
) -> None:
    corpus = _corpus(
        """
        type Query {
          agents(active: Boolean): [User!]!
          lookup(term: String!): [User!]!
          pick(code: String!): [User!]!
        }
        type User { id: ID! name: String }
        """
    )
    searcher = _structural(corpus)

    def scores(question: str) -> dict[str, float]:
        return _by_coordinate(corpus, searcher.search_scores(question))

    # `lookup(term:)` searches by its argument's name; `pick(code:)` takes text that no word
    # of its calls a search.
    found = scores('Which users match "ste"?')
    plain = scores("Which users match ste?")
    lift = 1.0 + structural.TEXT_SEARCH_LIFT
    assert plain["Query.lookup"] > 0
    assert found["Query.lookup"] == pytest.approx(plain["Query.lookup"] * lift)
    assert found["Query.pick"] == pytest.approx(plain["Query.pick"])
    assert found["Query.agents"] == pytest.approx(plain["Query.agents"])


def test_a_question_that_follows_changes_reads_the_subscription_not_its_query_twin() -> None:
    corpus = _corpus(
        """
        type Query { buildLogs(deploymentId: ID!): [Log!]! deployment(id: ID!): Deployment }
        type Deployment { id: ID! status: String logs: [Log!]! }
        type Log { message: String timestamp: String }
        type Subscription {
          buildLogs(deploymentId: ID!): [Log!]!
          deployment(id: ID!): Deployment
        }
        """
    )
    searcher = _structural(corpus)

    def first(question: str) -> tuple[str, ...]:
        return searcher.ranking(question, 6).coordinates[:2]

    assert first("Stream the build logs of deployment 42: each message")[0] == (
        "Subscription.buildLogs"
    )
    assert first("The build logs of deployment 42: each message")[0] == "Query.buildLogs"
    # The way in to what a question follows is the subscription, not the query beside it.
    assert first("Watch deployment 42's status") == ("Subscription.deployment", "Deployment.status")
    assert first("deployment 42's status") == ("Query.deployment", "Deployment.status")


def test_a_request_in_a_verb_the_writes_do_not_use_asks_in_theirs() -> None:
    corpus = _corpus(
        """
        type Query { media(id: ID!): Media }
        type Media { id: ID! title: String }
        type Mutation {
          publishMedia(id: ID!): Media
          deleteMedia(id: ID!): Media
          updateMediaTitle(id: ID!, title: String!): Media
        }
        """
    )
    _assert_ranked_first(
        corpus,
        [
            ("Remove this media item.", "Mutation.deleteMedia"),
            ("Change the title of this media item.", "Mutation.updateMediaTitle"),
        ],
    )


def _assert_ranked_first(corpus: Corpus, asked_for: list[tuple[str, str]]) -> None:
    """Each request's best-scoring entry is the write it asks for."""
    searcher = _structural(corpus)
    for asked, write in asked_for:
        scores = _by_coordinate(corpus, searcher.search_scores(asked))
        assert max(scores, key=scores.__getitem__) == write, asked


def test_a_write_grouped_under_a_namespace_is_asked_for_as_one_on_the_root() -> None:
    corpus = _corpus(
        """
        type Query { forms: FormQuery }
        type FormQuery { getForm(id: ID!): Form  listForms(limit: Int): [Form!]! }
        type Form { id: ID! name: String versions: [Form!]! }
        type Mutation { forms: FormMutation }
        type FormMutation { deleteForm(id: ID!): Form  renameForm(id: ID!, name: String!): Form }
        """
    )
    _assert_ranked_first(
        corpus,
        [
            ("Delete the survey form with all its versions.", "FormMutation.deleteForm"),
            ("Rename this form to Intake.", "FormMutation.renameForm"),
        ],
    )


WRITE_OBJECTS_SDL = """
type Query {{ shop: Shop }}
type Shop {{ id: ID! name: String }}
type Template {{ id: ID! subject: String body: String }}
type TemplatePayload {{ template: Template }}
input TemplateInput {{ content: String }}
type Mutation {{
  reviseTemplate(id: ID!, input: TemplateInput): TemplatePayload
  reviseShop(id: ID!, input: TemplateInput): {shop}
}}
"""


WRITES = ("reviseTemplate", "reviseShop")


def test_a_write_gets_a_share_of_what_it_changes() -> None:
    asked = "Shorten the subject line of the confirmation email."

    def lent(returned: str) -> tuple[float, float]:
        """What the objects they return add to `reviseTemplate` and to `reviseShop`."""
        corpus = _corpus(WRITE_OBJECTS_SDL.format(shop=returned))
        on = _by_coordinate(corpus, _structural(corpus).search_scores(asked))
        no = _structural(corpus, StructuralParams(write_object_evidence=0.0))
        off = _by_coordinate(corpus, no.search_scores(asked))
        # Neither write's own words say a word of the request.
        assert off["Mutation.reviseTemplate"] == off["Mutation.reviseShop"]
        template, shop = (on[f"Mutation.{w}"] - off[f"Mutation.{w}"] for w in WRITES)
        return template, shop

    # "subject" is a field of the template only `reviseTemplate` returns (in its payload).
    template, shop = lent("Shop")
    assert template > 2 * shop
    # Returned by both writes, the template's evidence is divided between them.
    assert lent("TemplatePayload") == pytest.approx((template / 2, template / 2))


def test_a_write_returning_no_object_changes_what_its_name_names_beside_its_verb() -> None:
    # No write returns an object: each changes the type its name names after its verb, or
    # before it, a plural read as its singular.
    corpus = _corpus(
        """
        type Query { shop: Shop  template(id: ID!): Template }
        type Shop { id: ID! name: String }
        type Template { id: ID! subject: String body: String }
        type Mutation {
          setTemplate(id: ID!, content: String): Boolean
          templatesReset(ids: [ID!]!): Boolean
          setShop(id: ID!, name: String): Boolean
        }
        """
    )
    asked = "Shorten the subject line of the confirmation email."
    on = _by_coordinate(corpus, _structural(corpus).search_scores(asked))
    no = _structural(corpus, StructuralParams(write_object_evidence=0.0))
    off = _by_coordinate(corpus, no.search_scores(asked))
    writes = ("setTemplate", "templatesReset", "setShop")
    lent = {w: on[f"Mutation.{w}"] - off[f"Mutation.{w}"] for w in writes}
    # The template's `subject` lends to both writes of templates alike, not to the shop's.
    assert lent["templatesReset"] == pytest.approx(lent["setTemplate"])
    assert lent["setTemplate"] > 2 * lent["setShop"] > 0


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_request_to_change_something_weighs_the_mutation_roots_fields(chain: Corpus) -> None:
    # Every field says "thing"; as a request, the write's own words need not be named. (What
    # the write returns lends it more: `test_a_write_gets_a_share_of_what_it_changes`.)
    searcher = _structural(chain, StructuralParams(write_object_evidence=0.0))
    asked = _by_coordinate(chain, searcher.search_scores("Shelve this thing."))
    keywords = _by_coordinate(chain, searcher.search_scores("thing shelved"))
    read = _by_coordinate(chain, searcher.search_scores("which thing is shelved"))
    assert asked["Change.addBook"] == pytest.approx(2 * keywords["Change.addBook"])
    # A question opening as a read asks for no write: the writes weigh as much less.
    assert read["Change.addBook"] == pytest.approx(keywords["Change.addBook"] / 2)
    assert asked["Book.price"] == pytest.approx(keywords["Book.price"])
    assert read["Book.price"] == pytest.approx(keywords["Book.price"])
    off = _structural(chain, StructuralParams(write_weight=0.0, write_object_evidence=0.0))
    for question in ("Shelve this thing.", "which thing is shelved"):
        unweighted = _by_coordinate(chain, off.search_scores(question))
        assert unweighted["Change.addBook"] == pytest.approx(keywords["Change.addBook"])


GENERIC_LOOKUP_SDL = """
type Query {
  node(id: ID!): Node
  repository(name: String!): Repository
}

interface Node { id: ID! }

type Repository implements Node {
  id: ID!
  stars: Int
}

type Issue implements Node { id: ID! }
type User implements Node { id: ID! }
"""


def test_a_generic_node_lookup_does_not_shadow_the_real_entry_point() -> None:
    # node(id:) reaches Repository in 1 + log2(4) = 3, repository(name:) in 1: the hit's
    # path goes through Query.repository.
    corpus = _corpus(GENERIC_LOOKUP_SDL)
    hits = _structural(corpus).search("stars", 2)
    assert [hit.coordinate for hit in hits] == ["Query.repository", "Repository.stars"]
    assert hits[1].paths_to_root[0] == ("Query.repository", "Repository.stars")


# --- 3. Sibling evidence ----------------------------------------------------------------------

# Field names shared by types: `name` by two (Repo, User), every other name by one, so the
# commonness of `name` is log(1+2)/log(1+2) = 1 and of any other name log(2)/log(3).
SIBLING_SDL = """
type Query {
  repo: Repo
  user: User
}

type Repo {
  name: String
  stars: Int
}

type User {
  name: String
  login: String
}
"""


def test_siblings_get_a_fifth_of_their_owner_best_score_scaled_by_name_commonness(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    corpus = _corpus(SIBLING_SDL)
    backend = _structural(corpus)
    lexical, final = _lexical_and_final(corpus, backend, "stars")
    # Only Repo.stars matches; Repo is one hop from the root.
    best = lexical["Repo.stars"] * _expected(1)
    assert best > 0
    assert final["Repo.name"] == pytest.approx(0.2 * best * 1.0)
    assert final["Repo.stars"] == pytest.approx(best + 0.2 * best * math.log(2) / math.log(3))
    # Another type's fields get nothing, whatever their name.
    assert final["User.name"] == final["User.login"] == 0.0
    # The field that matched still leads, and its sibling becomes a hit only through the share.
    ranked = [hit.coordinate for hit in backend.search("stars", 10)]
    assert ranked.index("Repo.stars") < ranked.index("Repo.name")
    monkeypatch.setattr(structural, "SIBLING_EVIDENCE", 0.0)
    alone = _structural(corpus).search("stars", 10)
    assert "Repo.name" not in [hit.coordinate for hit in alone]


# `name` is shared by User and Team, `login` by User only: commonness 1 and log(2)/log(3).
INWARD_SDL = """
type Query {
  repo: Repo
}

type Repo {
  stars: Int
  maintainer: User
}

type User {
  name: String
  login: String
  team: Team
}

type Team {
  name: String
}
"""


def test_leaves_get_three_tenths_of_the_best_field_into_their_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    corpus = _corpus(INWARD_SDL)
    backend = _structural(corpus)
    lexical, final = _lexical_and_final(corpus, backend, "maintainer")
    # Only Repo.maintainer matches, one hop from the root; User has no match of its own.
    into = lexical["Repo.maintainer"] * _expected(1)
    assert into > 0
    assert final["User.name"] == pytest.approx(0.3 * into)
    assert final["User.login"] == pytest.approx(0.3 * into * math.log(2) / math.log(3))
    # Not a field leading on (the way in is no evidence for the next type), nor a leaf of a
    # type whose way in scored nothing.
    assert final["User.team"] == final["Team.name"] == 0.0
    monkeypatch.setattr(structural, "INWARD_EVIDENCE", 0.0)
    assert _by_coordinate(corpus, backend.search_scores("maintainer"))["User.login"] == 0.0


# --- 4. Paths as hits -------------------------------------------------------------------------

# Two ways into Person, equally long; `viewer` is declared first, so it is the static route.
PATHS_SDL = """
type Query {
  viewer: Person
  "The account that owns the repository."
  owner: Person
}

type Person {
  email: String
  handle: String
}
"""


@pytest.fixture(scope="module")
def people() -> Corpus:
    return _corpus(PATHS_SDL)


def _coordinates(hits: list[SearchHit]) -> list[str]:
    return [hit.coordinate for hit in hits]


@pytest.mark.usefixtures("no_sibling_evidence")
def test_path_fields_precede_the_hit_with_its_score_and_count_towards_k(people: Corpus) -> None:
    backend = _structural(people, StructuralParams())
    email = _by_coordinate(people, backend.search_scores("email"))["Person.email"]
    hits = backend.search("email", 10)
    assert _coordinates(hits) == ["Query.viewer", "Person.email"]
    assert [hit.score for hit in hits] == pytest.approx([email, email])
    assert [hit.rank for hit in hits] == [1, 2]
    # k counts path fields: one hit is the first field of the path alone.
    assert _coordinates(backend.search("email", 1)) == ["Query.viewer"]


@pytest.mark.usefixtures("no_sibling_evidence")
def test_the_route_goes_through_fields_the_question_is_about(people: Corpus) -> None:
    # "account" matches Query.owner's description weakly; Person.email's name strongly. The
    # hop through owner then costs 1 − 0.5 · (its score / the best score) < 1, so owner leads to
    # the hit, listed with the hit's score rather than its own lower one.
    backend = _structural(people, StructuralParams())
    scores = _by_coordinate(people, backend.search_scores("email account"))
    assert 0 < scores["Query.owner"] < scores["Person.email"]
    hits = backend.search("email account", 10)
    assert _coordinates(hits) == ["Query.owner", "Person.email"]
    assert hits[0].score == pytest.approx(scores["Person.email"])
    assert hits[1].paths_to_root[0] == ("Query.owner", "Person.email")
    # Without relevance every hop costs 1 and the static route stays.
    static = _structural(people, StructuralParams(path_relevance=0.0))
    assert _coordinates(static.search("email account", 2)) == ["Query.viewer", "Person.email"]


_EDGES = ["64 ones", "65 ones", "64 ones after zeros", "63 ones", "all tie", "none"]


@pytest.mark.parametrize("k", [1, 3, 16, 40, 500])
@pytest.mark.parametrize("case", ["random", *_EDGES])
def test_the_best_entries_come_in_chunks_that_together_are_one_stable_sort(
    k: int, case: str
) -> None:
    """`best_first` sorts only the best few first; read whole, its chunks must be what a
    stable sort of every entry scoring more than nothing gives (entry order among ties),
    also where as many entries score something as the first chunk holds, one more or one
    fewer (its threshold is taken over every entry)."""
    import numpy as np

    from schemanav.retrieval.best_first import best_first

    generator = np.random.default_rng(k)
    # Few distinct values, so ties straddle the first chunk's threshold; zeros and
    # negatives are never hits.
    scores = {
        "random": generator.integers(-3, 9, size=900).astype(float) / 4,
        "64 ones": np.r_[np.ones(64), -np.ones(30)],
        "65 ones": np.r_[np.zeros(3), np.ones(65)],
        "64 ones after zeros": np.r_[np.zeros(200), np.ones(64)],
        "63 ones": np.r_[np.ones(63), np.zeros(200)],
        "all tie": np.full(300, 0.5),
        "none": np.zeros(300),
    }[case]
    positive = np.flatnonzero(scores > 0.0)
    expected = positive[np.argsort(-scores[positive], kind="stable")].tolist()
    chunks = list(best_first(scores, k))
    assert [p for positions, _ in chunks for p in positions] == expected
    assert [v for _, values in chunks for v in values] == scores[expected].tolist()
    # The rest is sorted apart from the best, when there is a rest.
    assert len(chunks) == (2 if len(positive) > max(4 * k, 64) else 1)


def test_path_fields_cost_their_own_tokens_in_the_chosen_rendering(people: Corpus) -> None:
    hits = _structural(people, fmt=Format.GLOSS).search("email", 2)
    tokens = dict(zip(people.coordinates, people.token_counts(Format.GLOSS), strict=True))
    texts = dict(zip(people.coordinates, people.texts(Format.GLOSS), strict=True))
    assert _coordinates(hits) == ["Query.viewer", "Person.email"]
    for hit in hits:
        assert hit.text == texts[hit.coordinate]
        assert hit.tokens == tokens[hit.coordinate]
    # GLOSS entries are sentences: their tokens are not those of the bare coordinate.
    raw = dict(zip(people.coordinates, people.token_counts(Format.RAW), strict=True))
    assert all(hit.tokens > raw[hit.coordinate] for hit in hits)


# --- the index cache --------------------------------------------------------------------------

QUESTIONS = ("movies with a high rating", "who directed a film", "actors born in a year", "x")


class _Warnings(SilentEvents):
    def __init__(self) -> None:
        self.lines: list[str] = []

    def warning(self, message: str) -> None:
        self.lines.append(message)


@pytest.fixture(scope="module")
def movies() -> Corpus:
    return _corpus(bundled_path("moviedb.graphqls").read_text())


def _cached(
    corpus: Corpus, cache: Path, params: StructuralParams | None = None
) -> tuple[StructuralSearcher, list[str]]:
    events = _Warnings()
    backend = StructuralBackend(
        Format.DOT_PLUS_GLOSS, params=params, cache_dir=cache, events=events
    )
    return backend.index(corpus), events.lines


def _answers(searcher: StructuralSearcher) -> list[list[SearchHit]]:
    return [searcher.search(question, 20) for question in QUESTIONS]


def _only_file(cache: Path) -> Path:
    (path,) = (cache / "structural").iterdir()
    return path


def test_a_cached_index_is_read_back_and_ranks_exactly_as_a_fresh_one(
    movies: Corpus, tmp_path: Path
) -> None:
    fresh = _answers(StructuralBackend(Format.DOT_PLUS_GLOSS).index(movies))
    written, warnings = _cached(movies, tmp_path)
    path = _only_file(tmp_path)
    stamp = path.stat().st_mtime_ns
    read, again = _cached(movies, tmp_path)
    assert warnings == again == []
    assert path.stat().st_mtime_ns == stamp  # read, not rebuilt and rewritten
    assert _answers(written) == _answers(read) == fresh


@pytest.mark.parametrize("damage", ["flip a byte", "valid checksum, bad arrays", "truncate"])
def test_a_damaged_index_cache_is_rebuilt_with_a_notice(
    movies: Corpus, tmp_path: Path, damage: str
) -> None:
    fresh = _answers(StructuralBackend(Format.DOT_PLUS_GLOSS).index(movies))
    _cached(movies, tmp_path)
    path = _only_file(tmp_path)
    data = path.read_bytes()
    if damage == "flip a byte":
        path.write_bytes(data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:])
        reason = "payload checksum does not match"
    elif damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
        reason = "payload is"
    else:
        header, payload = read_checked(path)
        head, _, arrays = payload.partition(b"\n")
        header = {k: v for k, v in header.items() if not k.startswith("payload_")}
        write_checked(path, header, head + b"\n" + arrays[:-8])
        reason = "does not fit the payload"
    searcher, warnings = _cached(movies, tmp_path)
    assert len(warnings) == 1
    assert warnings[0].startswith(f"the structural index cache {path} is not usable (")
    assert reason in warnings[0] and warnings[0].endswith("; rebuilding it")
    assert _answers(searcher) == fresh
    assert _cached(movies, tmp_path)[1] == []  # rewritten whole


def test_an_index_cached_for_other_knobs_or_another_corpus_is_not_used(
    movies: Corpus, tmp_path: Path
) -> None:
    other = StructuralParams(name_weight=1.0)
    _cached(movies, tmp_path)
    searcher, warnings = _cached(movies, tmp_path, other)
    assert warnings == []
    assert len(list((tmp_path / "structural").iterdir())) == 2
    expected = _answers(StructuralBackend(Format.DOT_PLUS_GLOSS, params=other).index(movies))
    assert _answers(searcher) == expected
    # A file for other knobs under this one's name (a hand copy) is refused by its header.
    default = StructuralBackend(Format.DOT_PLUS_GLOSS, cache_dir=tmp_path)
    target = default.cache_path(movies)
    assert target is not None
    smaller = _corpus(BM25F_SDL)
    source = StructuralBackend(Format.DOT_PLUS_GLOSS, cache_dir=tmp_path).cache_path(smaller)
    _cached(smaller, tmp_path)
    assert source is not None
    target.write_bytes(source.read_bytes())
    searcher, warnings = _cached(movies, tmp_path)
    assert warnings == [
        f"the structural index cache {target} is not usable "
        "(written for another corpus or other knobs); rebuilding it"
    ]
    assert _answers(searcher) == _answers(StructuralBackend(Format.DOT_PLUS_GLOSS).index(movies))


@pytest.mark.slow
def test_a_warm_search_loads_only_what_it_uses(tmp_path: Path) -> None:
    """With the caches filled, a structural search parses no schema, counts no tokens and
    loads no other backend (the registry loads each on first use)."""
    code = (
        "import sys\n"
        "from schemanav.navigator import Navigator\n"
        f"hits = Navigator.open(cache_dir={str(tmp_path)!r}).search('movies by rating').hits\n"
        "assert hits, 'no hits'\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )

    def loaded() -> set[str]:
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return set(run.stdout.split())

    cold, warm = loaded(), loaded()
    assert {"graphql", "tiktoken"} <= cold
    assert "schemanav.retrieval.structural" in warm
    unused = {"graphql", "tiktoken", "httpx", "ollama"} | {
        f"schemanav.retrieval.{name}" for name in ("bm25", "embedding", "hybrid", "slicing")
    }
    assert not unused & warm


# --- 5 and 6. Short forms and one object or many --------------------------------------------

LOOKUP_SDL = """
type Query {
  repository(name: String!): Repository
  repositories: [Repository!]!
}

type Repository {
  name: String
}
"""


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_read_naming_a_type_once_lifts_its_lookup_by_half() -> None:
    corpus = _corpus(LOOKUP_SDL)
    lifted = _structural(corpus, StructuralParams())
    plain = _structural(corpus, StructuralParams(singular_lookups=0.0))
    for question, lift in (("the repository name", 1.5), ("Rename the repository.", 1.0)):
        ratio = _by_coordinate(corpus, lifted.search_scores(question))
        base = _by_coordinate(corpus, plain.search_scores(question))
        assert ratio["Query.repository"] == pytest.approx(lift * base["Query.repository"])
        assert ratio["Query.repositories"] == pytest.approx(base["Query.repositories"])


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_literal_beside_a_type_named_once_doubles_its_lookup() -> None:
    corpus = _corpus(LOOKUP_SDL)
    alone = StructuralParams(singular_lookups=0.0)
    plain = _by_coordinate(corpus, _structural(corpus, alone).search_scores("the repository"))
    named = _by_coordinate(corpus, _structural(corpus, alone).search_scores("the repository a/b"))
    assert named["Query.repository"] == pytest.approx(2.0 * plain["Query.repository"])
    assert named["Query.repositories"] == pytest.approx(plain["Query.repositories"])
    off = StructuralParams(literal_lookups=0.0)
    unlifted = _structural(corpus, off).search_scores("the repository a/b")
    assert _by_coordinate(corpus, unlifted)["Query.repository"] == plain["Query.repository"]


RESULT_UNION_SDL = """
type Query {
  repositoryOrError(name: String!): RepositoryOrError
  ownerOrRepository(name: String!): OwnerOrRepository
  repositories: [Repository!]!
  owners: [Owner!]!
}
type Mutation { renameRepository(name: String!): RenameResult }
union RepositoryOrError = Repository | RepositoryNotFound
union OwnerOrRepository = Owner | Repository
union RenameResult = Repository | NameTaken
type Repository { name: String }
type Owner { login: String }
type RepositoryNotFound { message: String }
type NameTaken { message: String }
"""


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_union_of_one_object_and_its_failures_is_a_lookup_of_that_object() -> None:
    corpus = _corpus(RESULT_UNION_SDL)  # one result union (tests/test_corpus_outcomes.py)
    searcher = _structural(corpus, StructuralParams(singular_lookups=0.0))
    plain = _by_coordinate(corpus, searcher.search_scores("the repository"))
    named = _by_coordinate(corpus, searcher.search_scores("the repository a/b"))
    assert named["Query.repositoryOrError"] == pytest.approx(2.0 * plain["Query.repositoryOrError"])
    for unlifted in ("Query.ownerOrRepository", "Mutation.renameRepository"):
        assert named[unlifted] == pytest.approx(plain[unlifted])


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_plural_the_stemmer_keeps_still_finds_its_types_words() -> None:
    # Snowball keeps "menus" (as it must "bonus"); the type named in the plural gives "menu".
    corpus = _corpus("type Query { navigation: [PbMenu!]! } type PbMenu { title: String }")
    scores = _structural(corpus, StructuralParams()).search_scores("which menus are there")
    assert _by_coordinate(corpus, scores)["PbMenu.title"] > 0


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_type_named_only_in_the_plural_lowers_its_lookups() -> None:
    corpus = _corpus(LOOKUP_SDL)
    alone = StructuralParams()
    searcher = _structural(corpus, alone)
    one = _by_coordinate(corpus, searcher.search_scores("the repository"))
    many = _by_coordinate(corpus, searcher.search_scores("the repositories"))
    off = StructuralParams(plural_lookups=0.0)
    kept = _by_coordinate(corpus, _structural(corpus, off).search_scores("the repositories"))
    assert many["Query.repository"] == pytest.approx(0.7 * kept["Query.repository"])
    assert many["Query.repositories"] == kept["Query.repositories"]
    assert one["Query.repository"] > 0


def test_the_words_inside_a_path_literal_score_nothing() -> None:
    corpus = _corpus(LOOKUP_SDL)
    searcher = _structural(corpus, StructuralParams())
    # `repositories/repository` repeats the word beside it: a value, like `a/b`.
    echoed = searcher.search_scores("the repository repositories/repository")
    assert echoed.tolist() == searcher.search_scores("the repository a/b").tolist()
    # Read as words, the same words would score.
    words = searcher.search_scores("the repository repositories repository")
    assert words.tolist() != echoed.tolist()


def test_a_clipped_word_the_schema_lacks_scores_as_the_type_name_it_clips() -> None:
    corpus = _corpus(LOOKUP_SDL)
    searcher = _structural(corpus)
    assert not searcher.lexical_scores("repo").any()  # no field says "repo"
    clipped = searcher.search_scores("repo")
    assert clipped.any()
    assert list(clipped) == list(searcher.search_scores("repository"))


SCOPED_SDL = """
type Query {
  project(path: String!): Project
  issue(id: ID!): Issue
}

type Project {
  issues: [Issue!]!
  name: String
}

type Issue {
  title: String
}
"""


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_plural_beside_a_named_object_doubles_that_objects_lists_into_it() -> None:
    corpus = _corpus(SCOPED_SDL)
    alone = StructuralParams(literal_lookups=0.0)
    unscoped = StructuralParams(literal_lookups=0.0, scoped_lists=0.0)
    question = "issues of project a/b"
    lifted = _by_coordinate(corpus, _structural(corpus, alone).search_scores(question))
    plain = _by_coordinate(corpus, _structural(corpus, unscoped).search_scores(question))
    assert lifted["Project.issues"] == pytest.approx(2.0 * plain["Project.issues"])
    assert lifted["Query.issue"] == pytest.approx(plain["Query.issue"])
    # Without a literal, no object is named: nothing is scoped.
    free = "issues of the project"
    assert list(_structural(corpus, alone).search_scores(free)) == list(
        _structural(corpus, unscoped).search_scores(free)
    )


# --- 7. Time, the asker, argument descriptions ---------------------------------------------

TIME_SDL = """
type Query {
  repo: Repo
}

type Repo {
  stars: Int
  createdAt: DateTime
}

"An ISO-8601 encoded UTC date string."
scalar DateTime
"""


def test_a_question_in_time_gives_a_types_timestamps_a_larger_share() -> None:
    corpus = _corpus(TIME_SDL)
    backend = _structural(corpus)
    # Only Repo.stars matches; each field name is on one type, so commonness is 1.
    best = _by_coordinate(corpus, backend.lexical_scores("stars"))["Repo.stars"] * _expected(1)
    timeless = _by_coordinate(corpus, backend.search_scores("stars"))
    assert timeless["Repo.createdAt"] == pytest.approx(0.2 * best)
    # "this week": the timestamp gets time_evidence (0.3) · best · commonness more.
    in_time = _by_coordinate(corpus, backend.search_scores("stars this week"))
    assert in_time["Repo.createdAt"] == pytest.approx((0.2 + 0.3) * best)
    assert in_time["Repo.stars"] == timeless["Repo.stars"]


CALLER_SDL = """
type Query {
  "The currently authenticated user."
  viewer: User
  "Settings for the current user."
  settings: Settings
  user(login: String!): User
  repos: [Repo]
}

type User {
  login: String
  email: String
  repos: [Repo]
}

type Settings {
  theme: String
}

type Repo {
  name: String
}
"""


def test_a_question_about_its_asker_goes_through_the_callers_root_field() -> None:
    corpus = _corpus(CALLER_SDL)
    backend = _structural(corpus, max_paths=0)
    # Of the two root fields "for the current user", the caller is the larger type's.
    mine = [hit.coordinate for hit in backend.search("my repos", 3)]
    assert mine[:2] == ["Query.viewer", "User.repos"]
    # Without the first person the caller's fields are no closer than the root's list.
    theirs = [hit.coordinate for hit in backend.search("the repos", 3)]
    assert theirs[0] == "Query.repos"
    off = _structural(corpus, StructuralParams(caller_weight=0.0), max_paths=0)
    assert off.search("my repos", 3)[0].coordinate == "Query.repos"


ARGUMENT_TEXT_SDL = """
type Query {
  refs(
    "A ref name prefix like `refs/heads/` or `refs/tags/`."
    prefix: String
  ): [Ref]
  branches: [Ref]
}

type Ref {
  name: String
}
"""


def test_an_arguments_description_is_text_the_field_answers_to() -> None:
    corpus = _corpus(ARGUMENT_TEXT_SDL)
    scores = _lexical(corpus, "tags")
    assert scores["Query.refs"] > 0.0
    assert scores["Query.branches"] == scores["Ref.name"] == 0.0
    silent = StructuralParams(argument_description_weight=0.0)
    assert set(_lexical(corpus, "tags", silent).values()) == {0.0}


PAGED_SDL = """
type Query {
  customer(id: ID!): Customer
  customers(options: CustomerListOptions): CustomerList!
}

type CustomerList {
  items: [Customer!]!
  totalItems: Int!
}

type Customer {
  id: ID!
  email: String
}

input CustomerListOptions {
  skip: Int
  take: Int
}
"""


@pytest.mark.usefixtures("no_sibling_evidence")
def test_a_list_page_is_a_set_of_its_items_as_a_connection_is_of_its_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    corpus = _corpus(PAGED_SDL)
    searcher = _structural(corpus)
    question = "list the customers and their emails"
    many = _by_coordinate(corpus, searcher.search_scores(question))
    monkeypatch.setattr(type_ways, "ROOT_LISTS", 0.0)
    plain = _by_coordinate(corpus, searcher.search_scores(question))
    # `customers` returns a page of customers: the query root's list of them, doubled for a
    # question about the set, as a connection of them would be.
    assert many["Query.customers"] == pytest.approx(2.0 * plain["Query.customers"])
    assert many["Query.customers"] > many["Query.customer"]


SET_SDL = """
type Query {
  project(fullPath: String!): Project
  mergeRequest(id: MergeRequestID!): MergeRequest
  currentUser: User
}

scalar MergeRequestID

type Project {
  name: String
  mergeRequests: MergeRequestConnection
}

type User {
  name: String
  recentMergeRequests: MergeRequestConnection
}

type MergeRequestConnection {
  nodes: [MergeRequest]
}

type MergeRequest {
  project: Project!
  author: User
  title: String
  conflicts: Boolean
}
"""


def test_each_entry_knows_its_part_on_a_way_to_a_set() -> None:
    corpus = _corpus(SET_SDL)
    state = _structural(corpus).state
    kinds = dict(zip(corpus.coordinates, state.set_route.tolist(), strict=True))
    # Every merge request has its one project (non-null): the project's list is their home;
    # the author is nullable, so a user's list is only a selection of them.
    assert kinds["Project.mergeRequests"] == SET_ROUTE_HOME
    assert kinds["User.recentMergeRequests"] == SET_ROUTE_NONE
    assert kinds["MergeRequestConnection.nodes"] == SET_ROUTE_PLUMBING
    assert kinds["Query.mergeRequest"] == SET_ROUTE_BY_IDENTIFIER
    assert kinds["Query.project"] == SET_ROUTE_NONE  # a lookup by a path, not an identifier


def test_a_set_is_reached_through_its_home_not_a_lookup_by_identifier() -> None:
    corpus = _corpus(SET_SDL)
    searcher = _structural(corpus, max_paths=0)
    ranked = [hit.coordinate for hit in searcher.search("merge requests with conflicts", 4)]
    assert ranked == [
        "Query.project",
        "Project.mergeRequests",
        "MergeRequestConnection.nodes",
        "MergeRequest.conflicts",
    ]
    # One merge request keeps its lookup, and so does a set without the detours.
    one = searcher.search("the merge request with conflicts", 2)
    assert one[0].coordinate == "Query.mergeRequest"
    flat = StructuralParams(set_wrong_way_hops=0.0, set_home_hops=0.0, set_plumbing_hops=0.0)
    plain = _structural(corpus, flat, max_paths=0).search("merge requests with conflicts", 2)
    assert plain[0].coordinate == "Query.mergeRequest"


def test_a_connections_way_to_its_nodes_is_read_by_its_shape_not_its_name() -> None:
    edges_only = SET_SDL.replace(
        "type MergeRequestConnection {\n  nodes: [MergeRequest]\n}",
        "type MergeRequestConnection {\n  edges: [MergeRequestEdge]\n"
        "  mergeRequests: [MergeRequest]\n}\n"
        "type MergeRequestEdge {\n  node: MergeRequest\n}",
    )
    corpus = _corpus(edges_only)
    state = _structural(corpus).state
    kinds = dict(zip(corpus.coordinates, state.set_route.tolist(), strict=True))
    sets = dict(zip(corpus.coordinates, state.set_target.tolist(), strict=True))
    plumbing = ("MergeRequestConnection.edges", "MergeRequestEdge.node")
    assert {kinds[c] for c in (*plumbing, "MergeRequestConnection.mergeRequests")} == {
        SET_ROUTE_PLUMBING
    }
    # The edges hop is on the way to the set of merge requests, as the edge's node is.
    assert state.reached[sets["MergeRequestConnection.edges"]] == "MergeRequest"
    assert sets["MergeRequestEdge.node"] == sets["MergeRequestConnection.edges"]


PATH_SCOPED_SDL = """
type Query {
  group(fullPath: ID!): Group
  runners(paused: Boolean): RunnerConnection
}

type Group {
  name: String
  runners(paused: Boolean): RunnerConnection
}

type RunnerConnection {
  nodes: [Runner]
}

type Runner {
  group: Group!
  paused: Boolean
}
"""


def test_a_set_of_an_object_named_by_its_path_is_not_everyones() -> None:
    corpus = _corpus(PATH_SCOPED_SDL)
    searcher = _structural(corpus, max_paths=0)
    everyone = [hit.coordinate for hit in searcher.search("paused runners", 2)]
    assert everyone == ["Query.runners", "RunnerConnection.nodes"]
    # "of group/project": that group's runners, not the root's list of every runner.
    scoped = [hit.coordinate for hit in searcher.search("paused runners of group/project", 2)]
    assert scoped == ["Query.group", "Group.runners"]
    # …and the root's list of everyone's is a wrong way in for it: two hops more.
    root = corpus.coordinates.index("Query.runners")
    scoped_detours = searcher.set_detours("paused runners of group/project")
    everyones_detours = searcher.set_detours("paused runners")
    assert scoped_detours is not None and everyones_detours is not None
    assert scoped_detours[root] == pytest.approx(2.0)
    assert everyones_detours[root] == 0.0


@pytest.mark.parametrize(
    "query", ["title", "film title title", "genre of a restricted film", "nothing known", ""]
)
def test_lexical_scores_are_the_terms_rows_added_one_by_one(films: Corpus, query: str) -> None:
    """`lexical_scores` sums the question's term rows in one call; each entry's score must be
    the same float as adding the rows one after the other (a term asked twice, twice)."""
    import numpy as np

    searcher = _structural(films)
    expected = np.zeros(searcher.state.size)
    for term in searcher.stem(query):
        if (row := searcher._term_rows.get(term)) is not None:
            start, end = row
            expected[searcher.state.positions[start:end]] += searcher.state.contributions[start:end]
    scores = searcher.lexical_scores(query)
    assert scores.dtype == np.float64 and scores.tolist() == expected.tolist()


def test_a_write_request_ranks_its_writes_higher_for_a_large_slice() -> None:
    """`Ranking.wide`: the same entries with the writes weighed `WIDE_WRITE_WEIGHT` more, for
    a request only; the writes rise in it, and the plain ranking is as before."""
    corpus = _corpus(
        """
        type Query { post(id: ID!): Post  posts: [Post!]! }
        type Post { id: ID! text: String likes: Int author: String reactions: [String!] }
        type Mutation {
          "Reacts to a post."
          addReaction(post: ID!, kind: String): Boolean
          editPost(id: ID!): Post
        }
        """
    )
    searcher = _structural(corpus, max_paths=0)
    asked = searcher.ranking("Like this post, please react.", 20)
    assert asked.wide is not None and sorted(asked.wide) == sorted(asked.entries or ())
    coordinates = corpus.coordinates
    plain = [coordinates[e] for e in asked.entries or ()]
    wide = [coordinates[e] for e in asked.wide]
    assert wide.index("Mutation.addReaction") < plain.index("Mutation.addReaction")
    assert plain.index("Mutation.addReaction") > plain.index("Post.text")
    assert searcher.ranking("post likes and authors", 20).wide is None
