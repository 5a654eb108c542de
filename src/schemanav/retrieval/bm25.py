"""BM25 over the rendered corpus, with tantivy.

User text never reaches tantivy's query parser (which raises on `AND (`, `~`, unbalanced
quotes…): the question goes through the same analyzer as the index, and the resulting terms
become one disjunction of term queries, which is what a parsed bag-of-words query is anyway.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from schemanav.cache import BM25_INDEX_CACHE, CorruptCacheError, read_regular
from schemanav.defaults import DEFAULT_BM25_TOKENIZER
from schemanav.errors import InputError
from schemanav.events import Events, SilentEvents
from schemanav.question.analyzer import build_analyzer, split_camel
from schemanav.retrieval.base import BackendContext, SearchHit
from schemanav.retrieval.registry import register_backend

if TYPE_CHECKING:
    from schemanav.corpus import Corpus, Format


@dataclass(frozen=True)
class TokenizerSpec:
    name: str
    description: str


TOKENIZERS: dict[str, TokenizerSpec] = {
    spec.name: spec
    for spec in (
        TokenizerSpec("default", "tantivy's default: split on non-alphanumerics, lower-case"),
        TokenizerSpec("en_stem", "default plus the English Snowball stemmer"),
        TokenizerSpec("camel_stem", "also split camelCase words, then stem (English)"),
    )
}


def _prepare_text(tokenizer: str, text: str) -> str:
    """The text handed to the analyzer: identifiers split into words for `camel_stem`."""
    return split_camel(text) if tokenizer == "camel_stem" else text


def _analyzer(name: str) -> Any:
    return build_analyzer(stem=name in ("en_stem", "camel_stem"))


def _check_tokenizer(name: str) -> str:
    if name not in TOKENIZERS:
        raise ValueError(f"unknown BM25 tokenizer {name!r}: choose one of {', '.join(TOKENIZERS)}")
    return name


class BM25Options(BaseModel):
    """`-o tokenizer NAME`: how texts and questions are cut into index terms."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tokenizer: Annotated[str, AfterValidator(_check_tokenizer)] = Field(
        default=DEFAULT_BM25_TOKENIZER,
        description="default, en_stem or camel_stem (see TOKENIZERS)",
    )


class BM25Backend:
    """tantivy BM25 over one rendering of the corpus; the index is cached on disk if asked."""

    def __init__(
        self,
        fmt: Format,
        *,
        tokenizer: str = DEFAULT_BM25_TOKENIZER,
        cache_dir: Path | None = None,
        events: Events | None = None,
    ) -> None:
        try:
            _check_tokenizer(tokenizer)
        except ValueError as err:
            raise InputError(str(err)) from None
        self.fmt = fmt
        self.tokenizer = tokenizer
        self.cache_dir = cache_dir
        self.events = events or SilentEvents()
        self._analyzer_name = f"schemanav_{tokenizer}"

    @property
    def name(self) -> str:
        return "bm25" if self.tokenizer == DEFAULT_BM25_TOKENIZER else f"bm25:{self.tokenizer}"

    def index(self, corpus: Corpus) -> BM25Searcher:
        if self.cache_dir is None:
            return self._searcher(corpus, self._build(corpus, None))
        final = BM25_INDEX_CACHE.path(self.cache_dir, corpus.content_hash(self.fmt), self.tokenizer)
        index, damage = self._open_cached(final, len(corpus))
        if index is None:
            if damage:
                self.events.warning(
                    f"ignoring the damaged BM25 index cache {final} ({damage}); rebuilding it"
                )
            index = self._build_cached(corpus, final)
        return self._searcher(corpus, index)

    def query_terms(self, query: str) -> list[str]:
        """The question as index terms; empty for an empty or all-punctuation question."""
        return _query_terms(_analyzer(self.tokenizer), self.tokenizer, query)

    def _searcher(self, corpus: Corpus, index: Any) -> BM25Searcher:
        return BM25Searcher(
            self.name, self.fmt, self.tokenizer, corpus, index, _analyzer(self.tokenizer)
        )

    def _schema(self) -> Any:
        import tantivy

        builder = tantivy.SchemaBuilder()
        builder.add_text_field("text", tokenizer_name=self._analyzer_name, index_option="freq")
        builder.add_integer_field("ord", stored=True, indexed=False)
        return builder.build()

    def _build(self, corpus: Corpus, path: Path | None) -> Any:
        import tantivy

        index = tantivy.Index(self._schema(), path=str(path) if path else None, reuse=False)
        index.register_tokenizer(self._analyzer_name, _analyzer(self.tokenizer))
        writer = index.writer(heap_size=50_000_000, num_threads=1)
        for position, text in enumerate(corpus.texts(self.fmt)):
            prepared = _prepare_text(self.tokenizer, text)
            writer.add_document(tantivy.Document(text=prepared, ord=position))
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        return index

    def _build_cached(self, corpus: Corpus, final: Path) -> Any:
        """Build in a temporary directory beside the target, then rename it into place."""
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            _sweep(final.parent)
            staging = Path(tempfile.mkdtemp(prefix=_BUILDING, dir=final.parent))
        except OSError:
            return self._build(corpus, None)  # an unusable cache directory only costs speed
        try:
            self._build(corpus, staging)
            marker = {"documents": len(corpus), "files": _file_digests(staging)}
            (staging / "COMPLETE").write_text(json.dumps(marker))
            installed = self._install(staging, final, len(corpus))
        except OSError:
            installed = None
        finally:  # interrupted too: no half-built index stays behind
            shutil.rmtree(staging, ignore_errors=True)  # gone already once installed
        # A cache we cannot write is not an error: search from memory instead.
        return installed if installed is not None else self._build(corpus, None)

    def _install(self, staging: Path, final: Path, documents: int) -> Any:
        """Rename a built index into place, or use the whole one another process put there.

        A cache in place is never changed or deleted where it stands: another process may be
        searching it, and tantivy reads its files lazily. A damaged one is first renamed aside
        in one step, so no reader ever sees a directory half-deleted.
        """
        for _ in range(2):
            try:
                os.rename(staging, final)  # refused while a non-empty `final` exists
            except OSError:
                opened, _ = self._open_cached(final, documents)
                if opened is not None:
                    return opened
                _discard(final)
                continue
            return self._open_cached(final, documents)[0]
        return None

    def _open_cached(self, path: Path, documents: int) -> tuple[Any, str]:
        """The cached index, or None and why it cannot be used ("" when there is none)."""
        import tantivy

        if not path.exists():
            return None, ""
        try:
            marker = json.loads(read_regular(path / "COMPLETE", _MAX_MARKER_BYTES))
            if not isinstance(marker, dict) or marker.get("documents") != documents:
                return None, "its completion marker does not match this corpus"
            if marker.get("files") != _file_digests(path):
                # A damaged segment: tantivy would fail (or panic) mid-search.
                return None, "its files changed after it was written"
            index = tantivy.Index.open(str(path))
            index.register_tokenizer(self._analyzer_name, _analyzer(self.tokenizer))
            if index.searcher().num_docs != documents:
                return None, "it holds another number of documents"
            return index, ""
        except (OSError, ValueError, RecursionError, CorruptCacheError) as err:
            return None, f"cannot read it: {str(err)[:200]}"


