"""What a write brings into a slice besides itself (`schemanav.retrieval.slicing.writes` and
`build.Growth.add_write_outcomes`): the `id` of each type it takes objects of, every argument
it offers, the list its payload reports failure through, every way its union says it ended,
and room for its answer when it ranks first."""

from __future__ import annotations

import pytest

from schemanav.retrieval.slicing import SliceParams
from slicing_support import slicer_for, valid

WRITE_SDL = """
type Query { repo(name: String!): Repo }
type Repo { name: String!  issue(number: Int!): Issue  label(name: String!): Label }
type Issue { number: Int!  title: String!  body: String  state: String  id: ID! }
type Label { name: String!  color: String  kind: String  notes: String  id: ID! }
type Mutation {
  closeIssue(input: CloseIssueInput!): CloseIssuePayload
  labelUpdate(id: ID!, color: String): Done
}
input CloseIssueInput { issueId: ID!  reason: String }
type CloseIssuePayload { done: Boolean }
type Done { done: Boolean }
"""


@pytest.mark.parametrize(
    ("write", "way", "taken", "object_id"),
    [
        ("Mutation.closeIssue", "Repo.issue", "Issue", "id"),  # an input field `issueId: ID!`
        ("Mutation.labelUpdate", "Repo.label", "Label", "id"),  # `id: ID!` on a write named for it
        ("Mutation.labelUpdate", "Repo.label", "Label", "_id"),  # the type's one `ID!` field
    ],
)
def test_a_write_shows_the_id_of_each_type_it_takes_objects_of_by_it(
    write: str, way: str, taken: str, object_id: str
) -> None:
    sdl = WRITE_SDL.replace("notes: String  id: ID!", f"notes: String  {object_id}: ID!")
    slicer = slicer_for(sdl)
    read = slicer.from_ranked(["Query.repo", way], 1000)
    assert f"{taken}.{object_id}" not in read.fields  # its fillers are other leaves
    # First in the ranking, or asked for wherever it ranks.
    for ranked, question in (
        ([write, "Query.repo", way], ""),
        (["Query.repo", way, write], "Change it."),
    ):
        piece = slicer.from_ranked(ranked, 1000, question)
        valid(piece.sdl)
        assert write in piece.fields and f"{taken}.{object_id}" in piece.fields


GROUPED_WRITES_SDL = """
type Query { form(id: ID!): Form  forms(limit: Int, search: String): [Form!]! }
type Form { id: ID!  name: String! }
type Mutation { forms: FormMutation  submit(formId: ID!, answers: String, token: String): Done }
type FormMutation { rename(id: ID!, name: String, notify: Boolean): Done }
type Done { done: Boolean }
"""


@pytest.mark.parametrize("write", ["Mutation.submit", "FormMutation.rename"])
def test_a_write_shows_every_argument_it_offers(write: str) -> None:
    # A write's optional arguments are the inputs the user gives, not filters a question
    # names. A type only the mutation root's fields without arguments return groups
    # writes (`Mutation.forms`).
    slicer = slicer_for(GROUPED_WRITES_SDL)
    ranked = ["Query.form", "Form.name", write]  # past the first hits, that show them all
    piece = slicer.from_ranked(ranked, 1000, "Change the form.")
    valid(piece.sdl)
    offered = {a.name for a in slicer.corpus.entries[slicer.index[write]].arguments}
    assert {f"{write}({a}:)" for a in offered} <= set(piece.arguments)


NAMESPACED_SDL = """
type Query { forms: FormQuery }
type FormQuery { getForm(id: ID!): Form  listForms(limit: Int): [Form!]!  count: Int }
type Form { id: ID!  name: String!  version: Int }
type Mutation { forms: FormMutation }
type FormMutation {
  deleteForm(id: ID!): FormResponse
  createForm(name: String!): FormResponse
  publishForm(id: ID!): FormResponse
}
type FormResponse { data: Form  error: FormError }
type FormError { message: String  code: String }
"""


