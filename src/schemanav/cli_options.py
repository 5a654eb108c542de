"""The command line's options, each declared once: the flags of `Settings` and the output
options several commands share, in one table that `with_options` adds to a command.

A command names its options in help order (`"schema header timeout cache_dir quiet as_json"`)
and declares in its own signature only what it reads itself, as a plain parameter
(`as_json: bool = False`, its flag and help from the table) or, for an option of its own or a
flag it means its own way, with its full `typer.Option`. The settings' values reach the command
through `cli_support.settings_from`, which reads every flag the user gave.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, cast, get_args, get_origin

import typer
from typer.models import ParameterInfo

from schemanav.cli_support import OPTION_FLAGS
from schemanav.defaults import LIST_SETTING_HELP, SETTING_HELP

_F = TypeVar("_F", bound=Callable[..., Any])


def flag(
    name: str,
    *declarations: str,
    metavar: str | None = None,
    help: str | None = None,
    **extra: Any,
) -> Any:
    """The flag of setting `name` (`--name-with-dashes`, plus any short `declarations`), its
    help text from the settings unless a command means it its own way (`help`); value flags
    take a `metavar` (`N`, `TEXT`, …)."""
    return typer.Option(
        *declarations,
        f"--{name.replace('_', '-')}",
        help=help or SETTING_HELP[name],
        show_default=False,
        metavar=metavar,
        **extra,
    )


def _path_option(flag_name: str, help: str) -> Any:
    """An output file of one command (`--transcript FILE`)."""
    return typer.Option(flag_name, metavar="FILE", show_default=False, help=help)


def _output(*declarations: str, metavar: str | None = None, help: str) -> Any:
    """An option that is no setting (what to print or write, what to fail on)."""
    return typer.Option(*declarations, metavar=metavar, show_default=False, help=help)


# `bench` and `diff` with --bench-file compare several backends and formats.
BackendsOption = Annotated[
    str | None, flag("backend", metavar="NAME,…", help=LIST_SETTING_HELP["backend"])
]
FormatsOption = Annotated[
    str | None, flag("format", metavar="NAME,…", help=LIST_SETTING_HELP["format"])
]

SHARED_OPTIONS: dict[str, tuple[Any, Any]] = {
    # Settings (fields of `Settings` under the parameter's own name): default None, "not given".
    "schema": (Annotated[str | None, flag("schema", "-s", metavar="FILE|URL")], None),
    "header": (Annotated[list[str] | None, flag("header", metavar="HEADER")], None),
    "timeout": (Annotated[float | None, flag("timeout", metavar="SECONDS")], None),
    "cache_dir": (Annotated[str | None, flag("cache_dir", metavar="DIR")], None),
    "backend": (Annotated[str | None, flag("backend", metavar="NAME")], None),
    "format": (Annotated[str | None, flag("format", metavar="NAME")], None),
    "k": (Annotated[int | None, flag("k", "-k", metavar="N")], None),
    "budget": (Annotated[int | None, flag("budget", "-b", metavar="N")], None),
    "max_paths": (Annotated[int | None, flag("max_paths", metavar="N")], None),
    "max_depth": (Annotated[int | None, flag("max_depth", metavar="N")], None),
    "max_aliases": (Annotated[int | None, flag("max_aliases", metavar="N")], None),
    "max_nodes": (Annotated[int | None, flag("max_nodes", metavar="N")], None),
    "options": (
        Annotated[
            list[str] | None,
            typer.Option(
                *OPTION_FLAGS, help=SETTING_HELP["options"], show_default=False, metavar="KEY VALUE"
            ),
        ],
        None,
    ),
    "quiet": (Annotated[bool, flag("quiet", "-q")], False),
    "strict": (Annotated[bool, flag("strict")], False),
    "allow_mutations": (Annotated[bool, flag("allow_mutations")], False),
    "chat_api": (Annotated[str | None, flag("chat_api", metavar="ollama|openai")], None),
    "chat_url": (Annotated[str | None, flag("chat_url", metavar="URL")], None),
    "chat_key_env": (Annotated[str | None, flag("chat_key_env", metavar="NAME")], None),
    "temperature": (Annotated[float | None, flag("temperature", metavar="T")], None),
    "bench_file": (Annotated[str | None, flag("bench_file", metavar="FILE")], None),
    "ks": (Annotated[str | None, flag("ks", metavar="N,N…")], None),
    "budgets": (Annotated[str | None, flag("budgets", metavar="N,N…")], None),
    "output": (Annotated[str | None, flag("output", metavar="list,slice")], None),
    "jobs": (Annotated[int | None, flag("jobs", metavar="N")], None),
    "model": (Annotated[str | None, flag("model", metavar="NAME")], None),
    "ollama_host": (Annotated[str | None, flag("ollama_host", metavar="URL")], None),
    "max_calls": (Annotated[int | None, flag("max_calls", metavar="N")], None),
    "num_ctx": (Annotated[int | None, flag("num_ctx", metavar="N")], None),
    "chat_timeout": (Annotated[float | None, flag("chat_timeout", metavar="SECONDS")], None),
    "endpoint": (Annotated[str | None, flag("endpoint", metavar="URL")], None),
    "response_token_cap": (Annotated[int | None, flag("response_token_cap", metavar="N")], None),
    "slice_budget": (Annotated[int | None, flag("slice_budget", metavar="N")], None),
    # What a command prints or writes, and when it fails.
    "as_json": (
        Annotated[bool, _output("-j", "--json", help="Print one JSON object on stdout.")],
        False,
    ),
    "markdown": (
        Annotated[
            str | None,
            _output(
                "--markdown",
                metavar="FILE",
                help="Also write the tables as markdown to this file (its folder must exist).",
            ),
        ],
        None,
    ),
    "max_drop": (
        Annotated[
            float | None,
            _output(
                "--max-drop",
                metavar="X",
                help="Exit 1 when complete-within-budget, recall@k or MRR of any row falls by "
                "more than X (a share, 0 to 1) [default: never].",
            ),
        ],
        None,
    ),
    "max_growth": (
        Annotated[
            float | None,
            _output(
                "--max-growth",
                metavar="PCT",
                help="Exit 1 when the tokens of the corpus (any format), the SDL text or the "
                "introspection JSON grow by more than PCT percent [default: never].",
            ),
        ],
        None,
    ),
    # The servers.
    "refresh": (
        Annotated[
            float | None,
            typer.Option(
                "--refresh",
                help="Re-read the schema every SECONDS (a URL schema; a file is re-read when "
                "it changes, and SIGHUP re-reads either).",
                metavar="SECONDS",
            ),
        ],
        None,
    ),
    "forward_header": (
        Annotated[
            list[str] | None,
            typer.Option(
                "--forward-header",
                help="Pass this header from the caller to the API (repeatable; never logged, "
                "redacted from every answer).",
                metavar="NAME",
            ),
        ],
        None,
    ),
    # Options of one command each, declared here beside the rest.
    "show": (
        Annotated[
            int,
            typer.Option(
                "--show",
                min=0,
                metavar="N",
                show_default=False,
                help="Also print the first N entries of each format [default: 0]",
            ),
        ],
        0,
    ),
    "as_slice": (
        Annotated[
            bool,
            typer.Option(
                "--slice",
                help="Answer with a schema slice: valid SDL holding the ranked hits with their "
                "paths from the root, arguments and argument types, grown to --budget tokens "
                "[default budget: 2000].",
            ),
        ],
        False,
    ),
    "plot": (
        Annotated[
            str | None,
            typer.Option(
                "--plot",
                metavar="DIR",
                help="Also draw recall and completeness charts (SVG) into this folder.",
            ),
        ],
        None,
    ),
    "inline": (
        Annotated[
            bool,
            typer.Option(
                "--inline",
                help="Put the whole schema SDL in the system message; offer only execution.",
            ),
        ],
        False,
    ),
    "transcript": (
        Annotated[
            str | None, _path_option("--transcript", "Write the whole conversation as JSON here.")
        ],
        None,
    ),
    "receipt_json": (
        Annotated[
            str | None, _path_option("--receipt-json", "Write the context receipt as JSON here.")
        ],
        None,
    ),
    "leaf_fields": (
        Annotated[
            int,
            typer.Option(
                "--leaf-fields",
                min=1,
                metavar="N",
                help="Leaf fields selected under an object end [default: 3]",
                show_default=False,
            ),
        ],
        3,
    ),
    "mode": (
        Annotated[
            str,
            typer.Option(
                "--mode",
                metavar="MODE,…",
                help="Modes, comma-separated: inline, navigate, slice, oracle [default: all four]",
                show_default=False,
            ),
        ],
        "inline,navigate,slice,oracle",
    ),
    "results": (
        Annotated[
            str,
            _path_option(
                "--results",
                "JSONL file results are appended to; a rerun skips finished tasks "
                "[default: agent-bench.jsonl]",
            ),
        ],
        "agent-bench.jsonl",
    ),
    "limit": (
        Annotated[
            int | None,
            typer.Option("--limit", min=1, metavar="N", help="Only the first N tasks."),
        ],
        None,
    ),
    "http": (
        Annotated[
            str | None,
            typer.Option(
                "--http",
                metavar="HOST:PORT",
                help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio.",
            ),
        ],
        None,
    ),
    "operations": (
        Annotated[
            str | None,
            typer.Option(
                "--operations",
                help="Offer each named operation in DIR/*.graphql as a tool of its own.",
                metavar="DIR",
            ),
        ],
        None,
    ),
    "variables": (
        Annotated[
            str | None,
            typer.Option(
                "--variables", metavar="JSON", help="The operation's variables, a JSON object."
            ),
        ],
        None,
    ),
    "upstream": (
        Annotated[
            str | None,
            typer.Option(
                "--upstream", metavar="URL", help="GraphQL URL that runs every other operation"
            ),
        ],
        None,
    ),
    "host": (
        Annotated[
            str,
            typer.Option(
                "--host",
                metavar="HOST",
                help="Address to listen on [default: 127.0.0.1]",
                show_default=False,
            ),
        ],
        "127.0.0.1",
    ),
    "port": (
        Annotated[
            int,
            typer.Option(
                "--port",
                min=0,
                max=65535,
                metavar="PORT",
                help="Port, 0-65535 (0: a free one) [default: 8000]",
                show_default=False,
            ),
        ],
        8000,
    ),
    "workers": (
        Annotated[
            int,
            typer.Option(
                "--workers",
                min=1,
                metavar="N",
                help="Server processes sharing the port (uvicorn's workers; the schema is "
                "loaded once first, so each reads warm caches) [default: 1]",
                show_default=False,
            ),
        ],
        1,
    ),
    "access_log": (
        Annotated[
            str,
            typer.Option(
                "--access-log",
                metavar="off|json",
                help="json: one JSON line per request on stderr (method, path, status, ms, "
                "operation kind, outcome, the bound that refused it) [default: off]",
                show_default=False,
            ),
        ],
        "off",
    ),
    "allow_breaking": (
        Annotated[
            bool,
            typer.Option(
                "--allow-breaking",
                help="Report breaking changes (graphql-core's) without failing the check.",
            ),
        ],
        False,
    ),
}
"""Every option by parameter name: its annotation (type and `typer.Option`) and default."""


def with_options(order: str, helps: dict[str, str] | None = None) -> Callable[[_F], _F]:
    """Give a command the options `order` names (space-separated parameter names, in the order
    help lists them): each from the command's own signature when it declares it with a
    `typer.Option`, else from `SHARED_OPTIONS`. The command receives the values of the
    parameters its signature has; its context and arguments stay first."""

    def decorate(command: _F) -> _F:
        signature = inspect.signature(command)
        own = signature.parameters
        named = order.split()
        parameters = [parameter for name, parameter in own.items() if name not in named]
        parameters += [_parameter(name, own.get(name), (helps or {}).get(name)) for name in named]
        wanted = set(own)

        @functools.wraps(command)
        def run(**values: Any) -> Any:
            return command(**{name: value for name, value in values.items() if name in wanted})

        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        return cast(_F, run)

    return decorate


def _parameter(
    name: str, declared: inspect.Parameter | None, help: str | None = None
) -> inspect.Parameter:
    if declared is not None and _declares_option(declared.annotation):
        return declared
    annotation, default = SHARED_OPTIONS[name]
    if help is not None:  # this command means the shared option its own way
        import copy

        kind, *extras = get_args(annotation)
        extras = [copy.copy(extra) for extra in extras]
        for extra in extras:
            if isinstance(extra, ParameterInfo):
                extra.help = help
        annotation = Annotated[(kind, *extras)]
    return inspect.Parameter(
        name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=annotation
    )


def _declares_option(annotation: Any) -> bool:
    """Whether `annotation` is `Annotated[…, typer.Option(…)]` (a command's own flag)."""
    return get_origin(annotation) is Annotated and any(
        isinstance(extra, ParameterInfo) for extra in get_args(annotation)[1:]
    )
