"""A question read against one schema's own names: which object types it names, one object or
many, the short forms those names imply, and the values that are not words. The rules read
from the question's words alone (time, the asker, writes, quoted values) are `grammar`'s.

A GraphQL schema usually reaches an object type two ways: a lookup that returns one object
and takes an identifying argument (`mergeRequest(id: ID!)`), and a list or connection that
returns many (`mergeRequests(state:, first:)`). Which one a question needs follows from its
grammar, not from any API's vocabulary: "which merge requests…" names the type in the plural
(a set: the list), "merge request 42" names it in the singular beside a literal identifier
(one object: the lookup). Type names are split at their camelCase humps (`MergeRequest` →
"merge request"), and their English plural forms are matched as runs of the question's words.
A type named by a short namespace prefix and one noun (`CiRunner`, `PbPage`) is also named by
that noun, where no type is ("paused runners"); a type named by another type's name and one
more noun (`ProductReview`) is named by that noun's plural beside the other type ("the reviews
of product 12"), where no type is a `Review`.

One `TypeReader` per schema (`reader_of`, by the names of its object, interface and union
types: a union owns no field, yet "jobs" names Buildkite's `union Job`) reads
every question once (`TypeReader.read`) into one frozen `QuestionReading`, for both the ranking
(its text, grammar and `mentions`) and the slicer (its `slice`, `TypeReader.for_slice`): a new
rule of the form "a question that names a type so" has this one home. The structural ranking
reads the question with its short forms expanded (`ShortForms`, which it builds from the
counts of fields returning each type and the words its own index knows) and hands its
reading to the slices of its ranking (`Ranking.reading`); a slice of another backend's ranking
reads the question as asked. The schema reaches this module only as names, counts and that
test of words: nothing here imports it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import pairwise

from schemanav.question.grammar import FUNCTION_WORDS, GLOBAL_ID
from schemanav.question.reading import Reading, read

# English nouns whose plural the Snowball stemmer does not bring back to the singular (it
# leaves `children`, turns `people` into `peopl`): "child epics" must find `Epic.children`.
IRREGULAR_PLURALS = {"child": "children", "person": "people", "man": "men", "woman": "women"}

_WORD = re.compile(r"[a-z0-9]+")
_HUMP = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")
# A literal that names one object: a number, a quoted string, a path (`group/project`), a
# global ID (`gid://…`) or a name in snake case (`nightly_etl`: no word of prose holds `_`).
LITERAL = re.compile(r"\d|\"[^\"]+\"|'[^']+'|\w[\w.-]*/[\w./-]+|\b[A-Za-z][A-Za-z0-9]*_\w")
# A path literal (`group/project`, `"octocat/hello-world"`) outside a URI, with its quotes.
PATH_LITERAL = re.compile(r"(?<![\w:/.-])(['\"]?)(\w[\w.-]*/[\w./-]+)\1")
# A URI (`gid://gitlab/MergeRequest/1`, `https://…`): a value whole, whatever words it holds.
URI_LITERAL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S*[\w/]")
# A quoted value (`"Printer on 3rd floor keeps jamming"`, `'main'`), its quotes paired in order.
QUOTED_LITERAL = re.compile(r"\"[^\"]+\"|(?<!\w)'[^']+'(?!\w)")
# A hexadecimal identifier, of at least six digits and letters, both: a UUID
# (`1d4b8e2a-7c3f-4a9d-b6e0-5f2c9a1d8e47`), a hash or an ID (`8d3e91`). A word holds no digit,
# a number no letter.
HEX_LITERAL = re.compile(
    r"(?<![\w-])(?=[0-9a-fA-F-]*\d)(?=[0-9a-fA-F-]*[a-fA-F])"
    r"[0-9a-fA-F]{6,}(?:-[0-9a-fA-F]{4,})*(?![\w-])"
)
# A random key (`Qy7r3Lp` in `mtg_Qy7r3Lp`, `9z2w1x` in `ord_9z2w1x`, `7f3a9c21` in
# `bkt_7f3a9c21`): a run of letters and digits of at least four, alone or after a prefix, in
# which letters and digits take turns three times or more, or twice in mixed case
# (`St5dUp`). A word never does: a numeronym (`i18n`, `k8s`) turns twice in one case, and a
# name holds a word of lower-case letters (`bucketS3Credentials`, `setOrg2FA`). The prefix
# stays a word.
_KEY_RUN = re.compile(
    # Two turns at least, a letter between digits or a digit between letters (so a plain
    # word never calls `_unless_word`).
    r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*(?:[A-Za-z]\d+[A-Za-z]|\d[A-Za-z]+\d))"
    r"[A-Za-z0-9]{4,}(?![A-Za-z0-9])"
)
_LETTER_DIGIT_TURN = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
_NAME_WORD = re.compile(r"[a-z]{4}|[A-Z][a-z]{2}")


def _unless_word(match: re.Match[str]) -> str:
    """A run of letters and digits blanked when it is a random key (`_KEY_RUN`, which
    matches only runs turning twice at least: in one case, a key turns a third time)."""
    run = match.group(0)
    one_case = run in (run.lower(), run.upper())
    if _NAME_WORD.search(run) or (one_case and len(_LETTER_DIGIT_TURN.findall(run)) < 3):
        return run
    return " "


# Words that make the singular noun after them one of a set: "each job", "every member",
# "all project" as a plural would. (Recency words, "the last pipeline", lost in the ranking;
# the slicer reads them: `ORDER_WORDS`.)
SET_WORDS = frozenset({"each", "every", "all"})
# Words that make the noun after them the first or last of a list ("the first pipeline", "the
# last successful pipeline"): a slice reaches it through a list (`pipelines(first:)` answers
# it). The ranking does not read them: "the latest release" is often a lookup.
ORDER_WORDS = frozenset({"first", "last", "latest", "newest", "oldest", "earliest", "recent"})
# How far before its noun such a word may stand: one adjective between ("each merged pull
# request", "the last successful pipeline").
SET_WORD_REACH = 2
# A type named by a namespace prefix and one noun (`CiRunner`, `PbPage`, `SnsSubscription`) is
# named by its noun alone where no type is: the prefix has at most this many letters and names
# no type itself (`RunGroup` is Dagster's group of runs, not its `group`).
NAMESPACE_LETTERS = 3
_IDENTIFIER_MARK = re.compile(r"[\d._-]")
_VOWELS = frozenset("aeiouy")
_CLOSING_MARK = re.compile(r"[.!?]+\s*$")
# Particles that follow a verb in a phrasal verb ("roll back", "log out"): no noun's second
# half (`ShortForms`); "up", "in", "on", "over" are function words already.
_PARTICLES = frozenset({"back", "out", "off", "down", "away", "through"})
# The fewest letters of a word whose silent e English drops before a suffix (`ShortForms`).
SILENT_E_LETTERS = 5
# What a time argument (`since:`, `until:`) answers to, among a question's words, when the
# question is in time: no word of a question has this form.
TIME_MARK = "@time"
# What a list's paging arguments answer to when the question reads a set page by page, and
# what a text search argument (`search:`, `query: String`) answers to when it looks for text.
PAGING_MARK = "@page"
TEXT_MARK = "@text"
# …and what a sort argument (`sort:`, `orderBy:`, an enum of ASC and DESC) answers to when it
# asks for a set in an order.
SORT_MARK = "@sort"
# …and what the root's lookup of any object by its global identifier (`node(id:)`) answers to
# when the question gives one.
GLOBAL_ID_MARK = "@gid"


def without_value_literals(question: str) -> str:
    """The question with the literals that are surely values blanked, for matching its words
    against the schema: `project group/project` names one project; the words inside the path
    (`group`, `project`) are no more the schema's vocabulary than a number is. So with a URI,
    a quoted text of several words (`_unless_one_word`), and an opaque identifier
    (`HEX_LITERAL`, `grammar.GLOBAL_ID`, a random key after its prefix: `_KEY_RUN`), which the
    analyzer would split into single letters and digits, each matching some name (the 3 of a
    UUID, `bucketS3Credentials`; the "Up" of `mtg_St5dUp`, `signUp`).

    A path is surely a value when it is quoted, holds a digit, dot, dash or underscore, or
    repeats the word beside it (`project group/project`). Other slashes join words
    (`resolved/resolvable`, `CI/CD`) and stay."""

    def blank(match: re.Match[str]) -> str:
        quoted, path = match.group(1), match.group(2)
        before = _WORD.findall(question[: match.start()].lower())[-1:]
        after = _WORD.findall(question[match.end() :].lower())[:1]
        segments = set(_WORD.findall(path.lower()))
        if quoted or _IDENTIFIER_MARK.search(path) or segments.intersection(before + after):
            return " "
        return match.group(0)

    without_paths = PATH_LITERAL.sub(blank, URI_LITERAL.sub(" ", question))
    without_texts = QUOTED_LITERAL.sub(_unless_one_word, without_paths)
    without_identifiers = GLOBAL_ID.sub(" ", HEX_LITERAL.sub(" ", without_texts))
    return _KEY_RUN.sub(_unless_word, without_identifiers)


def _unless_one_word(match: re.Match[str]) -> str:
    """A quoted text of several words blanked: a title, a message or a name the question
    gives as a value ("titled "Printer on 3rd floor keeps jamming""). One quoted word stays:
    it may be what the schema calls a thing (`the "Status" field`, `move "Sale" under
    "Shop"`)."""
    return " " if len(match.group(0)[1:-1].split()) > 1 else match.group(0)


VALUE_MARK = "@value:"
"""Marks a word the question names a quoted value by ("the 'main' branch": `@value:branch`)."""


@lru_cache(maxsize=1 << 16)  # the ranking's reader and short forms split the same names
def type_words(name: str) -> str:
    """`MergeRequest` → `merge request`; `CIJob` → `ci job`."""
    return " ".join(_HUMP.findall(name)).lower()


def plural_forms(words: str) -> set[str]:
    """English plurals of a noun phrase (its last word inflected): `merge request` →
    `merge requests`; `policy` → `policies`; `status` → `statuses`; `person` → `people`."""
    forms = {words + "s", words + "es"}
    if words.endswith("y"):
        forms.add(words[:-1] + "ies")
    head, _, last = words.rpartition(" ")
    if last in IRREGULAR_PLURALS:
        forms.add(f"{head} {IRREGULAR_PLURALS[last]}".lstrip())
    return forms


@dataclass(frozen=True)
class TypeMentions:
    """The output types a question names, in the plural and in the singular."""

    plural: frozenset[str]
    singular: frozenset[str]
    literal: bool

    @property
    def one(self) -> frozenset[str]:
        """Types the question names in the singular beside a literal identifier, and never
        in the plural: it asks for one object of those."""
        return self.singular - self.plural if self.literal else frozenset()

    @property
    def plural_nouns(self) -> frozenset[str]:
        """The noun of each type named in the plural, in the singular (`PbMenu` → "menu"): a
        plural the stemmer keeps ("menus", as it keeps "bonus") still finds its type's words."""
        return frozenset(type_words(name).rpartition(" ")[2] for name in self.plural)

    def among(self, names: Collection[str]) -> TypeMentions:
        """Only the mentions of `names` (the ranking's: the types a field reaches)."""
        return TypeMentions(
            self.plural.intersection(names), self.singular.intersection(names), self.literal
        )