def test_a_namespace_of_operations_is_a_way_in_as_a_root_is() -> None:
    # With room to spare, the completion shows every field of the types in the slice, but
    # not the other operations of a namespace (`corpus.groups.namespaces`), as not a root's.
    ranked = ["Mutation.forms", "FormMutation.deleteForm", "Query.forms", "FormQuery.getForm"]
    slicer = slicer_for(NAMESPACED_SDL, SliceParams())
    piece = slicer.from_ranked(ranked, 1000, "Delete form 3.")
    valid(piece.sdl)
    assert {"FormResponse.error", "FormError.code", "Form.version"} <= set(piece.fields)
    assert {"FormMutation.createForm", "FormMutation.publishForm"}.isdisjoint(piece.fields)
    assert "FormQuery.listForms" not in piece.fields


def test_a_hit_in_a_namespace_comes_with_the_roots_field_into_it() -> None:
    # Unranked, `Mutation.forms` is still the way to the write: a namespace is no root.
    piece = slicer_for(NAMESPACED_SDL).from_ranked(["FormMutation.deleteForm"], 500, "Delete it.")
    valid(piece.sdl)
    assert {"Mutation.forms", "FormMutation.deleteForm"} <= set(piece.fields)


PAYLOAD_SDL = """
type Query { item(id: ID!): Item }
type Item { id: ID!  name: String! }
type UserError { field: [String!]  message: String! }
type Mutation {
  addItem(name: String!): AddItemPayload
  dropItem(id: ID!): DropItemPayload
  renameItem(id: ID!, name: String!): Item
}
type AddItemPayload { item: Item  errors: [UserError!]! }
type DropItemPayload { dropped: ID  errors: [UserError!]! }
"""


def test_a_payload_shows_the_list_through_which_the_schemas_writes_report_failure() -> None:
    piece = slicer_for(PAYLOAD_SDL).from_ranked(["Mutation.addItem"], 1000)
    valid(piece.sdl)
    assert {"AddItemPayload.errors", "UserError.message"} <= set(piece.fields)
    # A list only one payload has is that payload's own, not how writes report failure.
    alone = PAYLOAD_SDL.replace("dropped: ID  errors: [UserError!]!", "dropped: ID")
    piece = slicer_for(alone).from_ranked(["Mutation.addItem"], 1000)
    assert "AddItemPayload.errors" not in piece.fields


CHANGED_OBJECT_SDL = """
type Query { org(slug: String!): Org }
type Org { name: String!  teams(first: Int, after: String): TeamConnection  plan: String }
type Team { id: ID!  name: String!  slug: String!  privacy: String  members: Int }
type TeamConnection { edges: [TeamEdge]  pageInfo: PageInfo! }
type TeamEdge { cursor: String!  node: Team }
type PageInfo { hasNextPage: Boolean!  endCursor: String }
type Mutation {
  teamCreate(input: TeamCreateInput!): TeamCreatePayload
  teamUpdate(input: TeamUpdateInput!): TeamUpdatePayload
}
input TeamCreateInput { orgId: ID!  name: String! }
input TeamUpdateInput { id: ID!  name: String }
type TeamCreatePayload { clientMutationId: String  teamEdge: TeamEdge!  organization: Org! }
type TeamUpdatePayload { clientMutationId: String  team: Team!  organization: Org! }
"""


@pytest.mark.parametrize(
    ("write", "payload", "returned"),
    [
        ("Mutation.teamUpdate", "TeamUpdatePayload", {"TeamUpdatePayload.team"}),
        # A Relay edge to the new object, for the connections the client holds.
        (
            "Mutation.teamCreate",
            "TeamCreatePayload",
            {"TeamCreatePayload.teamEdge", "TeamEdge.node"},
        ),
    ],
)
def test_a_first_hits_payload_shows_the_object_its_write_changes(
    write: str, payload: str, returned: set[str]
) -> None:
    slicer = slicer_for(CHANGED_OBJECT_SDL)
    piece = slicer.from_ranked([write], 1000, "Make a team called SRE.")
    valid(piece.sdl)
    assert returned <= set(piece.fields)
    # The payload's other objects are context the question does not name.
    assert f"{payload}.organization" not in piece.fields
    # A write past the first hits brings its payload alone.
    later = slicer.from_ranked(["Query.org", "Org.name", "Org.plan", write], 1000, "Make a team.")
    assert write in later.fields and not returned & set(later.fields)


