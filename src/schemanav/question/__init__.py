"""What a question says, read once from its words, before any schema is consulted.

A rule of the form "a question that says X" lives here, so the ranking and the slicer read
the question the same way: `grammar` holds the rules of English a question is read by (is it a
request to change something?), `reading` the frozen record of one question's reading that
both take.
"""

from schemanav.question.reading import Reading, read

__all__ = ["Reading", "read"]
