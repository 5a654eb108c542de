"""The one text analyzer of schemanav: how questions and schema text become index terms.

It lives with the question's reading (`schemanav.question`): a question's words are what the
ranking and the slicer read, and the schema's names go through the same analyzer.

BM25 (inside tantivy) and the structural backend (in Python) must turn `pullRequests` and
"pull requests" into the same terms, so both build their analyzer here: split camelCase into
words (an irregular plural read as its singular), drop overlong tokens, lower-case, and
optionally stem with the English Snowball stemmer.
"""

from __future__ import annotations

import re
from typing import Any

from schemanav.question.vocabulary import IRREGULAR_PLURALS

# camelCase and PascalCase words split into parts (tantivy's regex tokenizer has no
# look-ahead, so the split happens on the text before it reaches the analyzer); an acronym's
# plural is one word ("IDs", "URLs": not "I Ds", "UR Ls").
CAMEL_WORDS = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
# The `I` that names an interface (`ISolidDefinition`) is no word: the pronoun in "may I"
# must not find it. Not before a short hump (`IPv4`).
INTERFACE_PREFIX = re.compile(r"\bI(?=[A-Z][a-z]{2})")
MAX_TOKEN_LENGTH = 40


# English nouns whose plural the Snowball stemmer does not bring back to the singular
# (`IRREGULAR_PLURALS`): read as that singular.
_SINGULARS = {plural: singular for singular, plural in IRREGULAR_PLURALS.items()}


def split_camel(text: str) -> str:
    """`pullRequests(first:)` → `pull Requests first`: identifiers as separate words, an
    irregular plural as its singular (`children` → `child`), an interface's `I` dropped."""
    words = CAMEL_WORDS.findall(INTERFACE_PREFIX.sub("", text))
    return " ".join(_SINGULARS.get(word.lower(), word) for word in words)


def build_analyzer(*, stem: bool) -> Any:
    """A tantivy `TextAnalyzer`: simple tokenizer, long tokens removed, lower-case[, stem]."""
    import tantivy

    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    builder = builder.filter(tantivy.Filter.remove_long(MAX_TOKEN_LENGTH))
    builder = builder.filter(tantivy.Filter.lowercase())
    if stem:
        builder = builder.filter(tantivy.Filter.stemmer("english"))
    return builder.build()


class Stemmer:
    """camelCase-aware words, lower-cased and stemmed; memoised, since names repeat a lot."""

    def __init__(self) -> None:
        self._analyzer = build_analyzer(stem=True)
        self._memo: dict[str, list[str]] = {}

    def __call__(self, text: str | None) -> list[str]:
        if not text:
            return []
        words = self._memo.get(text)
        if words is None:
            words = list(self._analyzer.analyze(split_camel(text)))
            self._memo[text] = words
        return words