ECHOING_SUBSCRIPTION = """
schema { query: Query  mutation: Mutation  subscription: Subscription }
type Subscription { teamEvents(orgId: ID!): TeamEvents! }
type TeamEvents { fieldName: String!  TeamUpdatePayload: TeamUpdatePayload }
"""


@pytest.mark.parametrize("also_read", [False, True])
def test_a_payload_the_subscriptions_hand_on_is_still_a_payload(also_read: bool) -> None:
    # A subscription's event hands the write's payload to the other clients (Parabol's
    # `meetingSubscription`); a query returning it too makes it a type of its own.
    sdl = CHANGED_OBJECT_SDL + ECHOING_SUBSCRIPTION
    if also_read:
        sdl = sdl.replace(
            "type Query { org(slug: String!): Org }",
            "type Query { org(slug: String!): Org  lastUpdate: TeamUpdatePayload }",
        )
    piece = slicer_for(sdl).from_ranked(["Mutation.teamUpdate"], 1000, "Rename team 5.")
    valid(piece.sdl)
    assert ("TeamUpdatePayload.team" in piece.fields) is not also_read


OUTCOME_SDL = """
type Query { sensor(name: String!): SensorOrError  sensors: [Sensor!]! }
type Sensor { name: String!  running: Boolean! }
type SensorNotFound { message: String! }
type Unauthorized { message: String!  permission: String }
union SensorOrError = Sensor | SensorNotFound
type Mutation { startSensor(name: String!): StartResult }
union StartResult = Sensor | SensorNotFound | Unauthorized
"""


def test_a_write_returning_a_union_shows_every_way_it_can_end() -> None:
    # Ranked first, the write comes with the member its hits name; the outcomes it may report
    # instead (refused, not found) are what an operation making the change selects too.
    slicer = slicer_for(OUTCOME_SDL)
    piece = slicer.from_ranked(["Mutation.startSensor", "Sensor.running"], 1000, "Start it.")
    valid(piece.sdl)
    assert {"SensorNotFound.message", "Unauthorized.message"} <= set(piece.fields)


def test_a_type_in_the_slice_brings_no_other_write_into_a_union_returning_it() -> None:
    # `Unauthorized` (an outcome of the write) and `Sensor` (a hit's type) may both come out
    # of `stopSensor` too; a root's field is an operation of its own, not a way to them.
    sdl = OUTCOME_SDL.replace(
        "type Mutation { startSensor(name: String!): StartResult }",
        "type Mutation { startSensor(name: String!): StartResult  stopAll: StopResult }\n"
        "union StopResult = Sensor | Unauthorized",
    )
    ranked = ["Mutation.startSensor", "Sensor.running"]
    piece = slicer_for(sdl).from_ranked(ranked, 1000, "Start it.")
    valid(piece.sdl)
    assert "Unauthorized.message" in piece.fields
    assert "Mutation.stopAll" not in piece.fields


def test_a_read_returning_a_union_waits_for_the_completion() -> None:
    # The same kind of union read through the query root gets no other member before the
    # completion (off here): a budget the ranked hits fill leaves a read's other outcomes out.
    slicer = slicer_for(OUTCOME_SDL)
    piece = slicer.from_ranked(["Query.sensor", "Sensor.running"], 1000, "Is it running?")
    valid(piece.sdl)
    assert "SensorNotFound" not in piece.types


def _payload_sdl() -> str:
    """A write whose payload has twenty leaves, and thirty reads of types of their own."""
    reads = "\n".join(f"  report{n}(id: ID!): Report{n}" for n in range(30))
    types = "\n".join(f"type Report{n} {{ total{n}: Int  count{n}: Int }}" for n in range(30))
    leaves = "  ".join(f"detail{n}: String" for n in range(20))
    return f"""
type Query {{
{reads}
}}
type Mutation {{ updateProduct(id: ID!, title: String): Product }}
type Product {{ id: ID!  title: String  {leaves} }}
{types}
"""


