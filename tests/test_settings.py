"""Settings precedence: flag > SCHEMANAV_ environment variable > ./schemanav.toml > default.

Checked both on `load_settings` and end to end through `schemanav search`, where the value
in force shows up in the JSON (number of hits, format, backend name).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from schemanav.cli import app
from schemanav.errors import InputError
from schemanav.retrieval.pipeline import backend_names, backend_specs
from schemanav.settings import Settings, default_cache_dir, load_settings

UserError = Callable[..., str]


@pytest.fixture(autouse=True)
def isolated(cache_dir: Path, workdir: Path) -> None:
    """A fresh cache, no SCHEMANAV_ variables and an empty working directory."""


def write_config(workdir: Path, text: str) -> None:
    (workdir / "schemanav.toml").write_text(text, encoding="utf-8")


# --- load_settings -------------------------------------------------------------------------


def test_defaults(cache_dir: Path) -> None:
    settings = load_settings()
    assert settings.k is None
    assert settings.format == ["DOT_PLUS_GLOSS"]
    assert settings.backend[0] in backend_names()
    assert settings.options == {}
    assert settings.ks == [1, 5, 10, 20, 50]
    assert settings.budgets == [125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    assert settings.output == ["list"]
    assert settings.cache_dir == cache_dir


def test_default_cache_dir_without_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCHEMANAV_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    assert load_settings().cache_dir == default_cache_dir()


@pytest.mark.parametrize(
    ("file", "env", "flag", "expected"),
    [
        (None, None, None, None),
        (2, None, None, 2),
        (2, 3, None, 3),
        (2, 3, 4, 4),
        (None, 3, None, 3),
        (2, None, 4, 4),
        (None, None, 4, 4),
    ],
)
def test_precedence_of_k(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    file: int | None,
    env: int | None,
    flag: int | None,
    expected: int | None,
) -> None:
    if file is not None:
        write_config(workdir, f"k = {file}\n")
    if env is not None:
        monkeypatch.setenv("SCHEMANAV_K", str(env))
    assert load_settings(k=flag).k == expected


@pytest.mark.parametrize(
    ("file", "env", "flag", "expected"),
    [
        (None, None, None, "DOT_PLUS_GLOSS"),
        ("RAW", None, None, "RAW"),
        ("RAW", "SDL", None, "SDL"),
        ("RAW", "SDL", "GLOSS", "GLOSS"),
    ],
)
def test_precedence_of_format(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    file: str | None,
    env: str | None,
    flag: str | None,
    expected: str,
) -> None:
    if file is not None:
        write_config(workdir, f'format = "{file}"\n')
    if env is not None:
        monkeypatch.setenv("SCHEMANAV_FORMAT", env)
    assert load_settings(format=flag).format == [expected]


def test_list_settings_from_env_file_and_flag(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_BUDGETS", "1,2")
    monkeypatch.setenv("SCHEMANAV_KS", "[3, 7]")
    settings = load_settings()
    assert settings.budgets == [1, 2]
    assert settings.ks == [3, 7]
    assert load_settings(budgets="7, 8 ,9").budgets == [7, 8, 9]
    monkeypatch.delenv("SCHEMANAV_BUDGETS")
    write_config(workdir, "budgets = [5, 6]\n")
    assert load_settings().budgets == [5, 6]


def test_name_lists_from_env_file_and_flag(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Backends, formats and outputs are lists however they are written: comma-separated in
    the environment or a flag, a JSON or TOML list; blanks dropped, each name once."""
    monkeypatch.setenv("SCHEMANAV_BACKEND", "bm25,structural")
    monkeypatch.setenv("SCHEMANAV_OUTPUT", '["list", "slice"]')
    settings = load_settings()
    assert (settings.backend, settings.output) == (["bm25", "structural"], ["list", "slice"])
    assert load_settings(backend=" hybrid, ,bm25,hybrid").backend == ["hybrid", "bm25"]
    assert load_settings(format=["RAW", "SDL"]).format == ["RAW", "SDL"]
    monkeypatch.delenv("SCHEMANAV_BACKEND")
    write_config(workdir, 'backend = ["structural", "bm25"]\nformat = "RAW,GLOSS"\n')
    settings = load_settings()
    assert (settings.backend, settings.format) == (["structural", "bm25"], ["RAW", "GLOSS"])


