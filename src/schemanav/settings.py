"""Settings: every option is a CLI flag, a `SCHEMANAV_…` environment variable and a key of an
optional `schemanav.toml` in the working directory. Precedence: flag > env > file > default.

The CLI passes only the flags the user actually gave, so an unset flag never hides an
environment variable or a file entry. Backend-specific knobs live in `options`: `-o KEY VALUE`
on the command line, a `[options]` table in the file, `SCHEMANAV_OPTIONS` (a JSON object) in
the environment.

`Settings` is a plain class: every setting is declared once on it (type, default, bounds, the
check of its raw form), and pydantic-settings validates it from that declaration (`_model`,
built on first use). Importing pydantic and pydantic-settings costs a command about 0.1 s, a
third of a warm search, so a command whose values are all in their plain form (flags of the
right type within their bounds, `SCHEMANAV_…` variables holding a plain number, switch, path or
name, no schemanav.toml) takes them as pydantic would, without it (`_plain_settings`); anything
else (a file, JSON in a variable, a value out of its bounds and the error that names it) goes
through pydantic-settings as before. A test compares both on every kind of value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast, get_args

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

if TYPE_CHECKING:
    from pydantic import ValidationError
    from pydantic_settings import BaseSettings

CONFIG_FILE = "schemanav.toml"
# Settings a file cannot set: a schemanav.toml may come with a checked-out repository, and it
# must not make the agent send mutations with the user's token.
NOT_FROM_FILE = ("allow_mutations",)
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
MAX_TIMEOUT_SECONDS = 86_400.0
"""`timeout` and `chat_timeout` are at most a day: `inf` or `1e300` would overflow the clock."""
ENV_PREFIX = "SCHEMANAV_"

ChatApi = Literal["ollama", "openai"]


def default_cache_dir() -> Path:
    """The user cache dir: $XDG_CACHE_HOME/schemanav, ~/Library/Caches on macOS."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif os.uname().sysname == "Darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "schemanav"


def _split_commas(value: Any) -> Any:
    """`1,5,10` from a flag or the environment; a TOML list passes through."""
    if isinstance(value, str):
        if value.lstrip().startswith("["):
            return loads_json(value, max_depth=MAX_JSON_DEPTH)
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, int):
        return [value]
    return value


def _names(value: Any) -> Any:
    """`bm25,structural` from a flag or the environment (a JSON list too), or
    `backend = ["bm25", "structural"]` in schemanav.toml: the names, blanks dropped, each once."""
    if isinstance(value, str):
        value = (
            loads_json(value, max_depth=MAX_JSON_DEPTH)
            if value.lstrip().startswith("[")
            else value.split(",")
        )
    if isinstance(value, list | tuple):
        return list(dict.fromkeys(str(item).strip() for item in value if str(item).strip()))
    return value


def _one_or_many_headers(value: Any) -> Any:
    """SCHEMANAV_HEADER holds one header, or a JSON list of them."""
    if isinstance(value, str):
        if value.lstrip().startswith("["):
            return loads_json(value, max_depth=MAX_JSON_DEPTH)
        return [value]
    return value


def _a_variable_name(value: str) -> str:
    """The NAME of a variable; anything else may be the key itself, so it is refused without
    being repeated."""
    if not _ENV_NAME.fullmatch(value):
        raise ValueError(
            "give the NAME of an environment variable (letters, digits and _, such as "
            "OPENAI_API_KEY), never the key itself"
        )
    return value


class SettingField:
    """One setting as `Settings` declares it: its default (or a factory of it), its bounds,
    the check of its raw form (`before`, on flags, variables and file values alike) and of its
    value (`after`); `name`, `kind` (its annotation) and `description` (its help) are filled in
    from the class. pydantic-settings is given exactly this (`_model`)."""

    name: str
    kind: str
    description: str

    def __init__(
        self,
        default: Any = None,
        *,
        factory: Callable[[], Any] | None = None,
        ge: float | None = None,
        gt: float | None = None,
        le: float | None = None,
        before: Callable[[Any], Any] | None = None,
        after: Callable[[Any], Any] | None = None,
    ) -> None:
        self.default, self.factory = default, factory
        self.ge, self.gt, self.le = ge, gt, le
        self.before, self.after = before, after

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.description = name, SETTING_HELP[name]
        self.kind = owner.__annotations__[name]

    def default_value(self) -> Any:
        return self.factory() if self.factory is not None else self.default

    def within_bounds(self, value: float) -> bool:
        return (
            (self.ge is None or value >= self.ge)
            and (self.gt is None or value > self.gt)
            and (self.le is None or value <= self.le)
        )


def setting(default: Any = None, **declared: Any) -> Any:
    """A field of `Settings` (typed as its annotation says, for mypy)."""
    return SettingField(default, **declared)


