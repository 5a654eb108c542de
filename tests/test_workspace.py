"""The corpus cache: reused when intact, ignored and rewritten when it does not add up."""

from __future__ import annotations

import json
from pathlib import Path

from schemanav.corpus import Format
from schemanav.settings import Settings
from schemanav.workspace import open_corpus


def test_a_cache_with_too_few_token_counts_is_ignored_and_rewritten(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    assert not first.from_cache
    assert open_corpus(settings).from_cache
    (cache_file,) = (tmp_path / "corpus").iterdir()
    payload = json.loads(cache_file.read_text())
    payload["tokens"]["GLOSS"] = payload["tokens"]["GLOSS"][:-1]
    cache_file.write_text(json.dumps(payload))

    again = open_corpus(settings)
    assert not again.from_cache
    assert again.corpus.token_counts(Format.GLOSS) == first.corpus.token_counts(Format.GLOSS)
    assert open_corpus(settings).from_cache  # rewritten whole
