"""Paths to root and `schemanav define`, on the Movie DB and on the real GitHub schema."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from schemanav.cli import app
from schemanav.corpus import Corpus, build_corpus
from schemanav.graph import SchemaGraph, ShortestPaths
from schemanav.schema import LoadedSchema
from schemanav.schema.loading import schema_from_sdl


def paths(corpus: Corpus, coordinate: str, limit: int = 3) -> tuple[tuple[str, ...], ...]:
    return SchemaGraph(corpus).paths_to_root(corpus.coordinates.index(coordinate), limit)


def assert_walkable(corpus: Corpus, path: tuple[str, ...]) -> None:
    """Each step's owner is the previous field's return type or one of its possible types."""
    by_coordinate = {entry.coordinate: entry for entry in corpus.entries}
    first = by_coordinate[path[0]]
    assert first.owner in (corpus.query_root, corpus.mutation_root, corpus.subscription_root)
    for before, after in itertools.pairwise(path):
        target = by_coordinate[before].named_return_type
        owner = by_coordinate[after].owner
        assert owner == target or owner in corpus.possible_types.get(target, ()), (before, after)


def test_a_root_field_is_its_own_path(moviedb_corpus: Corpus) -> None:
    assert paths(moviedb_corpus, "Query.movies") == (("Query.movies",),)
    assert paths(moviedb_corpus, "Mutation.createMovie") == (("Mutation.createMovie",),)


def test_paths_are_root_first_cheapest_first_and_capped(moviedb_corpus: Corpus) -> None:
    found = paths(moviedb_corpus, "Movie.title", limit=2)
    assert found == (("Query.movie", "Movie.title"), ("Query.movies", "Movie.title"))
    assert paths(moviedb_corpus, "Movie.title", limit=0) == ()


def test_a_type_reachable_only_through_a_union(moviedb_corpus: Corpus) -> None:
    # Studio is returned by no field: only the SearchResult union (and Node) lead to it.
    found = paths(moviedb_corpus, "Studio.foundedYear")
    assert found[0] == ("Query.search", "Studio.foundedYear")
    for path in found:
        assert_walkable(moviedb_corpus, path)


def test_a_type_reachable_only_through_an_interface(moviedb_corpus: Corpus) -> None:
    # CrewCredit is returned by no field: Person.credits returns the Credit interface.
    assert paths(moviedb_corpus, "CrewCredit.job")[0] == (
        "Query.person",
        "Person.credits",
        "CrewCredit.job",
    )


def test_ways_through_interfaces_pay_each_interface_its_own_fragment_cost() -> None:
    # T is reached through Holder (2 hops), Small (1 hop + log2(3)) and Big (1 hop + log2(8)).
    sdl = """
    type Query { big: Big, small: Small, holder: Holder }
    type Holder { t: T }
    interface Big { id: ID }
    interface Small { id: ID }
    type T implements Big & Small { id: ID, x: Int }
    type B implements Small { id: ID }
    """ + "".join(f"type A{i} implements Big {{ id: ID }}\n" for i in range(6))
    corpus = build_corpus(schema_from_sdl(sdl, "wide.graphql").schema)
    assert paths(corpus, "T.x") == (
        ("Query.holder", "Holder.t", "T.x"),
        ("Query.small", "T.x"),
        ("Query.big", "T.x"),
    )


def test_paths_start_at_the_declared_query_root() -> None:
    sdl = """
    schema { query: QueryRoot }
    type QueryRoot { shop: Shop }
    type Shop { name: String, orders: [Order] }
    type Order { total: Float }
    """
    corpus = build_corpus(schema_from_sdl(sdl, "shop.graphql").schema)
    assert corpus.query_root == "QueryRoot"
    assert paths(corpus, "Order.total") == (("QueryRoot.shop", "Shop.orders", "Order.total"),)


@pytest.mark.slow
def test_user_email_is_reached_from_query_on_github(github_corpus: Corpus) -> None:
    found = paths(github_corpus, "User.email")
    assert found, "User.email must be reachable"
    assert all(path[-1] == "User.email" for path in found)
    assert found[0][0].startswith("Query.") and len(found[0]) == 2
    for path in found:
        assert_walkable(github_corpus, path)


@pytest.mark.slow
def test_the_generic_node_lookup_does_not_shadow_real_entry_points(github_corpus: Corpus) -> None:
    # Query.node reaches every Node type in one hop; the abstract-type penalty keeps it
    # behind Query.repository for pull requests.
    assert paths(github_corpus, "PullRequest.title")[0][0] == "Query.repository"


@pytest.mark.slow
def test_every_github_path_is_walkable(github_corpus: Corpus) -> None:
    graph = SchemaGraph(github_corpus)
    for position in range(0, len(github_corpus), 97):
        for path in graph.paths_to_root(position, 3):
            assert path[-1] == github_corpus.coordinates[position]
            assert_walkable(github_corpus, path)


@pytest.mark.slow
def test_walking_every_type_at_once_answers_as_the_queue_does(github_corpus: Corpus) -> None:
    """Array rounds give the queue's costs and ways, ties included (unit hops tie often;
    varied hops as a question's scores make them), and a free hop falls back to the queue."""
    graph = SchemaGraph(github_corpus)
    varied = [0.5 + (position * 7919 % 101) / 202 for position in range(len(github_corpus))]
    for hops in (None, varied):
        queue = graph.shortest_paths(hops).settle_all()
        arrays = graph.shortest_paths(hops).settle_all_at_once()
        assert (arrays._cost, arrays._via, arrays._settled) == (
            queue._cost,
            queue._via,
            queue._settled,
        )
    free = graph.shortest_paths([0.0] * len(github_corpus)).settle_all_at_once()
    assert free._via == graph.shortest_paths([0.0] * len(github_corpus)).settle_all()._via
    # A root keeps its start cost (3 for a mutation root) when a way in only ties it.
    sdl = "type Query { m: Mutation, x: Int }\ntype Mutation { q: Query, y: Int }"
    corpus = build_corpus(schema_from_sdl(sdl, "roots.graphql").schema)
    tie = [3.0 if c == "Query.m" else 1.0 for c in corpus.coordinates]
    small = SchemaGraph(corpus)
    arrays, queue = (small.shortest_paths(tie) for _ in range(2))
    assert arrays.settle_all_at_once()._via == queue.settle_all()._via
    assert arrays.via("Mutation") is None
    # A schema whose root leads nowhere but to leaves has no edge to walk.
    lone = SchemaGraph(build_corpus(schema_from_sdl("type Query { x: Int }", "x.graphql").schema))
    walked = lone.shortest_paths().settle_all_at_once()
    assert walked._cost == lone.shortest_paths().settle_all()._cost