class Settings:
    """Every tunable of schemanav, with its default (from `schemanav.defaults`).

    `options` holds the backend-specific knobs (`-o KEY VALUE`, a `[options]` table in
    schemanav.toml, or `SCHEMANAV_OPTIONS` as a JSON object); each backend validates the keys
    it accepts with its own options model. `Settings(**values)` validates the values over the
    environment and schemanav.toml with pydantic-settings, as a `BaseSettings` would;
    `load_settings` is what the front ends call.
    """

    # schema source
    schema: str | None = setting(None)
    header: list[str] = setting(factory=list, before=_one_or_many_headers)
    timeout: float = setting(30.0, gt=0, le=MAX_TIMEOUT_SECONDS)
    cache_dir: Path = setting(factory=default_cache_dir)

    # retrieval
    backend: list[str] = setting(factory=lambda: [DEFAULT_BACKEND], before=_names)
    format: list[str] = setting(factory=lambda: [DEFAULT_FORMAT], before=_names)
    k: int | None = setting(None, ge=1)
    budget: int | None = setting(None, ge=1)
    max_paths: int = setting(DEFAULT_MAX_PATHS, ge=0)
    options: dict[str, Any] = setting(factory=dict)

    # bench
    bench_file: str | None = setting(None)
    ks: list[int] = setting(factory=lambda: list(DEFAULT_KS), before=_split_commas)
    budgets: list[int] = setting(factory=lambda: list(DEFAULT_BUDGETS), before=_split_commas)
    jobs: int | None = setting(None, ge=1)
    strict: bool = setting(False)
    output: list[str] = setting(factory=lambda: ["list"], before=_names)
    quiet: bool = setting(False)

    # agent
    model: str = setting(DEFAULT_CHAT_MODEL)
    ollama_host: str | None = setting(None)
    max_calls: int = setting(12, ge=1)
    num_ctx: int | None = setting(None, ge=256)
    endpoint: str | None = setting(None)
    allow_mutations: bool = setting(False)
    response_token_cap: int = setting(2000, ge=50)
    chat_timeout: float = setting(600.0, gt=0, le=MAX_TIMEOUT_SECONDS)
    chat_api: ChatApi = setting(cast(ChatApi, DEFAULT_CHAT_API))
    chat_url: str | None = setting(None)
    chat_key_env: str = setting(DEFAULT_CHAT_KEY_ENV, after=_a_variable_name)
    temperature: float = setting(DEFAULT_TEMPERATURE, ge=0, le=2)
    slice_budget: int = setting(DEFAULT_AGENT_SLICE_BUDGET, ge=50)
    max_depth: int = setting(DEFAULT_MAX_DEPTH, ge=1)
    max_aliases: int = setting(DEFAULT_MAX_ALIASES, ge=0)
    max_nodes: int = setting(DEFAULT_MAX_NODES, ge=1)

    model_fields: ClassVar[dict[str, SettingField]]
    """Every setting, in declaration order, by name."""
    model_fields_set: set[str]
    """The settings a flag, the environment or the file gave (the others are defaults)."""
    # Settings whose value came from schemanav.toml (not a flag or the environment).
    _from_file: frozenset[str]
    # The flags the user gave, as typed (`-k`), by setting.
    _flags: dict[str, str]

    def __init__(self, **values: Any) -> None:
        model = _model()(**values)
        self._fill(
            {name: getattr(model, name) for name in self.model_fields}, model.model_fields_set
        )

    @classmethod
    def _of(cls, values: Mapping[str, Any], fields_set: set[str]) -> Settings:
        """Settings holding `values` (every setting's, already valid)."""
        settings = cls.__new__(cls)
        settings._fill(values, fields_set)
        return settings

    def _fill(self, values: Mapping[str, Any], fields_set: set[str]) -> None:
        self.__dict__.update(values)
        self.model_fields_set = set(fields_set)
        self._from_file = frozenset()
        self._flags = {}

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Settings:
        """A copy with `update`'s values (not validated, as pydantic's `model_copy`)."""
        copy = Settings.__new__(Settings)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(update or {})
        copy.model_fields_set = self.model_fields_set | set(update or ())
        return copy

    def model_dump(self, *, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        """Every setting's value; `mode="json"` as JSON holds it (paths as text)."""
        import copy

        values = {name: copy.deepcopy(getattr(self, name)) for name in self.model_fields}
        if mode == "json":
            values["cache_dir"] = str(values["cache_dir"])
        return values

    def __eq__(self, other: object) -> bool:
        """Equal values and origins (as pydantic compares models: not `model_fields_set`)."""
        if not isinstance(other, Settings):
            return NotImplemented
        mine, theirs = dict(self.__dict__), dict(other.__dict__)
        mine.pop("model_fields_set", None)
        theirs.pop("model_fields_set", None)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.model_fields)
        return f"Settings({shown})"

    @property
    def from_file(self) -> frozenset[str]:
        return self._from_file

    def source(self, name: str) -> str:
        """Where setting `name` came from, for an error about its value: the flag as typed,
        the environment variable, schemanav.toml and its line, or the default."""
        flag = "--" + name.replace("_", "-")
        if name in self._flags:
            return self._flags[name]
        variable = f"{ENV_PREFIX}{name.upper()}"
        if variable in {key.upper() for key in os.environ}:
            return variable
        if name in self._from_file:
            return file_place(name)
        return f"the default of {flag}"


