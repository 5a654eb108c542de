"""What a question says, read once: from its words alone, then against a schema's type names.

A rule of the form "a question that says X" lives here, so the ranking and the slicer read the
question the same way: `analyzer` turns text into the index's terms (camelCase split,
lower-cased, stemmed: the one analyzer of the BM25 index, the structural ranking and the
slicer), `grammar` holds the rules of English a question is read by (is it a request to change
something? which words does its verb of change stand for?), `reading` the frozen record of one
question's reading that both take, and `vocabulary` the reading against one schema's type names
(one object or many, short forms, values that are not words), by one `TypeReader` per schema
that both take. The schema reaches this package only as names: it imports nothing of the schema,
the corpus, the graph or the retrieval.
"""

from schemanav.question.reading import Reading, read

__all__ = ["Reading", "read"]
