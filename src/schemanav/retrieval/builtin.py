"""The backends that ship with schemanav; importing this module registers them.

Registration is a side effect of importing each backend module (its factory is decorated with
`register_backend`). Keeping that import here, and not in the registry, means the registry
never imports a backend, so there is no import circle; heavy libraries load lazily inside.
"""

from schemanav.retrieval import bm25, embedding, hybrid, structural

BUILTIN_MODULES = (bm25, embedding, hybrid, structural)
