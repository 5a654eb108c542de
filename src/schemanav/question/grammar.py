"""The rules of English that tell a request to change something from a question to read.

A user asks for a write in the imperative ("Block this spam account.", "Delete the draft I
wrote yesterday", "Put product 12 into the new-arrivals category"), and rarely with the
mutation's own verb (`addReaction` for "like", `removeOrder` for "delete the cart"). A read is a
question ("which …?", "how many …"), an imperative of reading ("show", "list", "find"), or a
string of keywords ("draft pull requests not ready"). Keywords and imperatives look alike in
their first word, so an imperative is taken only as a sentence: its verb followed by a
determiner or a pronoun ("this", "the", "my"), or ending in a full stop or an exclamation mark,
or quoting a value (a number after the first word is a keyword lookup: "subscription 88
status").
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")
# Words that may open a request before its verb ("please close issue 42").
POLITE = frozenset({"please", "kindly", "now", "just", "also", "then", "so"})
# Words that open a question, and verbs of reading: a sentence opening with one reads.
_ASKING = frozenset(
    {
        "what", "which", "who", "whom", "whose", "how", "when", "where", "why", "whats",
        "is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "would",
        "should", "will", "has", "have", "had", "i", "we", "my", "our", "there", "it",
    }
)
_READING = frozenset(
    {
        "show", "list", "get", "find", "fetch", "give", "tell", "display", "count", "see",
        "look", "search", "check", "view", "read", "load", "browse", "return", "retrieve",
        "open", "preview", "compare", "describe", "explain", "summarise", "summarize",
        "stream", "suggest", "watch", "monitor", "lookup", "query", "print", "download",
        "inspect", "calculate", "estimate", "before", "after", "across", "since", "if",
        "for", "in", "on", "of", "from", "with", "by", "at", "per", "the", "a", "an", "all",
        "any", "every", "each", "this", "that", "these", "those", "latest", "last", "first",
        "recent", "top", "most",
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


def asks_for_write(question: str) -> bool:
    """Whether the question asks to change something: an imperative sentence whose verb is
    not one of reading (see the module's docstring)."""
    text = question.strip()
    words = _WORD.findall(text.lower().replace("'", ""))
    while words and words[0] in POLITE:
        words = words[1:]
    if len(words) < 2 or text.endswith("?"):
        return False
    verb, following = words[0], words[1]
    if verb in _ASKING or verb in _READING or verb.isdigit():
        return False
    if verb == "let" and following in {"me", "us"}:
        return len(words) > 2 and words[2] not in _SHOW_ME
    return (
        text[-1] in ".!"
        or following in _DETERMINERS
        or bool(re.search("[\"“”]", text))
    )