Settings.model_fields = {
    name: value for name, value in vars(Settings).items() if isinstance(value, SettingField)
}
_CHAT_APIS: tuple[str, ...] = get_args(ChatApi)


@cache
def _model() -> type[Any]:
    """The pydantic-settings model of `Settings`, built from its declaration on first use:
    flags over `SCHEMANAV_…` variables over ./schemanav.toml over defaults, validated."""
    import warnings
    from typing import Annotated, get_type_hints

    from pydantic import Field, field_validator
    from pydantic_settings import (
        BaseSettings,
        NoDecode,
        PydanticBaseSettingsSource,
        SettingsConfigDict,
        TomlConfigSettingsSource,
    )

    class TomlFile(TomlConfigSettingsSource):
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

    class FileSource(TomlFile):
        """./schemanav.toml (flag or field spelling), refusing the keys in `NOT_FROM_FILE`."""

        def __call__(self) -> dict[str, Any]:
            values = super().__call__()
            for key in NOT_FROM_FILE:
                if key in values:
                    flag = "--" + key.replace("_", "-")
                    raise InputError(
                        f"{CONFIG_FILE} cannot set {key} (a file that came with a repository "
                        f"must not switch it on): remove it and pass {flag}, or set "
                        f"{ENV_PREFIX}{key.upper()}=1 in the environment"
                    )
            return values

    def sources(
        cls: type[BaseSettings],
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, FileSource(settings_cls))

    def validator(check: Callable[[Any], Any], names: list[str], mode: str) -> Any:
        def validate(cls: type[BaseSettings], value: Any) -> Any:
            return check(value)

        if mode == "before":
            return field_validator(*names, mode="before")(classmethod(validate))
        return field_validator(*names, mode="after")(classmethod(validate))

    hints = get_type_hints(Settings)
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": "Settings",
        "__annotations__": annotations,
        "model_config": SettingsConfigDict(
            env_prefix=ENV_PREFIX, toml_file=CONFIG_FILE, extra="forbid", validate_default=True
        ),
        "settings_customise_sources": classmethod(sources),
    }
    checks: dict[tuple[Callable[[Any], Any], str], list[str]] = {}
    for name, spec in Settings.model_fields.items():
        hint = hints[name]
        annotations[name] = Annotated[hint, NoDecode] if spec.kind.startswith("list[") else hint
        default = {"default_factory": spec.factory} if spec.factory else {"default": spec.default}
        bounds = {
            key: getattr(spec, key) for key in ("ge", "gt", "le") if getattr(spec, key) is not None
        }
        namespace[name] = Field(**default, **bounds, description=spec.description)
        for check, mode in ((spec.before, "before"), (spec.after, "after")):
            if check is not None:
                checks.setdefault((check, mode), []).append(name)
    for number, ((check, mode), names) in enumerate(checks.items()):
        namespace[f"_check_{number}"] = validator(check, names, mode)
    with warnings.catch_warnings():
        # `schema` is the natural name for the option; it shadows a deprecated pydantic
        # classmethod.
        warnings.simplefilter("ignore", UserWarning)
        return type("Settings", (BaseSettings,), namespace)


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
    settings = _plain_settings(given)
    if settings is None:
        settings = _validated(given, spelled)
    settings._flags = {name: spelled.get(name, _flag_of(name)) for name in given}
    return settings