class TypeNames:
    """Finds an object type's name in a question, as a run of words, singular or plural.

    A question has a few dozen runs of words and a schema thousands of type names, so the
    names are not all split into words and inflected up front (a fifth of a warm search's
    own time on a schema four times GitHub's): each name is filed under its letters and
    digits, lower-cased (the words `type_words` splits it into, run together), and a run of
    the question looks up the names it could be, singular or each plural it could be the
    plural of (`plural_forms` inverted), which are then split into words to confirm.
    A process that reads more questions than `_LAZY_QUESTIONS` (a server, `bench`) splits
    and inflects every name once instead and looks each run up in one step (as fast per
    question as it was before; both ways find the same names).
    """

    _LAZY_QUESTIONS = 2

    def __init__(self, names: Iterable[str]) -> None:
        self._by_letters: dict[str, list[str]] = defaultdict(list)
        for name in names:
            letters = name.replace("_", "").lower()
            if not (letters.isascii() and letters.isalnum()):  # not a GraphQL name
                letters = type_words(name).replace(" ", "")
            self._by_letters[letters].append(name)
        # A plural adds at most three letters to its name (`-ies` for `-y`, `children`).
        self._longest = max(map(len, self._by_letters), default=0) + 3
        self._questions = 0
        self._table: dict[tuple[str, ...], list[tuple[str, bool]]] | None = None
        self._longest_run = 0

    def _every_form(self) -> dict[tuple[str, ...], list[tuple[str, bool]]]:
        """Every name's words and plural forms, as runs of words, with the names they name."""
        table: dict[tuple[str, ...], list[tuple[str, bool]]] = defaultdict(list)
        for names in self._by_letters.values():
            for name in names:
                base = type_words(name)
                if not base:
                    continue
                table[tuple(base.split(" "))].append((name, False))
                for form in plural_forms(base):
                    table[tuple(form.split(" "))].append((name, True))
        by_noun: dict[tuple[str, ...], list[tuple[str, bool]]] = defaultdict(list)
        for noun, names in self._namespaced.items():
            by_noun[(noun,)].extend((name, False) for name in names)
            for form in plural_forms(noun):
                by_noun[(form,)].extend((name, True) for name in names)
        for run, named in by_noun.items():
            if run not in table:  # a noun that names a type itself names that type
                table[run] = named
        self._longest_run = max(map(len, table), default=0)
        return table

    @cached_property
    def _namespaced(self) -> dict[str, list[str]]:
        """The types named by a namespace prefix and one noun, by that noun
        (`NAMESPACE_LETTERS`): a run of one word that names no type names these."""
        found: dict[str, list[str]] = defaultdict(list)
        for names in self._by_letters.values():
            for name in names:
                prefix = _HUMP.match(name)
                if prefix is None or len(prefix.group()) > NAMESPACE_LETTERS:
                    continue
                words = type_words(name).split(" ")
                if len(words) == 2 and words[0] not in FUNCTION_WORDS and not self._named(words[0]):
                    found[words[1]].append(name)
        return dict(found)

    def _named(self, words: str) -> list[str]:
        """The names whose words (`type_words`) are `words`."""
        found = self._by_letters.get(words.replace(" ", ""), ())
        return [name for name in found if type_words(name) == words]

    def _singulars(self, words: str) -> set[str]:
        """Every phrase of which `words` is a plural form (`plural_forms`)."""
        bases = set()
        if words.endswith("s"):
            bases.add(words[:-1])
        if words.endswith("es"):
            bases.add(words[:-2])
        if words.endswith("ies"):
            bases.add(words[:-3] + "y")
        head, _, last = words.rpartition(" ")
        for single, plural in IRREGULAR_PLURALS.items():
            if plural == last:
                bases.add(f"{head} {single}".lstrip())
        return {base for base in bases if base and words in plural_forms(base)}

    def names_of(self, words: Sequence[str]) -> list[str]:
        """The types a run of words names, in the singular or the plural (`_forms`): "app
        signers" `AppSigner`, "job" Dagster's `Job` or a `CiJob` where no type is a `Job`."""
        return [name for name, _ in self._forms(tuple(words))]

    def _forms(self, words: tuple[str, ...]) -> list[tuple[str, bool]]:
        """The names a run of words names, each with whether it names it in the plural."""
        phrase = " ".join(words)
        found = [(name, False) for name in self._named(phrase)]
        for base in self._singulars(phrase):
            found.extend((name, True) for name in self._named(base))
        if found or len(words) > 1:
            return found
        nouns = self._namespaced
        found = [(name, False) for name in nouns.get(phrase, ())]
        for base in self._singulars(phrase):
            found.extend((name, True) for name in nouns.get(base, ()))
        return found

    def _may_name(self, letters: str, last: str) -> bool:
        """Whether a run of words whose letters are `letters` (its last word `last`) can name
        a type at all, by dictionary look-ups alone (most runs name none)."""
        known = self._by_letters
        if letters in known:
            return True
        if letters.endswith("s") and (
            letters[:-1] in known
            or letters[:-2] in known
            or (letters.endswith("ies") and letters[:-3] + "y" in known)
        ):
            return True
        if last in _SINGULARS and letters[: -len(last)] + _SINGULARS[last] in known:
            return True
        nouns = self._namespaced
        return letters == last and (
            last in nouns or any(base in nouns for base in self._singulars(last))
        )

    @cached_property
    def _compounds_by_noun(self) -> dict[str, list[tuple[str, str]]]:
        """The types named by another type's name and one more noun (`ProductReview`: the
        words of `Product`, then "review"), by that noun, each with the type its other words
        name. A noun that names a type itself files none."""
        found: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for names in self._by_letters.values():
            for name in names:
                head, _, noun = type_words(name).rpartition(" ")
                if not head or noun in FUNCTION_WORDS or self._named(noun):
                    continue
                found[noun].extend((name, owner) for owner in self._named(head))
        return dict(found)

    def _with_compounds(
        self, found: TypeMentions, words: list[str], set_words: frozenset[str]
    ) -> TypeMentions:
        """`found` with the types a plural names by their last noun alone beside their first
        words' type: "the reviews of product 12" names `ProductReview` where no type is a
        `Review` and the question names `Product`; so does a noun after a set word, as a
        plural does ("every queue in cluster 3" names `ClusterQueue`). Of several such types
        it names none; any other noun in the singular names none either ("its instance":
        which one is not said)."""
        named = found.plural | found.singular
        if not named:
            return found
        compounds = self._compounds_by_noun
        added: set[str] = set()
        for index, word in enumerate(words):
            nouns = self._singulars(word)
            if _after_set_word(words, index, set_words):
                nouns.add(word)
            for noun in nouns:
                these = {name for name, owner in compounds.get(noun, ()) if owner in named}
                if len(these) == 1:
                    added.update(these)
        if added <= found.plural:
            return found
        return TypeMentions(found.plural | added, found.singular, found.literal)

    def mentions(self, question: str, set_words: frozenset[str] = SET_WORDS) -> TypeMentions:
        words = _WORD.findall(without_value_literals(question).lower())
        found = self._named_runs(question, words, set_words)
        return self._with_compounds(found, words, set_words)

    def _named_runs(
        self, question: str, words: list[str], set_words: frozenset[str]
    ) -> TypeMentions:
        """The types the question's runs of words name, singular or plural."""
        self._questions += 1
        if self._table is None and self._questions > self._LAZY_QUESTIONS:
            self._table = self._every_form()
        if self._table is not None:
            return self._mentions_by_table(self._table, question, words, set_words)
        plural: set[str] = set()
        singular: set[str] = set()
        longest = self._longest
        for start in range(len(words)):
            of_a_set = _after_set_word(words, start, set_words)
            letters = ""
            for end in range(start + 1, len(words) + 1):
                last = words[end - 1]
                letters += last
                if len(letters) > longest:
                    break  # no name is this long, nor any plural of one
                if not self._may_name(letters, last):
                    continue
                for name, many in self._forms(tuple(words[start:end])):
                    (plural if many or of_a_set else singular).add(name)
        return TypeMentions(frozenset(plural), frozenset(singular), bool(LITERAL.search(question)))

    def _mentions_by_table(
        self,
        table: dict[tuple[str, ...], list[tuple[str, bool]]],
        question: str,
        words: list[str],
        set_words: frozenset[str],
    ) -> TypeMentions:
        plural: set[str] = set()
        singular: set[str] = set()
        longest = self._longest_run
        for start in range(len(words)):
            of_a_set = _after_set_word(words, start, set_words)
            for end in range(start + 1, min(start + longest, len(words)) + 1):
                for name, many in table.get(tuple(words[start:end]), ()):
                    (plural if many or of_a_set else singular).add(name)
        return TypeMentions(frozenset(plural), frozenset(singular), bool(LITERAL.search(question)))


