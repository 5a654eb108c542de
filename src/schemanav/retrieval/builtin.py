"""The backends that ship with schemanav, each by the module that registers it.

A module registers its backends as it is imported (its factories are decorated with
`register_backend`), and the registry imports one the first time a name it holds is asked
for: a search with one backend never loads the others (their modules and option models
were some 10 ms of every command). Only this table is imported up front, so the
registry still imports no backend at import time and there is no import circle.
"""

BUILTIN_MODULES: dict[str, str] = {
    "structural": "schemanav.retrieval.structural",
    "bm25": "schemanav.retrieval.bm25",
    "embedding": "schemanav.retrieval.embedding",
    "embedding-local": "schemanav.retrieval.embedding",
    "hybrid": "schemanav.retrieval.hybrid",
    "hybrid-local": "schemanav.retrieval.hybrid",
}
"""In `defaults.BUILTIN_BACKENDS` order (the order help lists them in)."""
