"""Question texts that trip naive query parsers and tokenizers, for every test that asks a
backend, the library or the command line something hostile: query-syntax characters (quotes,
field colons, brackets, boolean words, wildcards, fuzzy and boost marks, ranges), escapes,
emoji, non-Latin scripts, a NUL byte, and lengths just inside and past the question limit.
"""

from __future__ import annotations

HOSTILE_QUESTIONS: tuple[str, ...] = (
    '"unbalanced quote',
    'movie "rating',
    "title:movie",
    "title:rating",
    "Movie.rating:high",
    "field:(release date",
    "(movie rating",
    "release) date]",
    "movie) rating(",
    "movie AND NOT title",
    "movie AND rating OR NOT title",
    "title OR OR name",
    "AND",
    "NOT",
    "movie*",
    "*movie?",
    "rat*",
    "date~2",
    "rating~2",
    "movie^3 rating",
    "movie^10 rating",
    "back\\slash\\",
    "back\\slash\\ rating\\",
    "C:\\path\\to",
    "[[{unbalanced",
    "[movie TO rating",
    "{rating}",
    "+required -excluded",
    "+movie -rating",
    "🎬 movie release 🍿",
    "movie 🎬 rating ⭐⭐⭐",
    "emoji only 🎬🎬🎬",
    "🎬",
    "ünïcödé naïve café",
    "films d'amour « très bien notés »",
    "電影 上映日期",
    "映画 評価",
    "release\x00date",
    "rating\x00movie",
    "'single' `back` ticks",
    "a/b/c && |pipe| ; drop",
    "/regex.*/",
    "movie" * 204,  # 1,020 characters: just inside the 1,024-character limit
    "x" * 2000,  # past it: the command line refuses it, a backend still answers
)

# The one question above without a searchable word: the command line refuses it (exit 2).
NO_SEARCHABLE_WORDS = "🎬"