def _listed_by_loop(
    walk: ShortestPaths, chunks: list[tuple[list[int], list[float]]], owners: list[int], k: int
) -> tuple[list[int], list[float]]:
    """The list `listed_after_ways_in` gives, made one entry at a time (the loop a shallow
    ranking runs)."""
    listed: dict[int, float] = {}
    entered: set[int] = set()
    for positions, values in chunks:
        for position, score in zip(positions, values, strict=True):
            if len(listed) >= k:
                break
            if owners[position] not in entered:
                entered.add(owners[position])
                for entry in walk.shared_chain(owners[position]):
                    listed.setdefault(entry, score)
            listed.setdefault(position, score)
    return list(listed)[:k], list(listed.values())[:k]


def test_a_deep_list_puts_each_way_in_before_its_first_entry_as_a_loop_does(
    github_corpus: Corpus,
) -> None:
    """`listed_after_ways_in` (a deep structural ranking) lists what a loop over the entries
    lists, ways in, repeated entries and cuts included, across chunks."""
    import numpy as np

    graph = SchemaGraph(github_corpus)
    hops = [0.5 + (position * 7919 % 101) / 202 for position in range(len(github_corpus))]
    walk = graph.shortest_paths(hops).settle_all_at_once()
    owners = [graph.type_ids[entry.owner] for entry in github_corpus.entries]
    order = sorted(range(len(github_corpus)), key=lambda p: (p * 104729) % len(github_corpus))
    scores = [1.0 / (rank + 1) for rank in range(len(order))]
    chunks = [(order[:50], scores[:50]), (order[50:], scores[50:])]
    for k in (1, 250, 400, len(github_corpus)):
        expected = _listed_by_loop(walk, chunks, owners, k)
        assert walk.listed_after_ways_in(iter(chunks), np.asarray(owners), k) == expected
        assert len(expected[0]) == k
    assert walk.listed_after_ways_in(iter([([], [])]), np.asarray(owners), 5) == ([], [])


