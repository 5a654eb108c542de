"""The rules of English a question is read by: whether it asks for a change (a write) or
opens as a read does ("Show …", "Which …": `asks_to_read`), speaks of its asker (first
person), is in time, follows something as it changes (a
subscription's answer), reads a set page by page or in an order,
looks for text inside a value, lists many things, names values in quotes, which write its
imperative names, and which words its verb of change stands for among writes (`write_verbs`:
"remove" for a schema whose writes say `delete`). Each is read from the question's words
alone; the last two are matched against the words of a schema's writes, given as words.

A request to change something:

A user asks for a write in the imperative ("Block this spam account.", "Delete the draft I
wrote yesterday", "Put product 12 into the new-arrivals category"), and rarely with the
mutation's own verb (`addReaction` for "like", `removeOrder` for "delete the cart"). A read is a
question ("which …?", "how many …"), an imperative of reading ("show", "list", "find", "give
me": "Give the team access" changes what it may do; "Open a ticket" opens a new one), or a
string of keywords ("draft pull requests not ready"). Keywords and imperatives look alike in
their first word, so an imperative is taken only as a sentence: its verb followed by a
determiner or a pronoun ("this", "the", "my"), or ending in a full stop or an exclamation mark,
or quoting a value (a number after the first word is a keyword lookup: "subscription 88
status"); asked of the one asked, it is still one ("Can you enable the CDN for service 12?").
The request may follow the scene its asker sets, after a colon, a semicolon or a comma ("I
just signed in: merge my guest cart into my account's", "My session is about to expire; keep
me signed in", "I forgot my password, send a reset link"), or a phrase setting where or when
it applies, up to a comma ("In the main menu draft, move …"), or come before what its answer
should tell ("Test the nightly schedule as if it ticked at midnight: which runs would it
request?"); a read's colon only opens the list of what it shows ("Show product 5: its title
…").
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence

_WORD = re.compile(r"[a-z0-9]+")
# English's closed classes (pronouns, determiners, prepositions, conjunctions, auxiliaries)
# of two to four letters: a sentence's frame, never what a quoted value is ("'main' on …")
# nor a short form of a schema's type ("commits by me" does not ask for an `MlExperiment`).
FUNCTION_WORDS = frozenset(
    {
        "me", "us", "it", "we", "he", "she", "him", "her", "his", "its", "our", "you", "my",
        "they", "them", "an", "the", "this", "that", "some", "any", "all", "each", "both",
        "at", "by", "in", "of", "on", "to", "up", "as", "via", "for", "from", "into", "onto",
        "with", "over", "per", "than", "and", "or", "nor", "but", "if", "so", "yet", "is",
        "am", "are", "was", "be", "been", "do", "does", "did", "has", "had", "have", "can",
        "may", "will", "not", "no",
    }
)  # fmt: skip
# Words that may open a request before its verb ("please close issue 42").
POLITE = frozenset({"please", "kindly", "now", "just", "also", "then", "so"})
# Words that open a question, and verbs of reading: a sentence opening with one reads.
_ASKING = frozenset(
    {
        "what", "which", "who", "whom", "whose", "how", "when", "where", "why", "whats",
        "is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "would",
        "should", "will", "has", "have", "had", "i", "we", "my", "our", "there", "it",
        "here", "heres",
    }
)
_READING = frozenset(
    {
        "show", "list", "get", "find", "fetch", "give", "tell", "display", "count", "see",
        "look", "search", "check", "view", "read", "load", "browse", "return", "retrieve",
        "open", "preview", "compare", "describe", "explain", "summarise", "summarize",
        "stream", "tail", "suggest", "watch", "monitor", "lookup", "query", "print",
        "download", "inspect", "calculate", "estimate", "pull", "before", "after", "across",
        "since", "if", "for", "in", "on", "of", "from", "with", "by", "at", "per", "the", "a",
        "an", "all", "any", "every", "each", "this", "that", "these", "those", "latest", "last",
        "first", "recent", "top", "most",
    }
)
# What follows an imperative's verb: the object it acts on.
_DETERMINERS = frozenset(
    {
        "this", "that", "these", "those", "the", "a", "an", "my", "our", "your", "their",
        "his", "her", "its", "all", "every", "each", "some", "me", "us", "them", "it",
        "him", "one", "two", "three", "new",
    }
)
# "give me …", "let me see …": a request to be shown something.
_SHOW_ME = frozenset({"see", "know", "look", "view", "read", "check"})
# "Give me the list" reads; "Give the QA team access", "Give user 77 the admin role" change
# what someone may do.
_ASKERS_OBJECT = frozenset({"me", "us"})


# The verbs of change by what they do, the first two of each family the words writes are
# most often named by (`createX`, `addX`; `updateX`; `deleteX`, `removeX`; `cloneX`, `copyX`;
# `selectX`; `rejectX`; `cancelX`, `terminateX`): a change of amount or a correction is an
# update too ("Raise the price …", "Fix the typo …"), and stopping what runs is cancelling
# it ("Stop the hourly schedule"). English, not any API's words.
WRITE_VERBS = (
    ("create", "add", "new", "insert", "register"),
    ("update", "change", "edit", "modify", "set", "rename", "move", "make", "raise", "lower",
     "increase", "decrease", "adjust", "fix", "correct"),
    ("delete", "remove", "archive", "destroy", "drop", "erase", "discard"),
    ("clone", "copy", "duplicate"),
    ("select", "choose", "pick"),
    ("reject", "decline", "refuse", "deny"),
    ("cancel", "terminate", "stop", "abort", "kill", "halt"),
)
# Each verb's family (every verb stands in one).
_FAMILY_OF = {verb: family for family in WRITE_VERBS for verb in family}


# Verbs of change said in several words whose first is a verb of reading: "Get rid of the old
# cluster" removes it. English, not any API's words.
_PHRASAL_VERBS = {("get", "rid", "of"): "remove"}
# "Open a ticket", "open a new issue" create one; "open the ticket", "open run 42" read.
_OPENING_A_NEW = frozenset({"a", "an", "new"})
# …and verbs whose particle may stand after their object: "Take Jordan off the team", "Take
# down the banner", "Kick these two members out of my group" remove.
_PARTICLE_VERBS = {
    "take": (frozenset({"off", "down", "away"}), "remove"),
    "kick": (frozenset({"out"}), "remove"),  # but "kick off" starts
}


# A request asked as a question of the one asked ("Can you enable the CDN …?"): what follows
# is the imperative. English, not any API's words.
_ASKED_POLITELY = frozenset({("can", "you"), ("could", "you"), ("would", "you"), ("will", "you")})


def _asked_politely(words: Sequence[str]) -> bool:
    """Whether a sentence's words open with a polite request (`_ASKED_POLITELY`)."""
    return tuple(words[:2]) in _ASKED_POLITELY


