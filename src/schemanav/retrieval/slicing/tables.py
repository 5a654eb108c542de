"""What a slicer knows of one schema before any question: computed once, read by every slice.

`SliceFacts` (`schemanav.corpus.facts`) carries what the corpus does not (type kinds,
interfaces, arguments and input fields as SDL); `SchemaTables` turns it and the corpus into
the tables a slice grows by: each field's facts, the leaves that identify or label a type,
the caller's context roots, the fields leading from type to type, and line costs. Each
field's record is a `FieldFacts` (`fields.py`); how the schema reports outcomes (its shared
outcome and its parts, its envelope) comes from `OutcomeTables` (`outcomes.py`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from schemanav.corpus.outcomes import result_unions
from schemanav.question.grammar import FUNCTION_WORDS
from schemanav.question.vocabulary import (
    ORDER_WORDS,
    SORT_MARK,
    TEXT_MARK,
    TIME_MARK,
    VALUE_MARK,
)
from schemanav.retrieval.quantity import is_time_scalar
from schemanav.retrieval.slicing.connections import node_ways, relay_connections
from schemanav.retrieval.slicing.fields import FieldFacts, object_id
from schemanav.retrieval.slicing.params import (
    BUILTIN_SCALARS,
    LABELS,
    MAX_WAYS_IN,
    VALUE_FIELDS,
    SliceParams,
)
from schemanav.retrieval.slicing.subtyping import SubtypingTables
from schemanav.retrieval.slicing.writes import WriteTables

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from schemanav.corpus import Corpus, CorpusEntry
    from schemanav.corpus.facts import InputValue, SliceFacts
    from schemanav.graph import SchemaGraph
    from schemanav.question.vocabulary import TypeReader

# A way into a type: (penalty, number, corpus entries, (owner, field) steps, through a list).
Way = tuple[float, int, list[int], list[tuple[str, str]], bool]
# A way from the query root: (corpus entries, (owner, field) steps, penalty).
StaticWay = tuple[list[int], list[tuple[str, str]], float]


class SchemaTables(SubtypingTables):
    """One schema's tables for slicing; the caches fill as questions need them."""

    def __init__(
        self,
        schema_facts: SliceFacts,
        corpus: Corpus,
        graph: SchemaGraph | None = None,
        params: SliceParams | None = None,
        words: Callable[[str], list[str]] | None = None,
    ) -> None:
        """The tables of the schema that `corpus` and `schema_facts` (`SliceFacts.of(schema)`,
        or the cached facts of a schema file) describe: no `GraphQLSchema` is needed."""
        from schemanav.graph import SchemaGraph
        from schemanav.question.analyzer import Stemmer

        self.schema_facts = schema_facts
        self.corpus = corpus
        self.graph = graph or SchemaGraph.of(corpus)
        self.params = params or SliceParams()
        self.indent = " " * self.params.indent
        self.described = self.params.descriptions != "none"  # fields show their descriptions
        # The question's words pick optional arguments and enum values: the same analyzer as
        # the backends, so `states`/"open" match `state: [PullRequestState!]`/`OPEN`.
        self.words = words if words is not None else Stemmer()
        self.names = [(e.owner, e.field) for e in corpus.entries]  # by corpus position
        self.position = {name: i for i, name in enumerate(self.names)}
        self.index = {c: i for i, c in enumerate(corpus.coordinates)}
        self.kinds = schema_facts.kinds
        self.enum_values = corpus.enum_values
        self.possible = {n: frozenset(t) for n, t in corpus.possible_types.items()}
        # What each line met so far costs (`cost`); a slice's running count reads it directly.
        self.costs: dict[str, int] = {}
        self._lines: dict[tuple[str, str, tuple[str, ...]], str] = {}
        self._static_ways: dict[str, list[StaticWay]] = {}
        self._ways_by_penalty: dict[str, list[Way]] = {}
        self._argument_words: dict[tuple[str, str, str], frozenset[str]] = {}
        self._value_nouns: dict[tuple[str, str, str], frozenset[str]] = {}
        self._offered_words: dict[tuple[str, str], tuple[tuple[str, frozenset[str]], ...]] = {}
        self._value_words: dict[str, frozenset[str]] = {}
        self._naming_words: dict[str, frozenset[str]] = {}
        self._time_types: dict[str, bool] = {}
        self._union_members: dict[str, list[tuple[str, list[int]]]] = {}
        self._free_leaves: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {}
        self._field_order: dict[str, dict[str, int]] = {}
        self._input_fields: dict[str, dict[str, InputValue]] = {}
        # Each owner's fields in definition order (the corpus keeps the schema's order).
        self.fields_of: dict[str, list[str]] = {}
        for owner, name in self.names:
            self.fields_of.setdefault(owner, []).append(name)
        # Output types shaped like a Relay connection (`connections.relay_connections`).
        self.connections = relay_connections(self.fields_of, self.kinds)
        self._subtyping()
        self.facts = self._all_field_facts()
        # Each connection's way to its nodes, and its node type.
        self.node_ways = node_ways(self.connections, self.facts)
        self.node_types = {
            connection: self.facts[way[-1][0]][way[-1][1]].named
            for connection, way in self.node_ways.items()
        }
        self.identifiers = self._identifiers()
        self._companions: dict[tuple[str, str], tuple[tuple[str, frozenset[str]], ...]] = {}
        self.labels = self._labels()
        self.states = self._states()
        self.context_roots = self._context_roots()
        self.leading_to = self._leading_to()
        self.leading_between = self._leading_between()
        self.abstract_fields, self.abstract_out = self._abstract_fields()
        # The owners of `abstract_fields`, by abstract type: a slice holding none of them
        # skips that type's fields at once.
        self.abstract_sources = {
            abstract: frozenset(source for source, _ in ways)
            for abstract, ways in self.abstract_fields.items()
        }

    # --- the tables ---------------------------------------------------------------------

    @cached_property
    def writes(self) -> WriteTables:
        """What slices need of the schema's writes, made once a write is in a slice."""
        return WriteTables(self.corpus, self.schema_facts, self.kinds, self.write_owners)

    def _all_field_facts(self) -> dict[str, dict[str, FieldFacts]]:
        """Every output field's facts, by owner then name; refuses facts of another corpus."""
        facts: dict[str, dict[str, FieldFacts]] = {}
        arguments = self.schema_facts.arguments
        coordinates = self.corpus.coordinates
        for position, entry in enumerate(self.corpus.entries):
            given = arguments.get(coordinates[position], ())
            if len(given) != len(entry.arguments):
                raise ValueError(
                    f"the slice facts do not match the corpus: {coordinates[position]} has "
                    f"{len(entry.arguments)} arguments, the facts {len(given)}"
                )
            facts.setdefault(entry.owner, {})[entry.field] = self._field_facts(
                position, entry, given
            )
        return facts

    def _field_facts(
        self, position: int, entry: CorpusEntry, arguments: tuple[InputValue, ...]
    ) -> FieldFacts:
        return_type = entry.return_type
        named = return_type.strip("[]!")
        names: tuple[str, ...] = ()
        required: tuple[str, ...] = ()
        types: tuple[str, ...] = ()
        texts: tuple[str, ...] = ()
        defaults: tuple[bool, ...] = ()
        offered: tuple[str, ...] = ()
        if arguments:  # most fields have none
            names = tuple(a.name for a in arguments)
            required = tuple(a.name for a in arguments if a.required)
            types = tuple(a.named_type for a in arguments)
            texts = tuple(a.text for a in arguments)
            defaults = tuple(a.has_default for a in arguments)
            # The optional arguments a slice may show: a deprecated one never (an agent
            # should not write it).
            offered = tuple(a.name for a in arguments if not a.required and not a.deprecated)
        # Constructed, not `filled`: slicing reads these records' attributes hundreds of
        # thousands of times, faster from the instance layout `__init__` gives.
        return FieldFacts(
            position=position,
            arguments=names,
            required=required,
            argument_types=types,
            argument_texts=texts,
            defaults=defaults,
            offered=offered,
            return_type=return_type,
            named=named,
            many=entry.returns_list or named in self.connections,
            free=not required,
            leaf=self.kinds.get(named) in ("scalar", "enum"),
            description=entry.description,
            line=f"{self.indent}{entry.field}: {return_type}\n",
        )

    def _identifiers(self) -> dict[str, list[str]]:
        """Per type, the leaf fields that identify one of its objects: those named like an
        argument of a single-object field returning the type, the values an agent reads to
        name a result. The arguments are the required ones (`issue(number:)` makes
        `Issue.number` an identifier), or, for a lookup whose arguments are all optional
        (`user(id:, username:)`: any one of them chooses the object), those that are not `ID`
        (opaque by the spec: no answer reads it)."""
        found: dict[str, list[str]] = defaultdict(list)
        for fields in self.facts.values():
            for field in fields.values():
                if field.many or not field.arguments:
                    continue
                own = self.facts.get(field.named, {})
                chosen = field.required or tuple(
                    argument
                    for argument, named in zip(field.arguments, field.argument_types, strict=True)
                    if named != "ID"
                )
                for argument in chosen:
                    facts = own.get(argument)
                    if facts and facts.leaf and facts.free and argument not in found[field.named]:
                        found[field.named].append(argument)
        # An identifier an interface declares identifies every implementation of it: the
        # interface's contract gives the field one meaning (`User.username` names a reviewer
        # as it names a `UserCore`).
        for type_name, names in list(found.items()):
            for interface in self.interfaces_of.get(type_name, ()):
                declared = [n for n in names if n in self.facts.get(interface, {})]
                for implementation in self.possible.get(interface, ()):
                    known = found[implementation]
                    known.extend(n for n in declared if n not in known)
        return dict(found)

    @cached_property
    def object_ids(self) -> dict[str, str]:
        """Per object or interface type, the field that identifies its objects for a client's
        cache and a write's arguments (`fields.object_id`)."""
        entries = self.corpus.entries
        found: dict[str, str] = {}
        for type_name, fields in self.facts.items():
            chosen = object_id(fields, lambda position: entries[position].deprecation)
            if chosen is not None:
                found[type_name] = chosen
        return found

    def _most_shared(self, keep: Callable[[FieldFacts], bool]) -> dict[str, list[str]]:
        """Per type, its fields without required arguments that `keep` accepts, the names the
        most types share first (definition order among ties): what many types call alike
        (a name, a state) is what operations select of any of them."""
        shared: dict[str, int] = defaultdict(int)
        candidates: dict[str, list[str]] = {}
        for owner, fields in self.facts.items():
            names = [name for name, f in fields.items() if f.free and keep(f)]
            candidates[owner] = names
            for name in names:
                shared[name] += 1
        return {
            owner: sorted(names, key=lambda name: -shared[name])
            for owner, names in candidates.items()
            if names
        }

    def _labels(self) -> dict[str, list[str]]:
        """Per type, its labels: of its non-null `String!` leaves without arguments, the
        `LABELS` whose names the most object types share (a name, a title): reference
        operations select them to name a result though the question does not."""
        ranked = self._most_shared(lambda f: f.return_type == "String!")
        return {owner: names[:LABELS] for owner, names in ranked.items()}

    def _states(self) -> dict[str, str]:
        """Per type, its state: of its non-null enum leaves without arguments, the one whose
        name the most types share (`state`, `status`). Real operations over a set select it
        to tell open from merged, failed from passed, though the question may not say so."""
        kinds = self.kinds
        ranked = self._most_shared(
            lambda f: f.return_type.endswith("!") and kinds.get(f.named) == "enum"
        )
        return {owner: names[0] for owner, names in ranked.items()}

    def _context_roots(self) -> dict[str, list[str]]:
        """Query root fields without required arguments that return one object (not a list,
        not the root itself), by the type returned: the caller's own context (`viewer`), how
        a question without an identifier reaches that type."""
        roots: dict[str, list[str]] = defaultdict(list)
        query_root = self.corpus.query_root
        for name, facts in self.facts.get(query_root or "", {}).items():
            if (
                facts.free
                and not facts.many
                and self.kinds.get(facts.named) == "object"
                and facts.named != query_root
            ):
                roots[facts.named].append(name)
        return roots

    def _leading_to(self) -> dict[str, list[tuple[str, str, bool]]]:
        """Fields without required arguments by the object type they lead to (directly, or
        through a list or a connection's nodes), with whether they lead to many."""
        leading: dict[str, list[tuple[str, str, bool]]] = defaultdict(list)
        for owner, fields in self.facts.items():
            for name, facts in fields.items():
                if not facts.free or facts.leaf:
                    continue
                target = self.node_types.get(facts.named, facts.named)
                leading[target].append((owner, name, facts.many))
        return leading

    def _leading_between(self) -> dict[str, dict[str, list[tuple[str, bool]]]]:
        """`leading_to` by owner, then the type led to: (field, many), in its order."""
        between: dict[str, dict[str, list[tuple[str, bool]]]] = {}
        for target, leading in self.leading_to.items():
            for owner, name, many in leading:
                between.setdefault(owner, {}).setdefault(target, []).append((name, many))
        return between

    def _abstract_fields(
        self,
    ) -> tuple[dict[str, list[tuple[str, str]]], dict[str, list[tuple[str, str]]]]:
        """Fields without required arguments that return a union or an interface: by that
        abstract type as (owner, field), and by their owner as (field, abstract type)."""
        into: dict[str, list[tuple[str, str]]] = defaultdict(list)
        out: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for owner, fields in self.facts.items():
            for name, facts in fields.items():
                if facts.free and self.kinds.get(facts.named) in ("union", "interface"):
                    into[facts.named].append((owner, name))
                    out[owner].append((name, facts.named))
        return into, out

    def connection_nodes(self, owner: str, name: str) -> str | None:
        """The node type of a field that returns a connection; None otherwise."""
        return self.node_types.get(self.facts[owner][name].named)

    # --- lines and their costs ----------------------------------------------------------

    def cost(self, text: str) -> int:
        cached = self.costs.get(text)
        if cached is None:
            from schemanav.tokens import known_count

            cached = self.costs[text] = known_count(text)
        return cached

    def field_line(self, owner: str, name: str, shown: tuple[str, ...]) -> str:
        """A field's SDL line showing the arguments `shown` (in the field's order)."""
        key = (owner, name, shown)
        line = self._lines.get(key)
        if line is None:
            facts = self.facts[owner][name]
            if shown:
                texts = ", ".join(facts.argument_texts[facts.arguments.index(a)] for a in shown)
                line = f"{self.indent}{name}({texts}): {facts.return_type}\n"
            else:
                line = f"{self.indent}{name}: {facts.return_type}\n"
            self._lines[key] = line
        return line

    @cached_property
    def bare_line_costs(self) -> list[int]:
        """By corpus position: what the field's line costs without arguments, the least any
        line of it costs (arguments only add text: a test checks this on both bundled schemas)."""
        from schemanav.tokens import known_counts

        return known_counts([self.field_line(owner, name, ()) for owner, name in self.names])

    @cached_property
    def fill_arrays(self) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.bool_]]:
        """By corpus position, as arrays the fill cuts thousands of hits by at once: whether
        it may take the field (no read's way in, `read_owners`; none returning `ID`),
        `bare_line_costs`, whether the field is a write (`write_owners`)."""
        import numpy as np

        facts, reads = self.facts, self.read_owners
        fillable = np.array([o not in reads and facts[o][n].named != "ID" for o, n in self.names])
        writes = np.array([owner in self.write_owners for owner, _ in self.names])
        return fillable, np.array(self.bare_line_costs, dtype=np.int64), writes

    @cached_property
    def cheapest_line(self) -> int:
        """The fewest tokens any field line of the schema costs."""
        return min(self.bare_line_costs, default=0)

    @cached_property
    def line_needs(self) -> list[tuple[str, str, str, tuple[str, ...]]]:
        """By corpus position: the field's owner, name, named return type and the named
        types of its required arguments other than built-in scalars (what a slice's `cheap`
        asks of it, read for every hit the fill passes)."""
        needs = []
        for owner, name in self.names:
            facts = self.facts[owner][name]
            required = tuple(
                t
                for a, t in zip(facts.arguments, facts.argument_types, strict=True)
                if a in facts.required and t not in BUILTIN_SCALARS
            )
            needs.append((owner, name, facts.named, required))
        return needs

    # --- per type, computed when a slice first needs it --------------------------------

    def static_ways(self, owner: str) -> list[StaticWay]:
        """The schema's ways from the query root into `owner` (at most `MAX_WAYS_IN`), each
        with its steps as (owner, field) and its penalty for hops into a union or interface
        member (the graph's abstract penalty, growing with the number of possible types)."""
        cached = self._static_ways.get(owner)
        if cached is None:
            entries = self.corpus.entries
            query_root = self.corpus.query_root
            cached = []
            for way in self.graph.ways_into(owner, MAX_WAYS_IN):
                if not way or entries[way[0]].owner != query_root:
                    continue
                penalty = 0.0
                for step, arrival in zip(
                    way, [*(entries[i].owner for i in way[1:]), owner], strict=True
                ):
                    target = entries[step].named_return_type
                    if target != arrival:
                        penalty += self.graph.fragment_cost(target)
                steps = [(entries[i].owner, entries[i].field) for i in way]
                cached.append((way, steps, penalty))
            self._static_ways[owner] = cached
        return cached

    def ways_by_penalty(self, owner: str) -> list[Way]:
        """`static_ways(owner)` as (penalty, number, way, steps, through a list or
        connection), lowest penalty first."""
        cached = self._ways_by_penalty.get(owner)
        if cached is None:
            facts = self.facts
            cached = self._ways_by_penalty[owner] = sorted(
                (penalty, number, way, steps, any(facts[o][f].many for o, f in steps))
                for number, (way, steps, penalty) in enumerate(self.static_ways(owner))
            )
        return cached

    def free_leaves(self, type_name: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """A type's leaf fields without required arguments, and their corpus positions (apart:
        a type entering a slice reads its leaves' scores by the positions alone)."""
        cached = self._free_leaves.get(type_name)
        if cached is None:
            leaves = [
                (name, f.position) for name, f in self.facts[type_name].items() if f.free and f.leaf
            ]
            names = tuple(name for name, _ in leaves)
            cached = self._free_leaves[type_name] = (names, tuple(p for _, p in leaves))
        return cached

    def field_order(self, type_name: str) -> dict[str, int]:
        """A type's field names by their place in its definition (slices print in that order)."""
        cached = self._field_order.get(type_name)
        if cached is None:
            fields = self.fields_of.get(type_name, ())
            cached = self._field_order[type_name] = {name: n for n, name in enumerate(fields)}
        return cached

    @cached_property
    def value_types(self) -> frozenset[str]:
        """Object types that are values, not entities: at most `VALUE_FIELDS` fields, every
        one a leaf without arguments, none an `ID` (which the spec gives to an object's
        identity) nor identifying an object by a lookup, no interface (a focal
        point's `x` and `y`, a setting's `name` and `value`). An operation selects a value
        whole wherever it selects the field holding it: it is the field's answer, in parts."""
        found = set()
        for name, kind in self.kinds.items():
            fields = self.facts.get(name)
            if (
                kind == "object"
                and fields
                and len(fields) <= VALUE_FIELDS
                and not self.identifiers.get(name)
                and not self.interfaces_of.get(name)
                and all(f.leaf and not f.arguments and f.named != "ID" for f in fields.values())
            ):
                found.add(name)
        return frozenset(found)

    def union_members(self, union: str) -> list[tuple[str, list[int]]]:
        """A union's members in declaration order, each with its fields' corpus positions
        (a union entering a slice shows the member whose best field scores highest)."""
        cached = self._union_members.get(union)
        if cached is None:
            position = self.position
            cached = self._union_members[union] = [
                (member, [position[(member, name)] for name in self.fields_of.get(member, ())])
                for member in self.corpus.possible_types.get(union, ())
            ]
        return cached

    def input_fields(self, type_name: str) -> dict[str, InputValue]:
        """An input object type's fields by name, in order."""
        cached = self._input_fields.get(type_name)
        if cached is None:
            values = self.schema_facts.inputs[type_name]
            cached = self._input_fields[type_name] = {value.name: value for value in values}
        return cached

    # --- words ---------------------------------------------------------------------------

    def companions(self, owner: str, name: str) -> tuple[tuple[str, frozenset[str]], ...]:
        """The companions of a field: the fields of its type named one after the other
        (`orders`, `ordersCount`; `items`, `items_aggregate`; `users`, `usersConnection`), a
        list and its count or aggregate, which an operation asks with the same filters; each
        with the optional arguments both take, of the same type."""
        key = (owner, name)
        cached = self._companions.get(key)
        if cached is None:
            own = self.facts[owner]
            facts, lowered = own[name], name.lower()
            typed = dict(zip(facts.arguments, facts.argument_types, strict=True))
            found = []
            for sibling, other in own.items():
                if sibling == name or not other.offered:
                    continue
                low = sibling.lower()
                if not (low.startswith(lowered) or lowered.startswith(low)):
                    continue
                theirs = dict(zip(other.arguments, other.argument_types, strict=True))
                shared = frozenset(
                    a for a in facts.offered if a in other.offered and typed[a] == theirs[a]
                )
                if shared:
                    found.append((sibling, shared))
            cached = self._companions[key] = tuple(found)
        return cached

    def shapes_value(self, facts: FieldFacts, argument: str) -> bool:
        """Whether an argument of a field is an enum with a default value (a unit, a format):
        on a leaf, it shapes the value the field returns."""
        number = facts.arguments.index(argument)
        return facts.defaults[number] and self.kinds.get(facts.argument_types[number]) == "enum"

    def offered_words(self, owner: str, field: str) -> tuple[tuple[str, frozenset[str]], ...]:
        """A field's offered arguments (`FieldFacts.offered`), each with its `argument_words`:
        what a slice weighs for every list field it shows, so each field's are made once."""
        key = (owner, field)
        cached = self._offered_words.get(key)
        if cached is None:
            cached = self._offered_words[key] = tuple(
                (argument, self.argument_words(owner, field, argument))
                for argument in self.facts[owner][field].offered
            )
        return cached

    def argument_words(self, owner: str, field: str, argument: str) -> frozenset[str]:
        """Words an argument answers to: its name, and its input fields' and enum values'
        words but those of its own field and return type (`mergeRequests(reviewState:)`,
        whose values say `REQUESTED_CHANGES`, is not chosen by "merge requests")."""
        key = (owner, field, argument)
        cached = self._argument_words.get(key)
        if cached is None:
            facts = self.facts[owner][field]
            named = facts.argument_types[facts.arguments.index(argument)]
            parts = [argument]
            kind = self.kinds.get(named)
            if kind == "input":
                parts.extend(self.input_fields(named))
            if kind == "enum":
                parts.extend(value.replace("_", " ").lower() for value in self.enum_values[named])
            own = self.words(f"{field} {facts.named}")
            cached = frozenset(self.words(" ".join(parts[1:]))).difference(own)
            cached = cached.union(self.words(argument))
            if self.is_time(named) and sum(map(self.is_time, facts.argument_types)) <= 2:
                cached = cached | {TIME_MARK}
            if self.searches_text(facts, argument):
                cached = cached | {TEXT_MARK}
            if self.sorts(argument, named):
                cached = cached | {SORT_MARK}
            self._argument_words[key] = cached
        return cached

    def value_nouns(self, owner: str, field: str, argument: str) -> frozenset[str]:
        """What a value a scalar or enum argument takes is called (`VALUE_MARK` words; none
        for an input object): the words of its description and those that at least two
        descriptions of arguments of its name say anywhere in the schema (`ref`: "Branch
        that triggered the pipeline", "Branch or tag to search for commits"), as its own
        description may not ("Filter pipelines by the ref they are run for"). Asked only
        for a question that quotes a value."""
        key = (owner, field, argument)
        cached = self._value_nouns.get(key)
        if cached is None:
            facts = self.facts[owner][field]
            number = facts.arguments.index(argument)
            cached = frozenset()
            if self.kinds.get(facts.argument_types[number]) in ("scalar", "enum"):
                own = self.corpus.entries[facts.position].arguments[number].description
                pooled = self._pooled_words.get(argument, frozenset())
                words = pooled.union(self.words(own or ""))
                cached = frozenset(VALUE_MARK + word for word in words)
            self._value_nouns[key] = cached
        return cached

    @cached_property
    def result_unions(self) -> dict[str, str]:
        """The unions of one object and its failures, with that object
        (`schemanav.corpus.outcomes.result_unions`: `AssetNodeOrError` is an `AssetNode`)."""
        return result_unions(self.corpus)

    @cached_property
    def root_lookups(self) -> dict[str, tuple[str, ...]]:
        """By object type, the query root's fields that return one of it by their arguments:
        directly (`order(id:)`, `product(id:, slug:)`) or as a union of it and its failures
        (`assetNodeOrError(assetKey:)`: `schemanav.corpus.outcomes.result_unions`)."""
        root, results = self.corpus.query_root, self.result_unions
        found: dict[str, list[str]] = defaultdict(list)
        for name, facts in self.facts.get(root or "", {}).items():
            if facts.many or not facts.arguments:
                continue
            target = results.get(facts.named, facts.named)
            if self.kinds.get(target) == "object":
                found[target].append(name)
        return {target: tuple(names) for target, names in found.items()}

    @cached_property
    def global_lookup(self) -> int | None:
        """The query root's lookup of any object by its global identifier, as the Relay
        specification's Object Identification names it (`node(id: ID!)` returning an
        interface), as a corpus position; None where the schema has none."""
        facts = self.facts.get(self.corpus.query_root or "", {}).get("node")
        if (
            facts is None
            or facts.arguments != ("id",)
            or facts.required != ("id",)
            or facts.argument_types != ("ID",)
            or self.kinds.get(facts.named) != "interface"
        ):
            return None
        return facts.position

    @cached_property
    def order_words(self) -> frozenset[str]:
        """`ORDER_WORDS` as the slicer's analyzer reads them."""
        return frozenset(self.words(" ".join(sorted(ORDER_WORDS))))

    @cached_property
    def _pooled_words(self) -> dict[str, frozenset[str]]:
        """By argument name, the words at least two distinct descriptions of arguments of
        that name share."""
        texts: dict[str, set[str]] = defaultdict(set)
        for entry in self.corpus.entries:
            for value in entry.arguments:
                if value.description:
                    texts[value.name].add(value.description)
        pooled: dict[str, frozenset[str]] = {}
        for name, descriptions in texts.items():
            if len(descriptions) < 2:
                continue
            counts = Counter(word for text in descriptions for word in set(self.words(text)))
            pooled[name] = frozenset(word for word, count in counts.items() if count >= 2)
        return pooled

    def is_time(self, type_name: str) -> bool:
        """Whether a type is a scalar holding a point in time (`DateTime`, `ISO8601Date`);
        asked of every argument type of each field whose arguments a slice weighs, so each
        type is judged once."""
        known = self._time_types.get(type_name)
        if known is None:
            known = self._time_types[type_name] = self.kinds.get(
                type_name
            ) == "scalar" and is_time_scalar(
                type_name, self.corpus.type_descriptions.get(type_name)
            )
        return known

    def value_words(self, value: str) -> frozenset[str]:
        """The words of an enum value or an input field name (`SQUASH_MERGE`, `createdAt`)."""
        cached = self._value_words.get(value)
        if cached is None:
            text = value.replace("_", " ").lower() if value.isupper() else value
            words = self.words(text)
            cached = self._value_words[value] = frozenset(words)
        return cached

    def naming_words(self, name: str) -> frozenset[str]:
        """The words of a field's name a question may name it by: its `value_words` but the
        function words (`isApproved` is named by "approved", not by the "is" of "Is …")."""
        cached = self._naming_words.get(name)
        if cached is None:
            cached = self._naming_words[name] = self.value_words(name) - FUNCTION_WORDS
        return cached

    @cached_property
    def reader(self) -> TypeReader:
        """How a question names this schema's types (`schemanav.question.vocabulary`): the
        schema's one reader, the ranking's too."""
        from schemanav.question.vocabulary import reader_of

        return reader_of(self.corpus.output_types)
