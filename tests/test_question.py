"""schemanav.question: a request to change something is told from a question to read by its
grammar alone."""

from __future__ import annotations

import pytest

from schemanav.question import read
from schemanav.question.grammar import asks_for_write


@pytest.mark.parametrize(
    "question",
    [
        "Block this spam account.",
        "Delete the comment I wrote on yesterday's thread",
        "Please mark order 1042 as shipped.",
        "Follow stani!",
        'Create a new group called "Climbers"',
        "Let me sign in as this customer to see their store.",
    ],
)
def test_an_imperative_sentence_asks_for_a_write(question: str) -> None:
    assert asks_for_write(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which orders were cancelled this week?",
        "Show me the open pull requests of octocat/hello.",
        "List every asset of the daily_events job.",
        "draft pull requests not ready",  # keywords: no sentence
        "teams added this year",  # keywords: a noun first, no determiner after it
        "subscription 88 status",
        "Block this spam account?",  # asked, not requested
        "Let me see the cart.",
        "How many views did the signup form get?",
    ],
)
def test_questions_reading_verbs_and_keywords_ask_for_none(question: str) -> None:
    assert not asks_for_write(question)


def test_the_reading_is_one_record_of_the_question() -> None:
    reading = read("Cancel subscription 88.")
    assert reading.question == "Cancel subscription 88." and reading.writes
    assert not read("subscription 88 status").writes