def test_a_request_whose_write_ranks_first_leaves_room_for_its_answer() -> None:
    slicer = slicer_for(_payload_sdl(), SliceParams())
    reports = [f"Report{n}.total{n}" for n in range(30)]
    ranked = ["Mutation.updateProduct", "Product.title", *reports]

    def shown(question: str) -> tuple[int, int]:
        piece = slicer.from_ranked(ranked, 300, question, ladder=300)
        valid(piece.sdl)
        fields = piece.fields
        return sum(f.startswith("Report") for f in fields), sum(".detail" in f for f in fields)

    # The request stops taking the reads ranked after its write sooner (`WRITE_RESERVE`): the
    # completion shows the whole payload. Keywords naming the same ranking read on.
    reads, payload = shown("Update the title of product 12.")
    keyword_reads, keyword_payload = shown("product 12 title update")
    assert payload == 20 and keyword_payload < 20
    assert reads < keyword_reads


def test_from_two_thousand_tokens_a_write_request_reads_the_wide_ranking() -> None:
    """`Ranking.wide` (`ladder.WIDE_WRITES_FROM`): a write ranked past what a slice holds comes
    in from the rung of 2,000 tokens when the wide ranking puts it first; the rungs below
    keep the plain ranking, so the slice within 1,000 is as without it."""
    reads = "\n".join(
        f"type Report{n} {{ " + " ".join(f"total{n}x{m}: String" for m in range(6)) + " }"
        for n in range(120)
    )
    roots = " ".join(f"report{n}: Report{n}" for n in range(120))
    sdl = f"{WRITE_SDL}\n{reads}\nextend type Query {{ {roots} }}"
    slicer = slicer_for(sdl, SliceParams())
    ranked = [
        *(f"Query.report{n}" for n in range(120)),
        *(f"Report{n}.total{n}x{m}" for n in range(120) for m in range(6)),
        "Mutation.closeIssue",
    ]
    entries = [slicer.index[c] for c in ranked]
    wide = [entries[-1], *entries[:-1]]
    question = "Close issue 42."
    for budget, held in ((1000, False), (2000, True)):
        piece = slicer.from_ranked(ranked, budget, question, entries, wide=wide)
        plain = slicer.from_ranked(ranked, budget, question, entries)
        valid(piece.sdl)
        assert ("Mutation.closeIssue" in piece.fields) is held
        assert "Mutation.closeIssue" not in plain.fields
        assert piece.tokens <= budget


def test_a_request_whose_write_ranks_first_shows_its_answer_before_the_fill() -> None:
    """`WRITE_ANSWER_SHARE`: under 2,000 tokens too, a request whose write ranks first grows
    the write's answer (who made the product) before the fill spends the room the write
    reserve kept on the reads' cheap lines; keywords naming the same ranking fill first."""
    shop = "  ".join(f"s{n}: String" for n in range(60))
    sdl = f"""
type Query {{ shop: Shop }}
type Shop {{ name: String  {shop} }}
type Mutation {{ updateProduct(id: ID!, title: String): Product }}
type Product {{ id: ID!  title: String  createdBy: Identity }}
type Identity {{ id: ID!  displayName: String }}
"""
    slicer = slicer_for(sdl, SliceParams())
    ranked = [
        "Mutation.updateProduct",
        "Product.title",
        "Query.shop",
        "Shop.name",
        *(f"Shop.s{n}" for n in range(60)),
    ]

    def answered(question: str) -> bool:
        piece = slicer.from_ranked(ranked, 300, question, ladder=300)
        valid(piece.sdl)
        assert piece.tokens <= 300
        return "Identity.displayName" in piece.fields

    assert answered("Update the title of product 12.")
    assert not answered("product 12 title update")
