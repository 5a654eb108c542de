"""What a write needs besides itself: the objects it takes, and how it reports failure.

A mutation takes the objects it changes by their Relay `id` (`closeIssue(input: {issueId:
ID!})`, `productUpdate(id: ID!, input: …)`); an agent reads that `id` from the object first,
so a slice showing the write shows the `id` of each such object type it holds. Which type an
identifier stands for is read from the schema's own names: an identifier named after a type
(`issueId` → Issue, `pullRequestIds` → PullRequest), or one named `id` on a write named after
a type (`productUpdate(id:)` → Product).

A write's payload reports what went wrong in a list most payloads of the schema carry under
one name (`errors { field message code }`, `userErrors`): an agent that does not select it
never learns that its write failed, so a payload entering a slice shows it. A payload returns
the object its write changed (`teamUpdate` → `team`, `teamCreate` → `teamEdge { node }`), which
the client reads back: the payload of one of a slice's first hits shows it. A payload is a type
only writes return, and the subscriptions' events that hand it on to the other clients.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from schemanav.corpus.groups import returned_only_by
from schemanav.corpus.model import is_identifier_type
from schemanav.question.vocabulary import type_words

if TYPE_CHECKING:
    from collections.abc import Mapping

    from schemanav.corpus import Corpus
    from schemanav.corpus.facts import SliceFacts

_ID_SUFFIX = re.compile(r"(?:Id|ID)s?$")
_EDGE_SUFFIX = re.compile(r"Edge$")


def write_references(
    corpus: Corpus, facts: SliceFacts, kinds: Mapping[str, str], owners: frozenset[str]
) -> dict[str, frozenset[str]]:
    """By write (a field of one of `owners`, `schemanav.corpus.groups.write_owners`), the
    object and interface types whose `id` its required identifier arguments and input fields
    (one level deep) take."""
    if not owners:
        return {}
    by_words = {
        type_words(name): name
        for name, kind in kinds.items()
        if kind in ("object", "interface") and not name.startswith("__")
    }
    references: dict[str, frozenset[str]] = {}
    for entry in corpus.entries:
        if entry.owner not in owners:
            continue
        values = [(a.name, a.type) for a in entry.arguments if a.type.endswith("!")]
        for argument in entry.arguments:
            for value in facts.inputs.get(argument.type.strip("[]!"), ()):
                if value.required:
                    values.append((value.name, value.type))
        named: set[str] = set()
        for name, type_text in values:
            if not is_identifier_type(type_text):
                continue
            if name == "id":
                words = type_words(entry.field).split(" ")
                runs = (
                    " ".join(words[start:end])
                    for start in range(len(words))
                    for end in range(start + 1, len(words) + 1)
                )
                named.update(by_words[run] for run in runs if run in by_words)
            elif _ID_SUFFIX.search(name):
                found = by_words.get(type_words(_ID_SUFFIX.sub("", name)))
                if found:
                    named.add(found)
        if named:
            # Grouped writes may share a name (`PbMutation.deleteRevision`, `FbMutation.…`).
            references[entry.field] = references.get(entry.field, frozenset()) | named
    return references


def write_payloads(corpus: Corpus, roots: frozenset[str]) -> frozenset[str]:
    """The payload types: those writes (fields of `roots`) return and no other field does,
    but the subscriptions' events, which hand a write's payload to the other clients
    (`meetingSubscription: MeetingEvents { UpdateTitlePayload: UpdateTitlePayload }`): the
    subscription root's fields and the types only they return."""
    if not roots:
        return frozenset()
    owners = set(roots)
    subscriptions = corpus.subscription_root
    if subscriptions:
        owners |= {subscriptions, *returned_only_by(corpus, {subscriptions}, lambda _: True)}
    return frozenset(returned_only_by(corpus, owners, lambda entry: entry.owner in roots) - owners)


def payload_errors(corpus: Corpus, payloads: frozenset[str]) -> dict[str, str]:
    """By payload type (`write_payloads`), the list field without required arguments through
    which it reports failure: the one name the most payloads share, when at least two and at
    least half of them have it."""
    having: dict[str, set[str]] = defaultdict(set)
    for entry in corpus.entries:
        if entry.owner in payloads and entry.returns_list and not entry.takes_required_argument:
            having[entry.field].add(entry.owner)
    if not having:
        return {}
    name, owners = max(having.items(), key=lambda item: (len(item[1]), item[0]))
    if len(owners) < 2 or 2 * len(owners) < len(payloads):
        return {}
    return dict.fromkeys(owners, name)


def payload_objects(
    corpus: Corpus, kinds: Mapping[str, str], roots: frozenset[str], payloads: frozenset[str]
) -> dict[str, tuple[str, ...]]:
    """By payload type (`write_payloads` of the writes, fields of `roots`), the fields
    through which it returns the object its write changes: one object each, named
    after the object the write's own name names (`clusterAgentTokenCreate` →
    `clusterAgentToken`, `createProduct` → `product`), or a Relay edge to it, which a client
    adds to the connections it holds (`teamCreate` → `teamEdge { node }`). The payload's
    other objects (the organization it belongs to) are context the question may not want."""
    names: dict[str, list[set[str]]] = defaultdict(list)
    for entry in corpus.entries:
        if entry.owner in roots and entry.named_return_type in payloads:
            names[entry.named_return_type].append(set(type_words(entry.field).split(" ")))
    found: dict[str, list[str]] = defaultdict(list)
    for entry in corpus.entries:
        if (
            entry.owner not in payloads
            or entry.returns_list
            or entry.takes_required_argument
            or kinds.get(entry.named_return_type) not in ("object", "interface", "union")
        ):
            continue
        words = set(type_words(_EDGE_SUFFIX.sub("", entry.field)).split(" "))
        if any(words <= write for write in names[entry.owner]):
            found[entry.owner].append(entry.field)
    return {payload: tuple(fields) for payload, fields in found.items()}


class WriteTables:
    """One schema's writes, as slices read them: the types whose `id` each write takes
    (`write_references`), by type the writes taking it, each payload's list reporting
    failure (`payload_errors`), its fields returning the changed object (`payload_objects`)
    and the edges among those (`answer_edges`)."""

    def __init__(
        self,
        corpus: Corpus,
        facts: SliceFacts,
        kinds: Mapping[str, str],
        owners: frozenset[str],
    ) -> None:
        self.references = write_references(corpus, facts, kinds, owners)
        takers: dict[str, set[str]] = defaultdict(set)
        for write, taken in self.references.items():
            for type_name in taken:
                takers[type_name].add(write)
        self.id_takers = {name: frozenset(writes) for name, writes in takers.items()}
        payloads = write_payloads(corpus, owners)
        self.payload_errors = payload_errors(corpus, payloads)
        self.payload_objects = payload_objects(corpus, kinds, owners, payloads)
        # The edges a payload returns its object through show their `node`.
        returned = {
            entry.named_return_type
            for entry in corpus.entries
            if entry.field in self.payload_objects.get(entry.owner, ())
        }
        self.answer_edges = frozenset(
            entry.owner
            for entry in corpus.entries
            if entry.owner in returned and entry.field == "node"
        )
