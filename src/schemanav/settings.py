"""Settings: every option is a CLI flag, a `SCHEMANAV_…` environment variable and a key of an
optional `schemanav.toml` in the working directory. Precedence: flag > env > file > default.

The CLI passes only the flags the user actually gave, so an unset flag never hides an
environment variable or a file entry. Backend-specific knobs live in `options`: `-o KEY VALUE`
on the command line, a `[options]` table in the file, `SCHEMANAV_OPTIONS` (a JSON object) in
the environment.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import Field, PrivateAttr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from schemanav.defaults import (
    DEFAULT_AGENT_SLICE_BUDGET,
    DEFAULT_BACKEND,
    DEFAULT_BUDGETS,
    DEFAULT_CHAT_API,
    DEFAULT_CHAT_KEY_ENV,
    DEFAULT_CHAT_MODEL,
    DEFAULT_FORMAT,
    DEFAULT_KS,
    DEFAULT_MAX_ALIASES,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_PATHS,
    DEFAULT_TEMPERATURE,
    SETTING_HELP,
)
from schemanav.errors import InputError
from schemanav.limits import MAX_JSON_DEPTH, TooDeep, loads_json

CONFIG_FILE = "schemanav.toml"
# Settings a file cannot set: a schemanav.toml may come with a checked-out repository, and it
# must not make the agent send mutations with the user's token.
NOT_FROM_FILE = ("allow_mutations",)
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
MAX_TIMEOUT_SECONDS = 86_400.0
"""`timeout` and `chat_timeout` are at most a day: `inf` or `1e300` would overflow the clock."""


def default_cache_dir() -> Path:
    """The user cache dir: $XDG_CACHE_HOME/schemanav, ~/Library/Caches on macOS."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif os.uname().sysname == "Darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "schemanav"


class _TomlFile(TomlConfigSettingsSource):
    """schemanav.toml, where a key may be spelt like its flag (`max-paths`) or its field
    (`max_paths`), at the top level and in the `[options]` table."""

    def _read_file(self, file_path: Any) -> dict[str, Any]:
        return {
            key.replace("-", "_"): (
                {option.replace("-", "_"): item for option, item in value.items()}
                if key.replace("-", "_") == "options" and isinstance(value, dict)
                else value
            )
            for key, value in super()._read_file(file_path).items()
        }


def _about(name: str) -> str:
    return SETTING_HELP[name]