def test_the_cheapest_way_from_several_sources_goes_to_the_first_on_a_tie() -> None:
    """`cheapest_way` (what `build` connects with): equal costs go to the source listed
    first, hop costs decide otherwise, a field into a union enters its members at once, and
    neither a source itself nor a fragment out of a type reached alone counts as a way."""
    sdl = (
        "type Query { a: A, b: B, u: U }\ntype A { shared: Target, u: U }\n"
        "type B { shared: Target }\ntype Target { x: Int }\nunion U = P | Q\n"
        "type P { y: Int }\ntype Q { z: Int }"
    )
    corpus = build_corpus(schema_from_sdl(sdl, "ways.graphql").schema)
    graph = SchemaGraph(corpus)
    entry = corpus.coordinates.index

    def to_target(*sources: str, hops: list[float] | None = None) -> tuple[int, ...]:
        way = graph.cheapest_way([(s, 0.0) for s in sources], "Target".__eq__, hops)
        assert way is not None and way.target == "Target"
        return (way.source, *(hop for hop, _ in way.hops))

    assert to_target("B", "A") == (0, entry("B.shared"))
    assert to_target("A", "B") == (0, entry("A.shared"))
    dearer = [3.0 if c == "A.shared" else 1.0 for c in corpus.coordinates]
    assert to_target("A", "B", hops=dearer) == (1, entry("B.shared"))
    into_member = graph.cheapest_way([("A", 0.0)], "Q".__eq__)
    assert into_member is not None
    assert into_member.hops == ((entry("A.u"), "Q"),)
    assert into_member.cost == 1.0 + math.log2(3)
    assert graph.cheapest_way([("U", 0.0)], "Q".__eq__) is None
    assert graph.cheapest_way([("Target", 0.0)], "Target".__eq__) is None


def test_search_json_carries_paths_to_root_for_every_backend_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path))
    for backend in ("bm25", "structural"):
        result = CliRunner().invoke(
            app, ["search", "studio founded year", "--backend", backend, "--json", "--k", "5"]
        )
        assert result.exit_code == 0, result.output
        hits = json.loads(result.stdout)["hits"]
        studio = next(h for h in hits if h["coordinate"] == "Studio.foundedYear")
        assert studio["paths_to_root"][0] == ["Query.search", "Studio.foundedYear"]


def test_max_paths_caps_the_paths_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SCHEMANAV_MAX_PATHS", "1")
    result = CliRunner().invoke(app, ["search", "movie title", "--json", "--k", "5"])
    assert result.exit_code == 0, result.output
    assert {len(h["paths_to_root"]) for h in json.loads(result.stdout)["hits"]} == {1}