def _validated(given: dict[str, Any], spelled: Mapping[str, str]) -> Settings:
    """`given` over the environment and ./schemanav.toml, validated by pydantic-settings; a
    refused value is one `InputError` naming where the user wrote it."""
    from pydantic import ValidationError

    model = _model()
    try:
        if given.get("options"):
            below = model(**{k: v for k, v in given.items() if k != "options"}).options
            given["options"] = {**below, **given["options"]}
        validated = model(**given)
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
                f"invalid {ENV_PREFIX}{name.upper()} (the environment variable of "
                f"{_flag_of(name)}): not {shape}, e.g. "
                + ('\'{"tokenizer": "camel_stem"}\'' if name == "options" else "'[1, 5]'")
            ) from None
        raise InputError(f"cannot read {CONFIG_FILE}: {str(err)[:300]}") from None
    except RecursionError:  # the environment's JSON was checked above: the file's TOML
        raise InputError(
            f"cannot read {CONFIG_FILE}: it is nested too deeply; keep its tables and lists "
            f"at most {MAX_JSON_DEPTH} levels deep"
        ) from None
    fields_set = validated.model_fields_set
    settings = Settings._of(
        {name: getattr(validated, name) for name in Settings.model_fields}, fields_set
    )
    environment = {key.upper() for key in os.environ}
    settings._from_file = frozenset(
        key
        for key in fields_set
        if key not in given and f"{ENV_PREFIX}{key.upper()}" not in environment
    )
    return settings


_NOT_PLAIN = object()
_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?")
_SWITCHES = {"0": False, "1": True, "false": False, "true": True}


def _plain_settings(given: Mapping[str, Any]) -> Settings | None:
    """Settings from `given` and the `SCHEMANAV_…` variables, without pydantic, when every
    value is in its plain form and there is no schemanav.toml; else None (pydantic-settings
    decides, and words any error). A value taken here is the one pydantic would make of it."""
    if os.path.lexists(CONFIG_FILE):
        return None
    fields = Settings.model_fields
    from_env: dict[str, str] = {}
    for key, text in os.environ.items():
        name = key.upper().removeprefix(ENV_PREFIX).lower()
        if len(name) < len(key) and name in fields:
            if name in from_env or name == "options":
                return None  # two spellings of one variable, or JSON to decode
            from_env[name] = text
    values: dict[str, Any] = {}
    for name, text in from_env.items():
        if name not in given:
            values[name] = _plain_text(fields[name], text)
    for name, value in given.items():
        values[name] = _plain_value(fields[name], value) if name in fields else _NOT_PLAIN
    if any(value is _NOT_PLAIN for value in values.values()):
        return None
    defaults = {name: spec.default_value() for name, spec in fields.items() if name not in values}
    return Settings._of({**defaults, **values}, set(values) | set(from_env))


def _whole(item: Any) -> int | None:
    """A list item pydantic reads as this whole number (an `int`, or its digits), else None."""
    if type(item) is int:
        return item
    return int(item) if type(item) is str and _WHOLE.fullmatch(item) else None


def _plain_text(spec: SettingField, text: str) -> Any:
    """A variable's text as pydantic-settings reads it for `spec`, or `_NOT_PLAIN`."""
    kind = spec.kind
    if kind in ("int", "int | None"):
        return _plain_value(spec, int(text)) if _WHOLE.fullmatch(text) else _NOT_PLAIN
    if kind == "float":
        return _plain_value(spec, float(text)) if _DECIMAL.fullmatch(text) else _NOT_PLAIN
    if kind == "bool":
        return _SWITCHES.get(text, _NOT_PLAIN)
    return _plain_value(spec, text)  # text, a path, a name or a list (read by its `before`)


def _plain_value(spec: SettingField, value: Any) -> Any:
    """`value` (a flag's, or a variable's text) as pydantic validates it for `spec`, or
    `_NOT_PLAIN` when that takes pydantic: another type, out of bounds, refused by a check."""
    kind, plain = spec.kind, type(value)
    try:
        if spec.before is not None:
            value = spec.before(value)
            plain = type(value)
        if spec.after is not None and plain is str:
            value = spec.after(value)
    except ValueError:
        return _NOT_PLAIN
    if kind in ("str", "str | None"):
        return value if plain is str else _NOT_PLAIN
    if kind == "bool":
        return value if plain is bool else _NOT_PLAIN
    if kind in ("int", "int | None"):
        return value if plain is int and spec.within_bounds(value) else _NOT_PLAIN
    if kind == "float":
        good = plain in (int, float) and spec.within_bounds(value)
        return float(value) if good else _NOT_PLAIN
    if kind == "Path":
        return Path(value) if (plain is str and value) or isinstance(value, Path) else _NOT_PLAIN
    if kind == "ChatApi":
        return value if plain is str and value in _CHAT_APIS else _NOT_PLAIN
    if kind == "list[str]":
        good = plain is list and all(type(item) is str for item in value)
        return list(value) if good else _NOT_PLAIN
    if kind == "list[int]":
        if plain is not list:
            return _NOT_PLAIN
        items = [_whole(item) for item in value]
        return items if None not in items else _NOT_PLAIN
    if kind == "dict[str, Any]":
        good = plain is dict and all(type(key) is str for key in value)
        return dict(value) if good else _NOT_PLAIN
    return _NOT_PLAIN


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
