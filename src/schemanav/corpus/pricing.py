"""What a schema costs to hand to a model, in each form it could be handed over."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schemanav.corpus.model import Corpus, Format
from schemanav.records import to_json
from schemanav.schema.loading import LoadedSchema
from schemanav.tokens import ENCODING_NAME, count_tokens


@dataclass(frozen=True)
class SchemaPrice:
    schema: str
    encoding: str
    coordinates: int
    corpus_tokens: dict[str, int]
    sdl_tokens: int
    introspection_tokens: int

    def as_dict(self) -> dict[str, Any]:
        return to_json(self)


def price_schema(
    label: str,
    loaded: LoadedSchema | None,
    corpus: Corpus,
    counted: tuple[int, int] | None = None,
) -> SchemaPrice:
    """Token counts of the corpus in all four formats, of the SDL text and of introspection JSON.

    `counted` gives the SDL and introspection JSON counts measured earlier (then `loaded` may be
    None); otherwise they are counted from `loaded`.
    """
    if counted is None:
        if loaded is None:
            raise ValueError("price_schema needs the loaded schema or its counts")
        counted = (count_tokens(loaded.sdl), count_tokens(loaded.introspection_json()))
    return SchemaPrice(
        schema=label,
        encoding=ENCODING_NAME,
        coordinates=len(corpus),
        corpus_tokens={fmt.value: corpus.total_tokens(fmt) for fmt in Format},
        sdl_tokens=counted[0],
        introspection_tokens=counted[1],
    )