def test_env_names_are_prefixed_and_case_insensitive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("schemanav_backend", "bm25")
    monkeypatch.setenv("K", "7")  # not ours: no prefix
    settings = load_settings()
    assert settings.backend == ["bm25"]
    assert settings.k is None


def test_unknown_key_in_file_is_named(workdir: Path) -> None:
    write_config(workdir, 'k = 3\ncolour = "red"\n')
    with pytest.raises(InputError) as caught:
        load_settings()
    assert caught.value.exit_code == 2
    assert "'colour'" in caught.value.message
    assert "schemanav.toml" in caught.value.message


def test_invalid_values_are_refused(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMANAV_K", "0")
    with pytest.raises(
        InputError,
        match=r"^invalid SCHEMANAV_K \(the environment variable of --k\): input should be greater",
    ):
        load_settings()
    monkeypatch.setenv("SCHEMANAV_K", "many")
    with pytest.raises(
        InputError, match=r"^invalid SCHEMANAV_K .*: input should be a valid integer"
    ):
        load_settings()


def test_chat_settings_come_from_the_file_like_every_other(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(
        workdir,
        'chat-api = "openai"\nchat_url = "http://127.0.0.1:8000/v1"\n'
        'chat-key-env = "VLLM_KEY"\ntemperature = 0.2\nslice-budget = 4000\n',
    )
    settings = load_settings()
    assert (settings.chat_api, settings.chat_url) == ("openai", "http://127.0.0.1:8000/v1")
    assert (settings.chat_key_env, settings.temperature, settings.slice_budget) == (
        "VLLM_KEY",
        0.2,
        4000,
    )
    assert load_settings(chat_api="ollama").chat_api == "ollama"  # the flag wins
    monkeypatch.setenv("SCHEMANAV_TEMPERATURE", "3")
    with pytest.raises(InputError, match=r"^invalid SCHEMANAV_TEMPERATURE .*less than or equal"):
        load_settings()
    write_config(workdir, 'chat-api = "vllm"\n')
    with pytest.raises(InputError, match=r"chat_api in schemanav.toml .*'ollama' or 'openai'"):
        load_settings()


def test_malformed_toml_is_an_input_error(workdir: Path) -> None:
    write_config(workdir, "k = = 3\n")
    with pytest.raises(InputError, match=r"cannot read schemanav\.toml"):
        load_settings()


def test_file_is_read_from_the_working_directory_only(workdir: Path, tmp_path: Path) -> None:
    write_config(tmp_path, "k = 9\n")  # the parent of the working directory
    assert load_settings().k is None


def test_every_setting_has_a_default() -> None:
    settings = Settings()
    for name in Settings.model_fields:
        assert hasattr(settings, name)


def test_every_setting_is_a_flag_or_a_registered_option_key() -> None:
    """Each setting is a flag of some command, with the setting's own help text there (a
    command that means it its own way, such as bench's lists, may say so); the
    backend-specific knobs are option keys (`-o KEY VALUE`) of a registered backend."""
    import typer.main

    command = typer.main.get_command(app)
    flags: dict[str, set[str]] = {}
    for sub in command.commands.values():  # type: ignore[attr-defined]
        for parameter in sub.params:
            for declaration in parameter.opts:
                flags.setdefault(declaration, set()).add(parameter.help or "")
    for name, field in Settings.model_fields.items():
        flag = "--option" if name == "options" else "--" + name.replace("_", "-")
        assert flag in flags, name
        assert field.description in flags[flag], name
    option_keys = {key for spec in backend_specs() for key in spec.option_keys}
    assert option_keys == {
        "tokenizer",
        "ollama_host",
        "embedding_model",
        "embedding_batch_size",
        "embedding_timeout",
        "query_prefix",
        "document_prefix",
        "local_model",
    }


def test_option_flags_merge_over_the_file_key_by_key(workdir: Path) -> None:
    write_config(workdir, '[options]\ntokenizer = "default"\nembedding_model = "m"\n')
    assert load_settings().options == {"tokenizer": "default", "embedding_model": "m"}
    merged = load_settings(options={"tokenizer": "camel_stem"}).options
    assert merged == {"tokenizer": "camel_stem", "embedding_model": "m"}


# --- through the CLI -----------------------------------------------------------------------


def search_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["search", "movie", "--json", *args])
    assert result.exit_code == 0, result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def test_cli_precedence_of_k(
    runner: CliRunner, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(search_json(runner)["hits"]) == 10  # the default
    write_config(workdir, "k = 2\n")
    assert len(search_json(runner)["hits"]) == 2
    monkeypatch.setenv("SCHEMANAV_K", "3")
    assert len(search_json(runner)["hits"]) == 3
    assert len(search_json(runner, "--k", "4")["hits"]) == 4


def test_cli_precedence_of_format(
    runner: CliRunner, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def first_text(*args: str) -> tuple[str, str]:
        payload = search_json(runner, "--k", "1", *args)
        return payload["format"], payload["hits"][0]["text"]

    assert first_text()[0] == "DOT_PLUS_GLOSS"
    write_config(workdir, 'format = "RAW"\n')
    fmt, text = first_text()
    assert fmt == "RAW"
    assert " " not in text
    monkeypatch.setenv("SCHEMANAV_FORMAT", "SDL")
    fmt, text = first_text()
    assert fmt == "SDL"
    assert "  # on type " in text
    fmt, text = first_text("--format", "GLOSS")
    assert fmt == "GLOSS"
    assert text.startswith("GraphQL field ")


def test_cli_precedence_of_backend(
    runner: CliRunner, workdir: Path, monkeypatch: pytest.MonkeyPatch, user_error: UserError
) -> None:
    write_config(workdir, 'backend = "from-file"\n')
    user_error(runner.invoke(app, ["search", "movie"]), "unknown backend 'from-file'")
    monkeypatch.setenv("SCHEMANAV_BACKEND", "from-env")
    user_error(runner.invoke(app, ["search", "movie"]), "unknown backend 'from-env'")
    assert search_json(runner, "--backend", "bm25")["backend"] == "bm25"


def test_cli_precedence_of_tokenizer(
    runner: CliRunner, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_BACKEND", "bm25")
    write_config(workdir, '[options]\ntokenizer = "default"\n')
    assert search_json(runner)["backend"] == "bm25:default"
    monkeypatch.setenv("SCHEMANAV_OPTIONS", '{"tokenizer": "camel_stem"}')
    assert search_json(runner)["backend"] == "bm25:camel_stem"
    assert search_json(runner, "-o", "tokenizer", "en_stem")["backend"] == "bm25"
    assert search_json(runner, "--option", "tokenizer", "default")["backend"] == "bm25:default"


def test_cli_options_are_checked_against_the_chosen_backends(
    runner: CliRunner, user_error: UserError
) -> None:
    user_error(
        runner.invoke(app, ["search", "movie", "--backend", "bm25", "-o", "tokeniser", "x"]),
        "unknown option 'tokeniser' for --backend bm25: bm25 accepts tokenizer",
    )
    user_error(
        runner.invoke(app, ["search", "movie", "--backend", "bm25", "-o", "tokenizer", "x"]),
        "invalid option tokenizer for backend bm25: unknown BM25 tokenizer 'x'",
    )
    user_error(
        runner.invoke(app, ["search", "movie", "-o", "tokenizer"]),
        "-o tokenizer has no value",
    )
    # bench over several backends: a key must be known to at least one of them
    both = ["bench", "--backend", "bm25,structural", "--format", "RAW"]
    user_error(
        runner.invoke(app, [*both, "-o", "local_model", "x"]),
        "unknown option 'local_model' for --backend bm25,structural: bm25 accepts tokenizer; "
        "structural accepts none",
    )
    result = runner.invoke(app, [*both, "-o", "tokenizer", "camel_stem", "--json"])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["rows"]
    assert [row["backend"] for row in rows] == ["bm25:camel_stem", "structural"]


def test_cli_unknown_key_in_file(runner: CliRunner, workdir: Path, user_error: UserError) -> None:
    write_config(workdir, "colour = 'red'\n")
    user_error(runner.invoke(app, ["corpus"]), "unknown setting 'colour'")
    user_error(runner.invoke(app, ["search", "movie"]), "unknown setting 'colour'")


def test_cli_invalid_env_value(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, user_error: UserError
) -> None:
    monkeypatch.setenv("SCHEMANAV_K", "0")
    user_error(runner.invoke(app, ["search", "movie"]), "invalid SCHEMANAV_K")


def test_cli_schema_from_env(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user_error: UserError
) -> None:
    missing = tmp_path / "from-env.graphql"
    monkeypatch.setenv("SCHEMANAV_SCHEMA", str(missing))
    user_error(runner.invoke(app, ["corpus"]), str(missing))


# --- values that overflowed or recursed (issue 41): one error line, exit 2 -------------------

DEEP_LIST = "[" * 20_000 + "]" * 20_000
DEEP_OBJECT = '{"a": ' * 20_000 + "1" + "}" * 20_000


@pytest.mark.parametrize(
    ("args", "env", "toml", "said"),
    [
        (["--timeout", "inf"], {}, "", "invalid --timeout: input should be less than or equal"),
        (["--timeout", "1e300"], {}, "", "invalid --timeout"),
        ([], {}, "timeout = inf\n", "invalid timeout in schemanav.toml"),
        ([], {}, "a = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply"),
        ([], {"SCHEMANAV_HEADER": DEEP_LIST}, "", "SCHEMANAV_HEADER is nested more than 64"),
        ([], {"SCHEMANAV_OPTIONS": DEEP_OBJECT}, "", "SCHEMANAV_OPTIONS is nested more than"),
        ([], {"SCHEMANAV_KS": DEEP_LIST}, "", "SCHEMANAV_KS is nested more than 64"),
        ([], {"SCHEMANAV_FORMAT": DEEP_LIST}, "", "SCHEMANAV_FORMAT is nested more than"),
        (["--format", DEEP_LIST], {}, "", "invalid --format: value error, nested more than"),
    ],
)
def test_values_that_overflowed_or_recursed_are_one_error_line(
    workdir: Path,
    user_error: UserError,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: dict[str, str],
    toml: str,
    said: str,
) -> None:
    if toml:
        write_config(workdir, toml)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    command = ["search", "movie", "--schema", "http://127.0.0.1:9/graphql", *args]
    user_error(CliRunner().invoke(app, command), said)


def test_an_infinite_chat_timeout_in_the_file_is_one_error_line(
    workdir: Path, user_error: UserError
) -> None:
    write_config(workdir, "chat_timeout = inf\n")
    user_error(CliRunner().invoke(app, ["agent", "hi"]), "invalid chat_timeout in schemanav.toml")


def test_a_baseline_holding_a_huge_number_is_one_error_line(
    workdir: Path, user_error: UserError
) -> None:
    written = CliRunner().invoke(app, ["bench", "--json", "-q"])
    assert written.exit_code == 0, written.output
    text = written.stdout.replace('"questions": ', '"questions": 1' + "0" * 400 + ', "x": ', 1)
    (workdir / "base.json").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["bench", "--baseline", "base.json"])
    user_error(result, "holds a number larger than 1e+15")
    payload = json.loads(written.stdout)
    payload["ks"] = list(range(200_000))  # quoted in the refusal: cut short
    (workdir / "wide.json").write_text(json.dumps(payload), encoding="utf-8")
    line = user_error(CliRunner().invoke(app, ["bench", "--baseline", "wide.json"]), "ks 0,1,2")
    assert len(line) < 1_000 and "more characters" in line


def test_a_backend_returning_a_coordinate_the_schema_lacks_is_one_error_line(
    user_error: UserError,
) -> None:
    from dataclasses import dataclass

    from schemanav.retrieval import SearchHit
    from schemanav.retrieval.registry import BACKENDS, register_backend

    @dataclass(frozen=True)
    class Ghost:
        name: str = "ghost"

        def index(self, corpus: Any) -> Any:
            return self

        def search(self, query: str, k: int) -> list[SearchHit]:
            return [SearchHit("Nope.nothing", "x", 1.0, 1, 3)][:k]

    register_backend("ghost")(lambda options, context: Ghost())
    try:
        result = CliRunner().invoke(app, ["bench", "--backend", "ghost"])
    finally:
        del BACKENDS["ghost"]
    user_error(result, "the backend ghost returned 'Nope.nothing', which is not a coordinate")


# --- settings without pydantic -------------------------------------------------------------

PLAIN_CASES: list[tuple[dict[str, str], dict[str, Any]]] = [
    ({}, {}),
    (
        {
            "SCHEMANAV_K": "7",
            "SCHEMANAV_TIMEOUT": "12.5",
            "SCHEMANAV_CHAT_TIMEOUT": "30",
            "SCHEMANAV_QUIET": "1",
            "SCHEMANAV_STRICT": "false",
            "SCHEMANAV_CACHE_DIR": "/x/y",
            "SCHEMANAV_BACKEND": "bm25, structural,bm25",
            "SCHEMANAV_OUTPUT": '["list", "slice"]',
            "SCHEMANAV_KS": "1,5",
            "SCHEMANAV_BUDGETS": "[100, 200]",
            "SCHEMANAV_HEADER": "A: b",
            "SCHEMANAV_SCHEMA": "",
            "SCHEMANAV_CHAT_API": "openai",
            "SCHEMANAV_CHAT_KEY_ENV": "MY_KEY",
            "SCHEMANAV_TEMPERATURE": "2",
            "SCHEMANAV_MAX_ALIASES": "0",
            "schemanav_max_paths": "3",
            "SCHEMANAV_NOT_A_SETTING": "{",
        },
        {},
    ),
    ({"SCHEMANAV_HEADER": '["A: b", "C: d"]', "SCHEMANAV_K": "0"}, {"k": 4}),
    (
        {},
        {
            "k": 5,
            "timeout": 5,
            "budget": 1,
            "max_paths": 0,
            "backend": "bm25,structural",
            "format": ["RAW", "SDL"],
            "options": {"tokenizer": "camel_stem"},
            "header": ["A: b"],
            "cache_dir": "/tmp/x",
            "quiet": True,
            "ks": "1, 5 ,10",
            "budgets": "[1,2]",
            "chat_api": "openai",
            "jobs": 2,
            "num_ctx": 256,
            "temperature": 0.0,
        },
    ),
    ({}, {"cache_dir": Path("/tmp/y"), "timeout": 0.5, "schema": "s.graphql"}),
]

PYDANTIC_CASES: list[tuple[dict[str, str], dict[str, Any]]] = [
    ({}, {"k": 0}),
    ({}, {"timeout": 0}),
    ({}, {"k": True}),
    ({}, {"k": 2.0}),
    ({}, {"timeout": float("nan")}),
    ({}, {"chat_key_env": "sk-not a name"}),
    ({}, {"chat_api": "vllm"}),
    ({}, {"ks": [1.0]}),
    ({}, {"cache_dir": ""}),
    ({}, {"colour": "red"}),
    ({"SCHEMANAV_K": "007"}, {}),
    ({"SCHEMANAV_K": " 5"}, {}),
    ({"SCHEMANAV_QUIET": "yes"}, {}),
    ({"SCHEMANAV_TIMEOUT": "1e3"}, {}),
    ({"SCHEMANAV_OPTIONS": '{"tokenizer": "default"}'}, {}),
    ({"SCHEMANAV_CACHE_DIR": ""}, {}),
    ({"SCHEMANAV_KS": "1,x"}, {}),
]


@pytest.mark.parametrize(("env", "given"), PLAIN_CASES)
def test_plain_values_are_read_as_pydantic_reads_them(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], given: dict[str, Any]
) -> None:
    """Values in their plain form are taken without pydantic, each equal to (and of the same
    type as) what pydantic-settings makes of it, with the same settings marked as given."""
    from schemanav import settings as module

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    plain = module._plain_settings(dict(given))
    validated = module._validated(dict(given), {})
    assert plain is not None
    assert plain == validated
    assert plain.model_fields_set == validated.model_fields_set
    for name in Settings.model_fields:
        assert type(getattr(plain, name)) is type(getattr(validated, name)), name


@pytest.mark.parametrize(("env", "given"), PYDANTIC_CASES)
def test_other_values_go_to_pydantic(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], given: dict[str, Any]
) -> None:
    """A value out of bounds, of another type or in a form pydantic reads its own way is
    left to pydantic-settings, which takes it or words the error."""
    from schemanav import settings as module

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert module._plain_settings(dict(given)) is None


def test_a_file_goes_to_pydantic(workdir: Path) -> None:
    from schemanav import settings as module

    write_config(workdir, "k = 3\n")
    assert module._plain_settings({}) is None
    assert load_settings().k == 3
    assert load_settings().from_file == {"k"}


def test_settings_copy_dump_and_compare() -> None:
    settings = load_settings(k=3)
    assert settings.model_copy(update={"max_paths": 0}).max_paths == 0
    assert settings.model_copy(update={"max_paths": 0}).k == 3
    assert settings.max_paths != 0
    dumped = settings.model_dump(mode="json")
    assert dumped["cache_dir"] == str(settings.cache_dir)
    assert Settings(**dumped).model_dump() == settings.model_dump()
    assert load_settings(k=3) == settings
    assert load_settings(k=4) != settings