_SINGULARS = {plural: single for single, plural in IRREGULAR_PLURALS.items()}


def _after_set_word(words: Sequence[str], index: int, set_words: frozenset[str]) -> bool:
    """Whether the word at `index` stands within `SET_WORD_REACH` after one of `set_words`
    ("each merged pull request"): a noun there is one of a set, as a plural is."""
    return not set_words.isdisjoint(words[max(0, index - SET_WORD_REACH) : index])


class ShortForms:
    """Short forms a schema implies by its own type names, for question words it lacks.

    - an acronym of a name of two or more words (`mr`, `prs` → "merge request(s)");
    - a clipped word (`repo` → "repository") that begins a word of a type name;
    - a word whose silent e English drops before a suffix (`quote` → "quotation", `warehouse`
      → "warehousing"): without it, it begins a word of a type name, before a vowel;
    - a negated word (`unresolved` → "resolved"), when the schema has the word but not the
      negation: a field `resolved` answers "unresolved" with its value;
    - two nouns the schema writes as one word ("full names" → `fullname`, "time log" →
      `timelog`, "round-trip" → `roundtrip`), when it knows the compound as a word of its own
      (not one that stems to either part: "name li" is no `nameli`); never with a word of a
      sentence's frame or a verb's particle ("set up", "roll back": a phrasal verb asks for
      a change, not for the thing its compound names).

    Where several type names share an acronym or a clipping, the one the most fields return
    wins (the schema's central type). Acronyms and clippings expand only words the schema does
    not know, or, for an acronym, a known word without a vowel (no English word: the schema's
    own short form, as GitLab's `introducedByMr`), and never a word of a sentence's frame
    (`FUNCTION_WORDS`: "me", "it"); a negation adds its word whenever the schema knows that
    word.
    """

    def __init__(
        self,
        returned: dict[str, int],
        known: Callable[[str], bool],
        stem: Callable[[str], Sequence[str]] = lambda word: [word],
    ) -> None:
        self._known = known
        self._returned = returned
        self._stem = stem

    @cached_property
    def _tables(self) -> tuple[dict[str, str], list[tuple[str, tuple[int, str]]]]:
        """The acronyms and the clippings, made when a question first has a word to expand
        (a question of words the schema knows, as most are, needs neither; on a schema four
        times GitHub's they take a tenth of a warm search's own time)."""
        acronyms: dict[str, tuple[int, str]] = {}
        clipped: dict[str, tuple[int, str]] = {}
        for name, count in self._returned.items():
            words = type_words(name).split(" ")
            if len(words) >= 2 and all(w.isalpha() for w in words):
                initials = "".join(w[0] for w in words)
                if count > acronyms.get(initials, (0, ""))[0]:
                    acronyms[initials] = (count, " ".join(words))
            for word in words:
                if len(word) > 4 and count > clipped.get(word, (0, ""))[0]:
                    clipped[word] = (count, word)
        return (
            {k: v for k, (_, v) in acronyms.items()},
            sorted(clipped.items(), key=lambda item: -item[1][0]),
        )

    def expand(self, question: str) -> str:
        """The question with the expansions of its unknown words and its compounds added at
        its end, before its closing mark."""
        extra: list[str] = []
        words = _WORD.findall(question.lower())
        for word in words:
            if not word.isalpha():
                continue
            if self._known(word):
                # A known word without a vowel is no English word but a short form the schema
                # uses itself (`introducedByMr`): its acronym still expands.
                found = self._negated(word) or (
                    self._acronym(word) if not _VOWELS.intersection(word) else None
                )
            else:
                found = self._negated(word) or self._expansion(word)
            if found:
                extra.append(found)
        extra.extend(self._compounds(words))
        if not extra:
            return question
        # Before the closing mark: the words are the question's, and the mark still says
        # whether it asks or requests (`schemanav.question.grammar`).
        end = _CLOSING_MARK.search(question)
        at = end.start() if end else len(question)
        return f"{question[:at]} {' '.join(extra)}{question[at:]}"

    def _compounds(self, words: Sequence[str]) -> list[str]:
        """The compounds the schema knows of two neighbouring words of a question (`words`,
        lower-cased, in order)."""
        found: list[str] = []
        for first, second in pairwise(words):
            if (
                len(first) < 2
                or len(second) < 2  # "repository's" is no `repositorys`
                or not (first.isalpha() and second.isalpha())
                or first in FUNCTION_WORDS
                or second in FUNCTION_WORDS
                or second in _PARTICLES
            ):
                continue
            joined = first + second
            if self._known(joined) and {*self._stem(first), *self._stem(second)}.isdisjoint(
                self._stem(joined)
            ):
                found.append(joined)
        return found

    def _negated(self, word: str) -> str | None:
        for negation in ("un", "non"):
            rest = word[len(negation) :]
            if word.startswith(negation) and len(rest) > 3 and self._known(rest):
                return rest
        return None

    def _acronym(self, word: str) -> str | None:
        if word in FUNCTION_WORDS:
            return None
        singular = word[:-1] if word.endswith("s") and len(word) > 2 else word
        acronyms = self._tables[0]
        if singular in acronyms:
            full = acronyms[singular]
            return full + "s" if singular != word and not full.endswith("s") else full
        return None

    def _expansion(self, word: str) -> str | None:
        acronym = self._acronym(word)
        if acronym:
            return acronym
        singular = word[:-1] if word.endswith("s") and len(word) > 2 else word
        if len(singular) >= 3:
            for full, _ in self._tables[1]:
                if full.startswith(singular) and full != singular:
                    return full
        # English drops a silent e before a suffix: "warehouse" → `warehousing`, "quote" →
        # `quotation`, "price" → `pricing`.
        if singular.endswith("e") and len(singular) >= SILENT_E_LETTERS:
            stem = singular[:-1]
            for full, _ in self._tables[1]:
                if full[len(stem) : len(stem) + 1] in _VOWELS and full.startswith(stem):
                    return full
        return None