with warnings.catch_warnings():
    # `schema` is the natural name for the option; it shadows a deprecated pydantic classmethod.
    warnings.simplefilter("ignore", UserWarning)

    class Settings(BaseSettings):
        """Every tunable of schemanav, with its default (from `schemanav.defaults`).

        `options` holds the backend-specific knobs (`-o KEY VALUE`, a `[options]` table in
        schemanav.toml, or `SCHEMANAV_OPTIONS` as a JSON object); each backend validates the
        keys it accepts with its own options model.
        """

        model_config = SettingsConfigDict(
            env_prefix="SCHEMANAV_",
            toml_file=CONFIG_FILE,
            extra="forbid",
            validate_default=True,
        )

        # schema source
        schema: str | None = Field(  # type: ignore[assignment]
            default=None, description=_about("schema")
        )
        header: Annotated[list[str], NoDecode] = Field(
            default_factory=list, description=_about("header")
        )
        timeout: float = Field(
            default=30.0, gt=0, le=MAX_TIMEOUT_SECONDS, description=_about("timeout")
        )
        cache_dir: Path = Field(default_factory=default_cache_dir, description=_about("cache_dir"))

        # retrieval
        backend: Annotated[list[str], NoDecode] = Field(
            default_factory=lambda: [DEFAULT_BACKEND], description=_about("backend")
        )
        format: Annotated[list[str], NoDecode] = Field(
            default_factory=lambda: [DEFAULT_FORMAT], description=_about("format")
        )
        k: int | None = Field(default=None, ge=1, description=_about("k"))
        budget: int | None = Field(default=None, ge=1, description=_about("budget"))
        max_paths: int = Field(default=DEFAULT_MAX_PATHS, ge=0, description=_about("max_paths"))
        options: dict[str, Any] = Field(default_factory=dict, description=_about("options"))

        # bench
        bench_file: str | None = Field(default=None, description=_about("bench_file"))
        ks: Annotated[list[int], NoDecode] = Field(
            default_factory=lambda: list(DEFAULT_KS), description=_about("ks")
        )
        budgets: Annotated[list[int], NoDecode] = Field(
            default_factory=lambda: list(DEFAULT_BUDGETS), description=_about("budgets")
        )
        jobs: int | None = Field(default=None, ge=1, description=_about("jobs"))
        strict: bool = Field(default=False, description=_about("strict"))
        output: Annotated[list[str], NoDecode] = Field(
            default_factory=lambda: ["list"], description=_about("output")
        )
        quiet: bool = Field(default=False, description=_about("quiet"))

        # agent
        model: str = Field(default=DEFAULT_CHAT_MODEL, description=_about("model"))
        ollama_host: str | None = Field(default=None, description=_about("ollama_host"))
        max_calls: int = Field(default=12, ge=1, description=_about("max_calls"))
        num_ctx: int | None = Field(default=None, ge=256, description=_about("num_ctx"))
        endpoint: str | None = Field(default=None, description=_about("endpoint"))
        allow_mutations: bool = Field(default=False, description=_about("allow_mutations"))
        response_token_cap: int = Field(
            default=2000, ge=50, description=_about("response_token_cap")
        )
        chat_timeout: float = Field(
            default=600.0, gt=0, le=MAX_TIMEOUT_SECONDS, description=_about("chat_timeout")
        )
        chat_api: Literal["ollama", "openai"] = Field(
            default=cast(Literal["ollama", "openai"], DEFAULT_CHAT_API),
            description=_about("chat_api"),
        )
        chat_url: str | None = Field(default=None, description=_about("chat_url"))
        chat_key_env: str = Field(default=DEFAULT_CHAT_KEY_ENV, description=_about("chat_key_env"))
        temperature: float = Field(
            default=DEFAULT_TEMPERATURE, ge=0, le=2, description=_about("temperature")
        )
        slice_budget: int = Field(
            default=DEFAULT_AGENT_SLICE_BUDGET, ge=50, description=_about("slice_budget")
        )
        max_depth: int = Field(default=DEFAULT_MAX_DEPTH, ge=1, description=_about("max_depth"))
        max_aliases: int = Field(
            default=DEFAULT_MAX_ALIASES, ge=0, description=_about("max_aliases")
        )
        max_nodes: int = Field(default=DEFAULT_MAX_NODES, ge=1, description=_about("max_nodes"))

        @field_validator("ks", "budgets", mode="before")
        @classmethod
        def _split_commas(cls, value: Any) -> Any:
            """`1,5,10` from a flag or the environment; a TOML list passes through."""
            if isinstance(value, str):
                if value.lstrip().startswith("["):
                    return loads_json(value, max_depth=MAX_JSON_DEPTH)
                return [part.strip() for part in value.split(",") if part.strip()]
            if isinstance(value, int):
                return [value]
            return value

        @field_validator("backend", "format", "output", mode="before")
        @classmethod
        def _names(cls, value: Any) -> Any:
            """`bm25,structural` from a flag or the environment (a JSON list too), or
            `backend = ["bm25", "structural"]` in schemanav.toml: the names, blanks dropped,
            each once."""
            if isinstance(value, str):
                value = (
                    loads_json(value, max_depth=MAX_JSON_DEPTH)
                    if value.lstrip().startswith("[")
                    else value.split(",")
                )
            if isinstance(value, list | tuple):
                return list(dict.fromkeys(str(item).strip() for item in value if str(item).strip()))
            return value

        @field_validator("chat_key_env")
        @classmethod
        def _a_variable_name(cls, value: str) -> str:
            """The NAME of a variable; anything else may be the key itself, so it is refused
            without being repeated."""
            if not _ENV_NAME.fullmatch(value):
                raise ValueError(
                    "give the NAME of an environment variable (letters, digits and _, such as "
                    "OPENAI_API_KEY), never the key itself"
                )
            return value

        @field_validator("header", mode="before")
        @classmethod
        def _one_or_many_headers(cls, value: Any) -> Any:
            """SCHEMANAV_HEADER holds one header, or a JSON list of them."""
            if isinstance(value, str):
                if value.lstrip().startswith("["):
                    return loads_json(value, max_depth=MAX_JSON_DEPTH)
                return [value]
            return value

        # Settings whose value came from schemanav.toml (not a flag or the environment).
        _from_file: frozenset[str] = PrivateAttr(default=frozenset())
        # The flags the user gave, as typed (`-k`), by setting.
        _flags: dict[str, str] = PrivateAttr(default_factory=dict)

        @property
        def from_file(self) -> frozenset[str]:
            return self._from_file

        def source(self, name: str) -> str:
            """Where setting `name` came from, for an error about its value: the flag as
            typed, the environment variable, schemanav.toml and its line, or the default."""
            flag = "--" + name.replace("_", "-")
            if name in self._flags:
                return self._flags[name]
            variable = f"SCHEMANAV_{name.upper()}"
            if variable in {key.upper() for key in os.environ}:
                return variable
            if name in self._from_file:
                return file_place(name)
            return f"the default of {flag}"

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


class _FileSource(_TomlFile):
    """./schemanav.toml (flag or field spelling), refusing the keys in `NOT_FROM_FILE`."""

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


def file_place(name: str) -> str:
    """`schemanav.toml, line N (key)` for a setting the file holds (its line when found)."""
    return f"{name} in {CONFIG_FILE}{_line_note(name)}"


def _line_note(name: str) -> str:
    line = _file_line(name)
    return f" line {line}" if line else ""


