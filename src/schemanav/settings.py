"""Settings: every option is a CLI flag, a `SCHEMANAV_…` environment variable and a key of an
optional `schemanav.toml` in the working directory. Precedence: flag > env > file > default.

The CLI passes only the flags the user actually gave, so an unset flag never hides an
environment variable or a file entry.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from schemanav.errors import InputError

CONFIG_FILE = "schemanav.toml"
# Settings a file cannot set: a schemanav.toml may come with a checked-out repository, and it
# must not make the agent send mutations with the user's token.
NOT_FROM_FILE = ("allow_mutations",)

DEFAULT_QUERY_PREFIX = (
    "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"
)


def default_cache_dir() -> Path:
    """The user cache dir: $XDG_CACHE_HOME/schemanav, ~/Library/Caches on macOS."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif os.uname().sysname == "Darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "schemanav"


with warnings.catch_warnings():
    # `schema` is the natural name for the option; it shadows a deprecated pydantic classmethod.
    warnings.simplefilter("ignore", UserWarning)

    class Settings(BaseSettings):
        """Every tunable of schemanav, with its default."""

        model_config = SettingsConfigDict(
            env_prefix="SCHEMANAV_",
            toml_file=CONFIG_FILE,
            extra="forbid",
            validate_default=True,
        )

        # schema source
        schema: str | None = Field(  # type: ignore[assignment]
            default=None, description="SDL file, introspection JSON file or http(s) URL"
        )
        header: Annotated[list[str], NoDecode] = Field(
            default_factory=list, description="'Name: value' headers"
        )
        timeout: float = Field(default=30.0, gt=0, description="HTTP timeout in seconds")
        cache_dir: Path = Field(default_factory=default_cache_dir)

        # retrieval
        backend: str = "structural"
        format: str = "DOT_PLUS_GLOSS"
        k: int | None = Field(
            default=None, ge=1, description="hits; default 10, or all that fit --budget"
        )
        budget: int | None = Field(default=None, ge=1)
        bm25_tokenizer: str = "en_stem"
        max_paths: int = Field(default=2, ge=0, description="paths to root shown per hit")

        # embeddings
        ollama_host: str | None = None
        embedding_model: str = "qwen3-graphql-embedder"
        embedding_batch_size: int = Field(default=32, ge=1)
        embedding_timeout: float = Field(default=120.0, gt=0)
        query_prefix: str = DEFAULT_QUERY_PREFIX
        document_prefix: str = ""
        local_model: str = "all-MiniLM-L6-v2"

        # bench
        bench_file: str | None = None
        ks: Annotated[list[int], NoDecode] = Field(default_factory=lambda: [1, 5, 10, 20, 50])
        budgets: Annotated[list[int], NoDecode] = Field(
            default_factory=lambda: [125, 250, 500, 1000, 2000]
        )
        strict: bool = False

        # agent
        model: str = "qwen3:8b"
        max_calls: int = Field(default=12, ge=1)
        num_ctx: int | None = Field(default=None, ge=256)
        endpoint: str | None = None
        allow_mutations: bool = False
        response_token_cap: int = Field(default=2000, ge=50)
        chat_timeout: float = Field(default=600.0, gt=0, description="seconds per model call")

        @field_validator("ks", "budgets", mode="before")
        @classmethod
        def _split_commas(cls, value: Any) -> Any:
            """`1,5,10` from a flag or the environment; a TOML list passes through."""
            if isinstance(value, str):
                if value.lstrip().startswith("["):
                    return json.loads(value)
                return [part.strip() for part in value.split(",") if part.strip()]
            if isinstance(value, int):
                return [value]
            return value

        @field_validator("header", mode="before")
        @classmethod
        def _one_or_many_headers(cls, value: Any) -> Any:
            """SCHEMANAV_HEADER holds one header, or a JSON list of them."""
            if isinstance(value, str):
                return json.loads(value) if value.lstrip().startswith("[") else [value]
            return value

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            return (init_settings, env_settings, _FileSource(settings_cls))


class _FileSource(TomlConfigSettingsSource):
    """./schemanav.toml, refusing the keys in `NOT_FROM_FILE`."""

    def __call__(self) -> dict[str, Any]:
        values = super().__call__()
        for key in NOT_FROM_FILE:
            if key in values:
                flag = "--" + key.replace("_", "-")
                raise InputError(
                    f"{CONFIG_FILE} cannot set {key} (a file that came with a repository must "
                    f"not switch it on): remove it and pass {flag}, or set "
                    f"SCHEMANAV_{key.upper()}=1 in the environment"
                )
        return values


def load_settings(**flags: Any) -> Settings:
    """Settings from flags (None = not given), the environment and ./schemanav.toml."""
    given = {key: value for key, value in flags.items() if value is not None}
    try:
        return Settings(**given)
    except ValidationError as err:
        raise InputError(_describe(err)) from None
    except (OSError, ValueError) as err:
        # A malformed schemanav.toml surfaces as a TOML decode error (a ValueError).
        raise InputError(f"cannot read {CONFIG_FILE}: {err}") from None


def _describe(err: ValidationError) -> str:
    first = err.errors()[0]
    key = ".".join(str(part) for part in first["loc"]) or "settings"
    if first["type"] == "extra_forbidden":
        return (
            f"unknown setting {key!r} (in {CONFIG_FILE} or the environment): "
            "check the spelling against `schemanav --help`"
        )
    return f"invalid setting {key}: {first['msg']}"