@dataclass(frozen=True)
class SliceReading:
    """A question as the slicer takes it: `words`, its words as the slicer's analyzer reads
    them, with `TIME_MARK` when it is in time, `PAGING_MARK` when it pages, `SORT_MARK` when it
    sorts, `TEXT_MARK` when it looks for text, and `VALUE_MARK` before each word naming a
    quoted value; `many`, the types it asks a set of (in the plural, after each / every /
    all, or as the first or last of a list); `named`, every type it names but `one`, those
    it names once beside a literal identifier (one object: `pipeline 42`); `writes`, it asks
    to change something (`Reading.writes`); `lists`, it lists many things it wants
    (`Reading.lists`); `streams`, it follows something as it changes (`Reading.streams`: the
    subscription root's ways in are as open to it as a write's to a request)."""

    words: frozenset[str]
    many: frozenset[str]
    named: frozenset[str]
    one: frozenset[str]
    writes: bool
    lists: bool = False
    streams: bool = False


NO_QUESTION = SliceReading(frozenset(), frozenset(), frozenset(), frozenset(), False)
"""What the slicer reads when it is given no question."""


@dataclass(frozen=True)
class QuestionReading:
    """One question read once against one schema, by its `TypeReader`, for the ranking and the
    slicer alike: `text`, the question as both read it (its short forms expanded by the
    ranking's `ShortForms`, or as asked); `grammar`, what that text says of itself (`read`);
    `asked_writes`, whether the question as asked is a request to change something;
    `mentions`, the types it names as the ranking reads them; `slice`, as the slicer does,
    read when first asked for (by `words`, the analyzer): a search that slices nothing never
    pays for it."""

    text: str
    grammar: Reading
    asked_writes: bool
    mentions: TypeMentions
    reader: TypeReader = field(repr=False, compare=False)
    words: Callable[[str], Iterable[str]] = field(repr=False, compare=False)

    @cached_property
    def slice(self) -> SliceReading:
        return self.reader.for_slice(self.text, self.words)

    @cached_property
    def kept_plurals(self) -> tuple[str, ...]:
        """The singular nouns of the types the question names in a plural its analyzer keeps
        as it is ("menus" of `PbMenu`: the English stemmer leaves a plural in "-us" alone, as
        it must "bonus"): words the ranking scores besides the question's own."""
        found = set(self.words(self.text))
        nouns = sorted(self.mentions.plural_nouns)
        return tuple(noun for noun in nouns if not found.issuperset(self.words(noun)))