def test_define_prints_sdl_in_the_order_given() -> None:
    result = CliRunner().invoke(
        app, ["define", "Movie.rating", "Genre.COMEDY", "Query.movies(filter:)", "@deprecated"]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    order = [
        out.index(f"# {c}")
        for c in ("Movie.rating", "Genre.COMEDY", "Query.movies(filter:)", "@deprecated")
    ]
    assert order == sorted(order)
    assert (
        'type Movie {\n  """Average review rating from 1 to 10, null while unreviewed."""\n'
        "  rating: Float\n}" in out
    )
    assert "enum Genre {" in out and "COMEDY" in out and "DRAMA" not in out
    assert "filter: MovieFilter" in out and "first: Int" not in out
    assert "directive @deprecated" in out


def test_define_a_whole_type_and_an_input_field() -> None:
    result = CliRunner().invoke(app, ["define", "MovieFilter", "MovieFilter.minRating"])
    assert result.exit_code == 0, result.output
    assert "input MovieFilter {" in result.stdout
    assert "minRating: Float" in result.stdout


def test_define_leaves_out_empty_descriptions(tmp_path: Path, cache_dir: Path) -> None:
    """A server that sends `"description": ""` for every element (Magento's does) prints as
    lines of six quotes: they say nothing, and neither define nor its cache keeps them."""
    empty = '"' * 6
    schema = tmp_path / "empty.graphqls"
    schema.write_text(
        f"{empty}\ntype Query {{\n  {empty}\n  shop(\n    {empty}\n    id: ID\n  ): Shop\n}}\n"
        f'{empty}\ntype Shop {{\n  {empty}\n  id: ID\n  "The shop\'s name."\n  name: String\n}}\n'
    )
    for _ in range(2):  # printed, then read back
        result = CliRunner().invoke(
            app, ["define", "--schema", str(schema), "Query", "Query.shop(id:)", "Shop.name"]
        )
        assert result.exit_code == 0, result.output
        assert empty not in result.stdout
        assert "  \"\"\"The shop's name.\"\"\"\n  name: String" in result.stdout
        assert "shop(\n    id: ID\n  ): Shop" in result.stdout


def test_define_json_gives_introspection_records() -> None:
    result = CliRunner().invoke(app, ["define", "--json", "Movie", "Movie.rating", "Genre.DRAMA"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert [r["coordinate"] for r in records] == ["Movie", "Movie.rating", "Genre.DRAMA"]
    assert [r["kind"] for r in records] == ["NamedType", "Field", "EnumValue"]
    movie = records[0]["definition"]
    assert movie["kind"] == "OBJECT" and movie["name"] == "Movie"
    assert {"name": "Node", "kind": "INTERFACE", "ofType": None} in movie["interfaces"]
    rating = records[1]["definition"]
    assert rating["name"] == "rating"
    assert rating["type"] == {"kind": "SCALAR", "name": "Float", "ofType": None}
    assert records[2]["definition"]["name"] == "DRAMA"


def test_define_reports_unknown_coordinates_by_name() -> None:
    result = CliRunner().invoke(app, ["define", "Movie.title", "Movie.titel", "Nope", "Movie.("])
    assert result.exit_code == 2
    assert "# Movie.title" in result.stdout
    errors = result.stderr.strip().splitlines()
    assert errors[0].startswith("error: Movie.titel: no such element in the schema")
    assert "did you mean Movie.title" in errors[0]
    assert errors[1].startswith("error: Nope: no such element")
    assert errors[2].startswith("error: Movie.(: not a schema coordinate")
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_define_on_github(github_schema: LoadedSchema) -> None:
    from schemanav.schema.define import define

    email, owner = define(github_schema.schema, ["User.email", "Query.repository(owner:)"])
    assert email.sdl is not None and "email: String!" in email.sdl
    # An argument coordinate gives that argument, not the whole field with its others.
    assert owner.sdl is not None and "owner: String!" in owner.sdl
    assert "followRenames" not in owner.sdl


def test_search_table_shows_how_each_hit_is_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["search", "studio founded year", "--k", "5"])
    assert result.exit_code == 0, result.output
    # Piped output is plain columns, one line per hit, nothing cut.
    rows = {
        cells[1]: cells[4]
        for line in result.stdout.splitlines()[2:-1]
        if len(cells := re.split(r"\s{2,}", line.strip())) == 5
    }
    assert rows["Studio.foundedYear"] == "Query.search"
    assert rows["Query.search"] == "(root field)"


def test_every_prepared_backend_gives_paths_to_the_agent_tool(
    moviedb_corpus: Corpus, moviedb_schema: LoadedSchema, tmp_path: Path
) -> None:
    # BM25 fills no paths itself; prepare_backend adds them, so searchSchema shows them.
    from schemanav.agent.tools import SchemaTools
    from schemanav.corpus import Format
    from schemanav.events import SilentEvents
    from schemanav.retrieval import search_blocks
    from schemanav.retrieval.pipeline import prepare_backend
    from schemanav.settings import Settings

    loaded = moviedb_schema
    settings = Settings(cache_dir=tmp_path, max_paths=1)
    backend = prepare_backend(
        "bm25", Format.DOT_PLUS_GLOSS, settings, moviedb_corpus, SilentEvents()
    )
    hits = backend.search("studio founded year", 5)
    studio = next(h for h in hits if h.coordinate == "Studio.foundedYear")
    assert studio.paths_to_root == (("Query.search", "Studio.foundedYear"),)
    tools = SchemaTools(
        loaded.schema,
        search=lambda q, b: search_blocks(backend, q, b, size=len(moviedb_corpus), max_paths=1),
    )
    text = tools.search_schema("studio founded year").text
    assert "   from the root: Query.search > Studio.foundedYear" in text.splitlines()


def test_no_paths_are_computed_when_the_cap_is_zero(moviedb_corpus: Corpus, tmp_path: Path) -> None:
    from schemanav.corpus import Format
    from schemanav.events import SilentEvents
    from schemanav.retrieval.pipeline import prepare_backend
    from schemanav.settings import Settings

    settings = Settings(cache_dir=tmp_path, max_paths=0)
    backend = prepare_backend(
        "bm25", Format.DOT_PLUS_GLOSS, settings, moviedb_corpus, SilentEvents()
    )
    assert all(hit.paths_to_root == () for hit in backend.search("studio founded year", 5))


def test_define_reads_back_what_it_printed_and_reprints_a_damaged_entry(cache_dir: Path) -> None:
    from schemanav.events import SilentEvents
    from schemanav.navigator import Navigator
    from schemanav.schema.define import define

    coordinates = ["Movie.rating", "Query.movies(filter:)", "Movie.titel", "Genre", "@deprecated"]
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    first = Navigator.open(events=Collect()).define(coordinates)
    files = sorted(p for p in (cache_dir / "define").rglob("*.json") if p.name != "schema.json")
    assert len(files) == len(coordinates)
    reread = Navigator.open(events=Collect())
    assert reread.define(coordinates) == first
    assert "loaded" not in reread.__dict__  # answered from the cache: no parse
    assert first == define(reread.loaded.schema, coordinates)  # as printed without a cache
    files[0].write_bytes(files[0].read_bytes()[:-3])
    assert Navigator.open(events=Collect()).define(coordinates) == first
    assert len(warnings) == 1 and warnings[0].startswith("the definition cache of ")
    assert "is not usable (payload is" in warnings[0]
    assert warnings[0].endswith("; printing it again")


@pytest.mark.slow
def test_define_prints_new_coordinates_from_their_part_of_the_cached_introspection(
    cache_dir: Path,
) -> None:
    from schemanav.cache import write_checked
    from schemanav.events import SilentEvents
    from schemanav.navigator import Navigator
    from schemanav.schema.define import define

    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    Navigator.open(events=Collect()).define(["Movie.rating"])  # parses, keeps the JSON
    new = ["Person.credits", "SearchResult", "Query.movies(filter:)", "Node", "Genre.COMEDY"]
    new += ["CreateMovieInput.genres", "@skip", "@deprecated(reason:)"]
    fresh = Navigator.open(events=Collect())
    printed = fresh.define(new)
    assert "_readable" not in fresh.__dict__  # printed from parts: not rebuilt whole, not parsed
    parsed = fresh.loaded.schema
    assert printed == define(parsed, new)
    unknown = Navigator.open(events=Collect())
    # "did you mean" needs every name: an unknown coordinate is printed from the whole schema.
    asked = ["Movie.year", "Movie.titel"]
    assert unknown.define(asked) == define(parsed, asked)
    assert "_readable" in unknown.__dict__ and "loaded" not in unknown.__dict__
    [kept] = (cache_dir / "define").rglob("schema.json")
    kept.write_bytes(kept.read_bytes().replace(b'"Person"', b'"Persan"'))
    assert Navigator.open(events=Collect()).define(["Person.name"]) == define(
        parsed, ["Person.name"]
    )
    assert warnings == [
        "the schema cache is not usable (payload checksum does not match); parsing"
    ]
    # A checked file that holds something else (the first version's layout) is not trusted.
    header = {**unknown._definition_cache.header, "part": "schema"}  # type: ignore[union-attr]
    write_checked(kept, header, b'{"introspection": {"__schema": {}}, "violations": []}')
    assert Navigator.open(events=Collect()).define(["Review"]) == define(parsed, ["Review"])
    assert warnings[1:] == ["the schema cache is not usable (not an introspection result); parsing"]


# An interface whose own fields name one of its implementations (Y) before the schema meets
# the other (X, reached through R1, which a part holds without fields): its possible types
# must still come in the schema's order. Default values name enums and input objects; a
# scalar has a URL; a directive has arguments with defaults.
PARTS_SDL = """
type Query {
  i: I
  search(filter: Filter = {order: {field: NAME, direction: DESC}, tags: ["a"]}, kind: Kind = B):
    [Result!]!
}
interface I {
  r1: R1
  r2: Y
  when: Date @deprecated(reason: "use r1")
}
type R1 {
  x: X
}
type X implements I {
  r1: R1
  r2: Y
  when: Date
}
type Y implements I {
  r1: R1
  r2: Y
  when(format: Field = AGE): Date
}
union Result = X | Y
input Filter {
  order: Order = {field: NAME}
  tags: [String!] = []
}
input Order {
  field: Field! = NAME
  direction: Direction = ASC
}
enum Field {
  NAME
  AGE @deprecated
}
enum Direction {
  ASC
  DESC
}
enum Kind {
  A
  B
}
scalar Date @specifiedBy(url: "https://example.com/date")
directive @tag(name: String! = "x", order: Order = {field: AGE}) repeatable on OBJECT
"""


@pytest.mark.slow
def test_every_coordinate_printed_from_a_part_equals_the_parsed_schema(
    cache_dir: Path, tmp_path: Path
) -> None:
    from schemanav.navigator import Navigator
    from schemanav.schema.define import define

    path = tmp_path / "parts.graphqls"
    path.write_text(PARTS_SDL, encoding="utf-8")
    parsed = schema_from_sdl(PARTS_SDL, str(path)).schema
    coordinates = ["@tag", "@tag(order:)", "@deprecated", "__Type.fields"]
    for name, graphql_type in parsed.type_map.items():
        if name.startswith("__"):
            continue
        coordinates.append(name)
        members = getattr(graphql_type, "fields", None) or getattr(graphql_type, "values", {})
        for member, value in members.items():
            coordinates.append(f"{name}.{member}")
            coordinates.extend(f"{name}.{member}({arg}:)" for arg in getattr(value, "args", ()))
    Navigator.open(str(path)).define(["Query"])  # parses, keeps the JSON
    served = set()
    for coordinate in coordinates:
        navigator = Navigator.open(str(path))
        assert navigator.define([coordinate]) == define(parsed, [coordinate]), coordinate
        if "_readable" not in navigator.__dict__:
            served.add(coordinate)
    # Each from a part of the cached introspection, but an introspection type's coordinate.
    assert "__Type.fields" not in served and len(served) == len(coordinates) - 1


def test_a_graph_is_shared_per_corpus_object_and_parameters_while_held() -> None:
    """`SchemaGraph.of`: the searcher and the slicer of one corpus share one graph; another
    corpus (even of the same schema) or other costs get their own, and none outlives its
    holders."""
    import gc

    from schemanav.graph import _SHARED_GRAPHS

    sdl = "type Query { a: A }\ntype A { x: Int }"
    corpus = build_corpus(schema_from_sdl(sdl, "a.graphql").schema)
    twin = build_corpus(schema_from_sdl(sdl, "a.graphql").schema)
    graph = SchemaGraph.of(corpus)
    assert SchemaGraph.of(corpus) is graph
    assert SchemaGraph.of(twin) is not graph
    assert SchemaGraph.of(corpus, abstract_penalty=2.0) is not graph
    assert SchemaGraph.of(corpus, abstract_penalty=2.0).abstract_penalty == 2.0
    key = (id(corpus), 1.0, 3.0)
    del graph
    gc.collect()
    assert key not in _SHARED_GRAPHS