def _sentence_words(sentence: str) -> list[str]:
    """A sentence's words from its verb on: lower-cased, apostrophes dropped ("what's" →
    `whats`, "account's" → `accounts`), polite openers ("please", "can you") dropped, a verb
    said in several words (`_PHRASAL_VERBS`, `_PARTICLE_VERBS`) as its one."""
    words = _WORD.findall(sentence.lower().replace("'", ""))
    while words and words[0] in POLITE:
        words = words[1:]
    if _asked_politely(words):
        words = words[2:]
        while words and words[0] in POLITE:
            words = words[1:]
    for phrase, verb in _PHRASAL_VERBS.items():
        if tuple(words[: len(phrase)]) == phrase:
            return [verb, *words[len(phrase) :]]
    if words[:1] == ["open"] and words[1:2] and words[1] in _OPENING_A_NEW:
        return ["create", *words[1:]]
    if words and words[0] in _PARTICLE_VERBS:
        particles, verb = _PARTICLE_VERBS[words[0]]
        if not particles.isdisjoint(words[1:]):
            return [verb, *words[1:]]
    return words


def request_words(question: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of the part of a question that asks for a change (`request`), from its verb
    on, and those of its first clause, up to its first comma (what it asks to change, before
    what to set or tell): what `write_verbs` and `requested_write` read (`Reading.request`,
    `Reading.request_clause`)."""
    asked = _creating(request(question))
    return tuple(_sentence_words(asked)), tuple(_sentence_words(asked.partition(",")[0]))


# A request's verb followed by "a new …": what it asks for was not there before.
_A_NEW = re.compile(r"\W*([a-z]+)\s+an?\s+new\b", re.IGNORECASE)


def _creating(asked: str) -> str:
    """The request with its verb read as "create" when "a new" follows a verb of another
    family of change (`WRITE_VERBS`): "Make a new private wishlist" asks for
    `createWishlist`, though "make" is a verb of updating ("make it public"). A verb of no
    family ("Generate a new token", "Save a new template") is left as it is: the schema may
    name its writes by it."""
    match = _A_NEW.match(asked)
    if match is None:
        return asked
    family = _FAMILY_OF.get(match.group(1).lower())
    if family is None or family is WRITE_VERBS[0]:
        return asked
    return asked[: match.start(1)] + WRITE_VERBS[0][0] + asked[match.end(1) :]


def write_verbs(words: Sequence[str], named: Container[str]) -> list[str]:
    """The words a request's verb stands for among writes, when the schema names none of
    its writes with that verb (`named`: the words of the mutation root's field names): "Remove
    this photo" asks for a `deleteMedia` in a schema without a `remove…`, "Change the title"
    for an `update…`. A schema that speaks the asker's verb is taken at its word: "Add a
    country" in one with `addCountry` and `createCountry` is not widened. `words`: the
    request's (`request_words`)."""
    if not words or words[0] in named:
        return []
    verb = words[0]
    return [word for word in _FAMILY_OF.get(verb, ())[:2] if word != verb]


# What sets a request apart from the context said before it ("I just signed in: merge …",
# "We're getting DDoSed — turn on …").
_CLAUSE_END = re.compile(r"[:;]\s+|\s+[—–]\s+")
# A scene's first words when the asker tells of themselves or hands something over ("Here is
# my code 482913, …; finish signing me in").
_ASKERS = frozenset({"i", "we", "my", "our", "here", "heres"})
# Prepositions that open a phrase setting where, when or as whom a request applies, up to its
# comma ("In the main menu draft, move …", "From now on, only let …", "As a platform admin,
# do a dry run of …").
_SETTING_PREPOSITIONS = frozenset(
    {"in", "on", "at", "for", "from", "after", "before", "within", "during", "once", "across",
     "as"}
)


def request(question: str) -> str:
    """The part of a question that asks for a change: the whole; the clause after a colon, a
    semicolon or a dash when the words before it only set the scene ("I just signed in: merge the
    guest cart into mine", "My session is about to expire; keep me signed in", "Password login
    is switched off: send …"), or after the first comma when no such mark parts it ("I forgot
    my password, send a reset link"); the clause before one, when the question after it asks
    what the change should tell ("Test the nightly schedule as if it ticked at midnight: which
    runs would it request?", "Delete organization 9; which teams went with it?"), ended by its
    mark when a verb of change (`WRITE_VERBS`) opens it; or the imperative after a phrase that
    opens with a preposition and ends at the first comma, setting where, when or as whom it
    applies ("In the main menu draft, move 'Sale' under 'Shop'"), in the whole question or in
    that clause."""
    clauses = _CLAUSE_END.split(question)
    if len(clauses) > 1 and question.rstrip().endswith("?"):
        setting, comma, rest = clauses[0].partition(",")
        first = rest if _sets_the_scene(setting, comma) else clauses[0]
        verb = _WORD.findall(first.lower())[:1]
        if verb and verb[0] in _FAMILY_OF:
            # Its mark ends it as a period would: "Delete organization 9; which teams went
            # with it?" (a verb that may read as well needs the sentence's own signs).
            first = first.rstrip() + "."
        if _imperative(first):
            return first
    setting, comma, rest = question.partition(",")
    if _sets_the_scene(setting, comma) and _imperative(rest):
        return rest
    scene = _WORD.findall(clauses[0].lower())
    # A statement of the scene ("Password login is switched off and I'm the admin: send …").
    stated = len(clauses) > 1 and _states(scene)
    if not scene or (scene[0] not in _ASKERS and not stated):
        return question
    if len(clauses) == 1:
        # "I forgot my password, send a reset link to …": the scene up to a comma (`rest`
        # after it), then an imperative, not a participle going on with the scene ("…,
        # showing each one's …").
        verb = _WORD.findall(rest.lower())[:1]
        told = comma and verb and verb[0] not in _DETERMINERS and not verb[0].endswith("ing")
        return rest if told and _imperative(rest) else question
    return next(
        (
            clause
            for clause in clauses[1:]
            if _imperative(clause) and _WORD.findall(clause.lower())[0] not in _DETERMINERS
        ),
        question,
    )


def _sets_the_scene(setting: str, comma: str) -> bool:
    """Whether the text before a first comma (`comma`, empty when there is none) is a phrase
    that opens with a preposition, setting where or when a request applies ("In the main menu
    draft, move …")."""
    opener = _WORD.findall(setting.lower())[:1]
    return bool(comma and opener and opener[0] in _SETTING_PREPOSITIONS)


# The words a read opens with: a question word, or a verb of reading said as a request ("Show
# quote request 7: …", "Which quotes …"). None of the 800 questions of the development corpus
# opening with one asks for a write; "count" ("Count one more view …") and "was" / "were"
# ("We're getting DDoSed — turn on …" reads "were") opened two that did. English, not any
# API's words.
_OPENS_A_READ = frozenset(
    {"what", "which", "who", "whom", "whose", "how", "when", "where", "why", "whats", "is",
     "are", "am", "do", "does", "did", "show", "list", "get", "find", "fetch", "tell",
     "display", "see", "look", "search", "view", "read", "load", "browse", "retrieve",
     "preview", "compare", "describe", "explain"}
)  # fmt: skip


def asks_to_read(question: str) -> bool:
    """Whether a question opens as a read does (`_OPENS_A_READ`): it asks to be shown
    something, whatever writes its words name ("Show quote request 7" is no
    `requestQuotation`); "Do a dry run of …" is a request (`_does_something`)."""
    words = _sentence_words(question)
    return bool(words) and words[0] in _OPENS_A_READ and not _does_something(words)


def asks_for_write(question: str) -> bool:
    """Whether the question asks to change something: an imperative sentence whose verb is
    not one of reading (see the module's docstring): the whole question, or the clause of it
    that asks (`request`)."""
    return _imperative(request(question))


# Words a statement opens with, as its subject, and no imperative does (a function word
# neither: "this post is spam", "my session is about to expire"). English, not any API's words.
_SUBJECTS = frozenset(
    {"i", "im", "ive", "id", "someone", "somebody", "everyone", "everybody", "nobody",
     "something", "everything", "nothing"}
)  # fmt: skip
# A statement's verb after its subject and that subject's name or number ("Order 17 was split
# between sellers: show …", "Build 42 has failed"): an imperative's third word never is one.
_AUXILIARIES = frozenset({"is", "was", "are", "were", "has", "had"})


def _states(words: Sequence[str]) -> bool:
    """Whether a sentence is a statement: a noun, its name, number or another word of it,
    then the statement's verb ("Order 17 was split …", "Password login is switched off")."""
    return len(words) > 2 and words[2] in _AUXILIARIES


def _imperative(question: str) -> bool:
    """Whether one sentence is an imperative of change."""
    text = question.strip()
    words = _sentence_words(text)
    polite = _asked_politely(_WORD.findall(text.lower()))
    if len(words) < 2 or (text.endswith("?") and not polite):
        return False
    verb, following = words[0], words[1]
    if _states(words):
        return False  # "Order 17 was split …": a statement, not a request
    if _does_something(words):
        return True  # "Do a dry run of …", though "do" opens questions
    if verb in FUNCTION_WORDS or verb in _SUBJECTS:
        return False  # a statement's subject ("I'm in meeting 5 and …", "Someone saved …")
    giving = verb == "give" and following not in _ASKERS_OBJECT
    if verb in _ASKING or (verb in _READING and not giving) or verb.isdigit():
        return False
    if verb == "let" and following in {"me", "us"}:
        return len(words) > 2 and words[2] not in _SHOW_ME
    return (
        text[-1] in ".!"
        or polite
        or following in _DETERMINERS
        or bool(re.search("[\"“”]", text))
    )


def _does_something(words: Sequence[str]) -> bool:
    """Whether a sentence opens "do a …" / "do an …" with a noun of no reading: an imperative
    ("Do a dry run of banning …", "Do an export of …"), where "Do the runs …?" and "Do a search
    for …" are not one of change."""
    return len(words) > 2 and words[0] == "do" and words[1] in ("a", "an") and (
        words[2] not in _READING
    )


# Words that put a question in time: it asks when things happened, or only for those of a
# period ("merged last month", "stale", "since 2025-05-01"). English, not any API's words.
TIME_WORDS = frozenset(
    {
        "today", "yesterday", "tomorrow", "hour", "hours", "day", "days", "daily", "week",
        "weeks", "weekly", "month", "months", "monthly", "quarter", "quarterly", "year",
        "years", "yearly", "annual", "recent", "recently", "since", "until", "ago", "stale",
        "when", "date", "dates", "timestamp", "timestamps", "older", "newer", "oldest",
        "newest",
    }
)  # fmt: skip
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}")


# A question that reads a set one page at a time ("20 per page", "25 a page", "ten at a time",
# "the next page", "load more", "whether there are more pages"): English, not any API's
# words. A bare "page" is not one: it is what many schemas keep (a site's pages, "put it on a
# page").
_PAGING = re.compile(
    r"\b(?:per page|(?:\d+|ten|twenty|fifty|hundred) a page|at a time|one page|pages? through|"
    r"paginat\w*|load more|more (?:pages?|results|to load)|"
    r"(?:next|previous|second|third|another|following|older|newer) page)\b"
)
# A question that asks for a set in an order ("newest first", "sorted by title", "cheapest
# first", "in alphabetical order", "the 10 most recently updated pages", "the 5 newest runs").
# "The latest release" alone asks for one object, not an order.
_SORTING = re.compile(
    r"\b(?:sort\w*|ordered|order by|ascending|descending|alphabetical\w*|"
    r"\w+est first|most \w+ first|(?:high|low)\w* first|most recent\w*|"
    r"(?:\d+|five|ten|twenty|fifty|hundred) (?:most )?(?:newest|latest|oldest|recent\w*)"
    r")\b"
)
# Words by which a question looks for text inside a value ("whose name contains 'summer'",
# "search the categories for 'garden'", "titles matching 'api'").
TEXT_SEARCH_WORDS = frozenset(
    {
        "search", "searching", "searches", "contain", "contains", "containing", "match",
        "matches", "matching", "mention", "mentions", "mentioning", "keyword", "keywords",
    }
)  # fmt: skip


# An opaque global object identifier (Relay's Object Identification: `node(id:)` takes it):
# base64 of letters of both cases and digits ("Q2x1c3Rlci0tLTEyMw", "UHJvZHVjdDo3Mg=="), or a
# `gid://` URI. A word, a number, a slug or a hexadecimal hash is none.
GLOBAL_ID = re.compile(
    r"gid://\S+|(?<![\w/+])(?=[a-zA-Z0-9+/]*[A-Z])(?=[a-zA-Z0-9+/]*[a-z])(?=[a-zA-Z0-9+/]*\d)"
    r"[a-zA-Z0-9+/]{12,}={0,2}(?![\w/+=])"
)


def names_global_id(question: str) -> bool:
    """Whether a question gives an object by its opaque global identifier (`GLOBAL_ID`)."""
    return bool(GLOBAL_ID.search(question))


# A question that asks to follow something as it changes, which a subscription answers: its
# verb says so ("Stream the build logs …", "Tail …", "Watch deployment 12 …", "Subscribe to …")
# or a phrase does ("as they come in", "in real time", "let me know whenever …", "warn me as
# soon as …", "tell me when my two-factor setup changes"). "Live" alone is not one: a page, a
# version or an asset "is live"; nor is "tell me when …" of a past or a single event ("… the
# release was published", "… it ends"). English, not any API's words.
_STREAM_VERBS = frozenset({"stream", "tail", "watch", "subscribe"})
_AS_IT_HAPPENS = re.compile(
    r"\bas (?:they|it|things|each one) (?:comes? in|happens?|arrives?)\b|\bin real[- ]?time\b|"
    r"\breal-time\b|\blive (?:updates|feed)\b|\bnotify me\b|\bkeep me (?:posted|updated)\b|"
    r"\b(?:let me know|tell me|alert me|warn me|ping me|inform me)(?: live)? "
    r"(?:whenever|as soon as|each time|every time|the moment)\b|"
    r"\blet me know when\b|\btell me live\b|"
    r"\btell me when\b[^.?!,;]*\b(?:changes?|(?:is|are) (?:ready|updated|changed|added|removed))\b"
)


def streams(question: str, request: Sequence[str] | None = None) -> bool:
    """Whether a question asks to follow something as it changes (`_STREAM_VERBS`,
    `_AS_IT_HAPPENS`): a subscription's answer, not a query's. `request`: its
    `request_words`, where the caller has them."""
    words = request_words(question)[0] if request is None else request
    return bool(words and words[0] in _STREAM_VERBS) or bool(
        _AS_IT_HAPPENS.search(question.lower())
    )


def pages(question: str) -> bool:
    """Whether a question reads a set one page at a time (`_PAGING`)."""
    return bool(_PAGING.search(question.lower()))


def sorts(question: str) -> bool:
    """Whether a question asks for a set in an order (`_SORTING`)."""
    return bool(_SORTING.search(question.lower()))


# A value in quotes: "…", “…” or '…' (an apostrophe inside a word opens none: "customer's").
_QUOTED_VALUE = re.compile(r"\"[^\"]+\"|“[^”]+”|(?<!\w)'[^']+'(?!\w)")


def searches_text(question: str) -> bool:
    """Whether a question looks for a quoted text inside a value: a search word
    (`TEXT_SEARCH_WORDS`) beside a value in quotes ("whose name contains 'summer'"). Without
    the value, the words say what a set holds ("what jobs does each repository contain?") or
    name a thing ("search engines")."""
    lowered = question.lower()
    return bool(_QUOTED_VALUE.search(question)) and not TEXT_SEARCH_WORDS.isdisjoint(
        _WORD.findall(lowered)
    )


# Words by which a question speaks of its asker: "my merge requests", "assigned to me". An
# API's caller is its current, authenticated user. "Show me …" asks, and is not about, them.
FIRST_PERSON = frozenset({"i", "my", "mine", "myself", "me"})
_ASKING_ME = frozenset({"show", "give", "tell", "let", "get", "send", "find", "list"})


def in_first_person(question: str) -> bool:
    """Whether a question is about its asker ("my snippets", "assigned to me"), not only
    addressed by them ("show me the releases")."""
    words = _WORD.findall(question.lower().replace("'", " "))
    return any(
        word in FIRST_PERSON and not (word == "me" and number and words[number - 1] in _ASKING_ME)
        for number, word in enumerate(words)
    )


# Commas by which a question lists the things it wants of an object ("its status, tags,
# pictures, title and description"): two make a list of at least three.
LISTING_COMMAS = 2


def lists_many(question: str) -> bool:
    """Whether the question lists many things it wants (`LISTING_COMMAS`): an answer about an
    object then selects much of it, more than the words of the list name."""
    return question.count(",") >= LISTING_COMMAS


def in_time(question: str) -> bool:
    """Whether a question asks when, or about a period: a time word or a date literal."""
    return bool(_DATE.search(question)) or not TIME_WORDS.isdisjoint(
        _WORD.findall(question.lower())
    )


def requested_write(
    words: Sequence[str],
    writes: dict[str, list[tuple[int, frozenset[str]]]],
    clause: Sequence[str] = (),
    imperative: bool = False,
) -> list[int]:
    """The writes a question in the imperative asks for: those whose name's words (`closeIssue`:
    close, issue) all stand in the question and whose name holds its first word, the verb
    ("Close issue 42", "Add a comment to issue 5", "Post …" for a write named `post`). `writes`
    maps each word of a mutation root field's name to the fields holding it, as (position,
    words); `words`, the request's (`request_words`).
    A question that opens with a noun or a read verb ("merged pull requests", "list …",
    "which …") asks for none: a read naming a write's words is not a write. When no write
    holds the verb, one named by another verb of its family may (`_named_by_family`). Of
    several, those named most by the request's first clause (`clause`, as `request_words`
    gives it; the whole request by default) are asked for (`_named_most`). An `imperative`
    of change (`asks_for_write`) that neither finds asks for the writes its verb names that
    miss one word of their name (`_one_word_short`)."""
    if not words:
        return []
    present = _with_singulars(words)
    found = [(position, name) for position, name in writes.get(words[0], ()) if name <= present]
    clause = clause or words
    found = found or _named_by_family(clause, writes)
    if not found and imperative:
        found = _one_word_short(words[0], present, writes)
    return _named_most(found, clause)


def _one_word_short(
    verb: str, present: set[str], writes: dict[str, list[tuple[int, frozenset[str]]]]
) -> list[tuple[int, frozenset[str]]]:
    """The writes named by a request's verb and at least two more words, all but one of which
    stand in the request: a schema that names its writes by their feature first
    (`ticketChecklistItemDelete`) is asked for them without the feature's name ("Delete the
    item "Order laptop" from checklist 312")."""
    return [
        (position, name)
        for position, name in writes.get(verb, ())
        if len(name) > 2 and len(name - present) <= 1
    ]


def _named_most(found: list[tuple[int, frozenset[str]]], clause: Sequence[str]) -> list[int]:
    """Of the writes a request names (position, words of its name), those with the most words
    of its name in what its verb acts on (`_object_words`), then in its first clause, and
    then the fewest outside that clause: the object and the first clause say what to change,
    the rest what to set or tell ("Create a pipeline called Payments API … in the Linux
    builders cluster" asks for `pipelineCreate`, not `clusterCreate`; "Create a cluster called
    Linux builders with …, and make gpu its default queue" for `clusterCreate`, not
    `clusterQueueCreate`; "Update the edge network settings for service …, and confirm the
    config ID" for `updateServiceEdgeConfig`, not `serviceUpdate`). `clause`: the words of
    the request's first clause (`request_words`)."""
    if len(found) < 2:
        return [position for position, _ in found]
    objects, head = _object_words(clause[1:]), _with_singulars(clause)
    named = {
        position: (len(name & objects), len(name & head), -len(name - head))
        for position, name in found
    }
    most = max(named.values())
    return [position for position, _ in found if named[position] == most]


def _with_singulars(words: Iterable[str]) -> set[str]:
    """Words, and each ending in "s" without it ("tags" → tag, "services" from "service's")."""
    words = set(words)
    return words | {word[:-1] for word in words if word.endswith("s")}


# Where the object of a request's verb ends: a preposition or a conjunction ("Delete the
# "Winter" tag from …", "Rename the team to Infrastructure and …"); and the most words it
# holds (but determiners and function words): a noun phrase rarely holds more.
_OBJECT_ENDS = frozenset(
    {
        "to", "in", "into", "on", "onto", "for", "from", "with", "at", "by", "as", "via",
        "and", "or", "so", "that", "which", "who", "but", "because", "when", "while", "if",
        "then", "instead", "since", "until", "after", "before", "without",
    }
)  # fmt: skip
OBJECT_WORDS = 3
# The prepositions of where a request's verb acts on its object ("… the checklist from ticket
# 50077", "… review 3 on product 12", "… a queue to the Mobile cluster"): a write is often named
# by both (`ticketChecklistDelete`). English, not any API's words.
_PLACES = frozenset({"to", "in", "into", "on", "onto", "from", "of"})


def _object_words(words: Sequence[str]) -> set[str]:
    """The words of what a request's verb acts on (`words`: those after the verb), as
    `_with_singulars`: up to `_OBJECT_ENDS`, at most `OBJECT_WORDS` of them, no number (a
    value, not a name: "Add an 8.25% sales tax rate" acts on a tax rate)."""
    kept: list[str] = []
    for word in words:
        if word in _OBJECT_ENDS or len(kept) == OBJECT_WORDS:
            break
        if word not in _DETERMINERS and word not in FUNCTION_WORDS and not word.isdigit():
            kept.append(word)
    return _with_singulars(kept)


def _named_by_family(
    words: Sequence[str], writes: dict[str, list[tuple[int, frozenset[str]]]]
) -> list[tuple[int, frozenset[str]]]:
    """The writes a request asks for in another verb of the family of its own
    (`WRITE_VERBS`), named by one of the family's first two words, whose other words all
    name what the verb acts on: "Delete the "Winter" tag" asks for `removeTag` in a schema
    whose `delete…` writes change other things. Only the object counts, not the whole
    request: "Rename the group to "Fulfillment" and let it manage orders" asks for no
    `updateOrder`. When none is named so, one named by the object and the place it is acted
    on (`_place_words`) is: "Remove the checklist from ticket 50077" asks for
    `ticketChecklistDelete`, "Delete review 3 on product 12" for `removeProductReview`."""
    verb, objects = words[0], _object_words(words[1:])
    family = [
        (other, position, name)
        for other in _family_verbs(verb, writes)
        if other != verb
        for position, name in writes.get(other, ())
    ]
    found = [(position, name) for other, position, name in family if name - {other} <= objects]
    place = _place_words(words[1:]) if not found else set()
    return found or [
        (position, name)
        for other, position, name in family
        if name - {other} <= objects | place and name & objects and name & place
    ]


def _place_words(words: Sequence[str]) -> set[str]:
    """The words of where a request's verb acts (`words`: those after the verb), as
    `_object_words` reads an object: after the first preposition of place (`_PLACES`)."""
    for number, word in enumerate(words):
        if word in _PLACES:
            return _object_words(words[number + 1 :])
    return set()


def _family_verbs(verb: str, writes: dict[str, list[tuple[int, frozenset[str]]]]) -> list[str]:
    """The verbs of `verb`'s family (`WRITE_VERBS`) a write may be named by: the family's
    first two, English's most common, and the two the schema names most of its writes by
    ("Change tier 5" asks for `editTier` in a schema that edits more than it updates)."""
    family = _FAMILY_OF.get(verb, ())
    most = sorted(family, key=lambda word: len(writes.get(word, ())), reverse=True)
    return list(dict.fromkeys([*family[:2], *most[:2]]))


# A quoted value but a path (`"group/project"` names an object for a lookup to find), and
# the word after it or before it.
_QUOTED_NOT_A_PATH = r"(?:\"[^\"/]+\"|'[^'/]+')"
_QUOTED_THEN_WORD = re.compile(_QUOTED_NOT_A_PATH + r"\s+([a-z]+)")
_WORD_THEN_QUOTED = re.compile(r"\b([a-z]+)\s+" + _QUOTED_NOT_A_PATH)


def quoted_value_nouns(question: str) -> list[str]:
    """The words beside each quoted value that say what the value is: the word after it
    ("the 'main' branch", "the "example" field") and the word before it ("the label "bug"",
    "via JQL "assignee = me""). A quoted value fills an argument, and these words say which."""
    lowered = question.lower()
    return [
        word
        for word in _QUOTED_THEN_WORD.findall(lowered) + _WORD_THEN_QUOTED.findall(lowered)
        if word not in FUNCTION_WORDS
    ]