def _query_terms(analyzer: Any, tokenizer: str, query: str) -> list[str]:
    return list(analyzer.analyze(_prepare_text(tokenizer, query)))


@dataclass(frozen=True)
class BM25Searcher:
    """A built tantivy index over one rendering of one corpus."""

    name: str
    fmt: Format
    tokenizer: str
    corpus: Corpus
    index: Any
    analyzer: Any

    def query_terms(self, query: str) -> list[str]:
        return _query_terms(self.analyzer, self.tokenizer, query)

    def search(self, query: str, k: int) -> list[SearchHit]:
        import tantivy

        terms = self.query_terms(query)
        if not terms or k < 1:
            return []
        schema = self.index.schema
        clauses = [
            (tantivy.Occur.Should, tantivy.Query.term_query(schema, "text", term)) for term in terms
        ]
        searcher = self.index.searcher()
        result = searcher.search(tantivy.Query.boolean_query(clauses), k, count=False)
        texts = self.corpus.texts(self.fmt)  # rendered once per corpus, for the cache key
        tokens = self.corpus.token_counts(self.fmt)
        hits = []
        for rank, (score, address) in enumerate(result.hits, start=1):
            position = searcher.doc(address)["ord"][0]
            hits.append(
                SearchHit(
                    coordinate=self.corpus.coordinates[position],
                    text=texts[position],
                    score=float(score),
                    rank=rank,
                    tokens=tokens[position],
                )
            )
        return hits


def _discard(directory: Path) -> None:
    """Rename a directory aside, then delete it; nothing if it is already gone."""
    aside = directory.with_name(f"{_DISCARDED}{secrets.token_hex(6)}-{directory.name}")
    try:
        os.rename(directory, aside)
    except OSError:
        return
    shutil.rmtree(aside, ignore_errors=True)


def _sweep(directory: Path) -> None:
    """Delete what a killed process left beside the indexes (a build it never finished, a
    damaged index it had renamed aside), once it is `_LEFT_BEHIND_AFTER_S` old: never a
    build another process has in hand."""
    cutoff = time.time() - _LEFT_BEHIND_AFTER_S
    try:
        entries = list(directory.iterdir())
    except OSError:
        return  # a directory we may write but not list: the sweep is only tidying
    for path in entries:
        if not path.name.startswith((_BUILDING, _DISCARDED)):
            continue
        with contextlib.suppress(OSError):
            status = path.lstat()
            if stat.S_ISDIR(status.st_mode) and status.st_mtime < cutoff:
                shutil.rmtree(path, ignore_errors=True)


# The temporary directories beside the indexes: one being built, one renamed aside to delete.
_BUILDING = ".building-"
_DISCARDED = ".discarded-"
_LEFT_BEHIND_AFTER_S = 3600


def _file_digests(directory: Path) -> dict[str, str]:
    """SHA-256 of each index file: tantivy opens a garbled segment without complaint."""
    return {
        path.name: hashlib.sha256(read_regular(path)).hexdigest()
        for path in sorted(directory.iterdir())
        if not path.name.startswith(".") and path.name != "COMPLETE" and not path.is_dir()
    }


_MAX_MARKER_BYTES = 1 << 20


@register_backend("bm25", options=BM25Options)
def _bm25_factory(options: BM25Options, context: BackendContext) -> BM25Backend:
    return BM25Backend(
        context.fmt, tokenizer=options.tokenizer, cache_dir=context.cache_dir, events=context.events
    )