def _file_line(name: str) -> int | None:
    try:
        lines = Path(CONFIG_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    spellings = {name, name.replace("_", "-")}
    for number, line in enumerate(lines, start=1):
        key = line.split("=", 1)[0].strip().strip("\"'")
        if "=" in line and key in spellings:
            return number
    return None


def single(settings: Settings, name: Literal["backend", "format"]) -> str:
    """The one backend or format of a command that uses one (a list is for `bench`)."""
    values: list[str] = getattr(settings, name)
    if len(values) != 1:
        listed = ",".join(values)
        raise InputError(
            f"one {name} is used here, not {listed or 'none'} (--{name} {listed}): pick one, "
            f"or compare several with `schemanav bench --{name} {listed}`"
        )
    return values[0]


def load_settings(**flags: Any) -> Settings:
    """Settings from flags (None = not given), the environment and ./schemanav.toml.

    `options` given as a flag are merged key by key over those of the environment or the file
    (`-o tokenizer default` keeps a `[options]` model set in schemanav.toml).
    """
    return load_typed_settings(flags, spelled={})


def load_typed_settings(flags: Mapping[str, Any], spelled: Mapping[str, str]) -> Settings:
    """`load_settings`, where `spelled` names each flag as the user typed it (`-k`), for the
    error that refuses its value."""
    given = {key: value for key, value in flags.items() if value is not None}
    _refuse_deep_json_variables()
    try:
        if given.get("options"):
            below = Settings(**{k: v for k, v in given.items() if k != "options"}).options
            given["options"] = {**below, **given["options"]}
        settings = Settings(**given)
    except ValidationError as err:
        raise InputError(_describe(err, given, spelled)) from None
    except (OSError, ValueError) as err:
        # A variable pydantic-settings cannot decode (SCHEMANAV_OPTIONS='not json') is a
        # SettingsError naming its source; a malformed schemanav.toml a TOML decode error.
        from_env = re.search(r'field "(\w+)" from source "EnvSettingsSource"', str(err))
        if from_env:
            name = from_env.group(1)
            shape = "a JSON object" if name == "options" else "a JSON value"
            raise InputError(
                f"invalid SCHEMANAV_{name.upper()} (the environment variable of "
                f"{_flag_of(name)}): not {shape}, e.g. "
                + ('\'{"tokenizer": "camel_stem"}\'' if name == "options" else "'[1, 5]'")
            ) from None
        raise InputError(f"cannot read {CONFIG_FILE}: {str(err)[:300]}") from None
    except RecursionError:  # the environment's JSON was checked above: the file's TOML
        raise InputError(
            f"cannot read {CONFIG_FILE}: it is nested too deeply; keep its tables and lists "
            f"at most {MAX_JSON_DEPTH} levels deep"
        ) from None
    environment = {key.upper() for key in os.environ}
    settings._from_file = frozenset(
        key
        for key in settings.model_fields_set
        if key not in given and f"SCHEMANAV_{key.upper()}" not in environment
    )
    settings._flags = {name: spelled.get(name, _flag_of(name)) for name in given}
    return settings


def _refuse_deep_json_variables() -> None:
    """A `SCHEMANAV_…` variable that holds JSON (`SCHEMANAV_OPTIONS`, a list in
    `SCHEMANAV_HEADER`, `SCHEMANAV_KS`…) nested deeper than `MAX_JSON_DEPTH` is one error
    naming it, before pydantic's own parser recurses into it."""
    for name, value in os.environ.items():
        if not name.upper().startswith("SCHEMANAV_") or value.lstrip()[:1] not in ("[", "{"):
            continue
        try:
            loads_json(value, max_depth=MAX_JSON_DEPTH)
        except TooDeep:
            raise InputError(
                f"{name} is nested more than {MAX_JSON_DEPTH} levels deep: set it to a flat "
                "value (a JSON object or list of plain values)"
            ) from None
        except ValueError:
            continue  # not JSON: the setting's own check says what is wrong


def _flag_of(name: str) -> str:
    return "-o" if name == "options" else "--" + name.replace("_", "-")


def _describe(err: ValidationError, flags: dict[str, Any], spelled: Mapping[str, str]) -> str:
    """One line naming the setting where the user wrote it: the flag (`--k`), the environment
    variable (`SCHEMANAV_K`) or the key of schemanav.toml."""
    first = err.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else "settings"
    if first["type"] == "extra_forbidden":
        return (
            f"unknown setting {name!r} in {CONFIG_FILE}{_line_note(name)}: "
            "check the spelling against `schemanav COMMAND --help`"
        )
    flag = f"--{name.replace('_', '-')}"
    if name in flags:
        where = spelled.get(name, flag)
    elif f"SCHEMANAV_{name.upper()}" in {key.upper() for key in os.environ}:
        where = f"SCHEMANAV_{name.upper()} (the environment variable of {flag})"
    else:
        where = f"{file_place(name)} (the key of {flag})"
    item = ""
    if len(first["loc"]) > 1 and isinstance(first["loc"][1], int):
        item = f" (item {first['loc'][1] + 1}: {first['input']!r})"
    message = str(first["msg"])
    return f"invalid {where}{item}: {message[:1].lower() + message[1:]}"