class TypeReader:
    """One schema's type names as questions name them, read the same way for the ranking and
    for the slicer (see the module's docstring). Built once per schema: `reader_of`."""

    def __init__(self, names: Iterable[str]) -> None:
        self.type_names = TypeNames(names)

    def mentions(self, question: str) -> TypeMentions:
        """The types the question names, as the ranking reads them: a set word makes a set
        (`SET_WORDS`); order words do not ("the latest release" is often a lookup)."""
        return self.type_names.mentions(question)

    def read(
        self, asked: str, words: Callable[[str], Iterable[str]], text: str | None = None
    ) -> QuestionReading:
        """The question's one reading: of `text` (the question as asked with its short forms
        expanded) when given, else of the question as asked; `words` is the analyzer."""
        text = asked if text is None else text
        return QuestionReading(
            text,
            grammar=read(text),
            asked_writes=read(asked).writes,
            mentions=self.mentions(text),
            reader=self,
            words=words,
        )

    def for_slice(self, question: str, words: Callable[[str], Iterable[str]]) -> SliceReading:
        """The question as the slicer reads it, by `words` (its analyzer): a set word or an
        order word makes a set (a way in through a list fits "the last pipeline" better than
        a lookup by identifier, or goes with it)."""
        reading = read(question)
        found = set(words(without_value_literals(question)))
        if reading.in_time:
            found.add(TIME_MARK)
        if reading.pages:
            found.add(PAGING_MARK)
        if reading.searches_text:
            found.add(TEXT_MARK)
        if reading.sorts:
            found.add(SORT_MARK)
        if reading.global_id:
            found.add(GLOBAL_ID_MARK)
        found.update(VALUE_MARK + word for noun in reading.quoted_nouns for word in words(noun))
        mentions = self.type_names.mentions(question, SET_WORDS | ORDER_WORDS)
        one = mentions.one
        return SliceReading(
            frozenset(found),
            many=mentions.plural,
            named=(mentions.plural | mentions.singular) - one,
            one=one,
            writes=reading.writes,
            lists=reading.lists,
            streams=reading.streams,
        )


@lru_cache(maxsize=4)
def reader_of(names: frozenset[str]) -> TypeReader:
    """The reader of the schema whose object, interface and union types are `names`
    (`Corpus.output_types`): the ranking and the slicer of one schema take the same one."""
    return TypeReader(names)
