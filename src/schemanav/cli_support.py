"""The command line's plumbing under its commands: Click parsing fixed to one-line errors,
`-o KEY VALUE` pairs, settings from the flags the user gave, user errors as `error: …` lines,
the garbage collector of a one-shot process, and what several commands share after their
work (output-path checks, a comparison's verdict).

`settings_from` passes on only the flags the user gave (Click's parameter source), so an unset
flag never hides the environment or schemanav.toml.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError  # Typer's vendored Click
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer.core import TyperArgument, TyperCommand, TyperGroup

from schemanav.console import Reporter, stderr, stdout
from schemanav.text import strip_control

if TYPE_CHECKING:
    from schemanav.bench.report import TextTable
    from schemanav.compare import Finding
    from schemanav.navigator import Navigator
    from schemanav.settings import Settings


class Group(TyperGroup):
    """The command list: a mistyped command or a flag before it is one `error: …` line with
    the nearest commands, like every other bad input (not Click's usage block)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        plain_values(self.get_params(ctx))
        try:
            parsed: list[str] = super().parse_args(ctx, args)
        except NoArgsIsHelpError:
            raise  # no command at all: the help, as it is
        except UsageError as err:
            raise OneLineUsageError(err.format_message(), ctx) from None
        return parsed

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            from schemanav.wording import closest

            nearest = closest(name, self.list_commands(ctx))
            hint = f": did you mean {', '.join(nearest)}?" if nearest else ""
            raise OneLineUsageError(f"no such command {name!r}{hint}", ctx)
        return super().resolve_command(ctx, args)


OPTION_FLAGS = ("-o", "--option")
_PAIR_SEPARATOR = "\x1f"
_TYPED_ARGS = "schemanav.typed_args"
_CLICK_RANGE = re.compile(r"(?:\n +| {2})\[(?:-?\d+<=?)?x(?:<=?-?\d+|>=?-?\d+)?\]")


class Command(TyperCommand):
    """Reads `-o KEY VALUE` as one repeatable option of two values (Typer cannot declare a
    repeatable pair), by joining each pair into one value before Click parses the line."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_TYPED_ARGS] = tuple(args)  # so an error can name a flag as it was typed
        plain_values(self.get_params(ctx))
        try:
            return self._parse_pairs(ctx, args)
        except UsageError as err:
            if isinstance(err, OneLineUsageError):
                raise
            raise OneLineUsageError(err.format_message(), ctx) from None

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """`QUESTION`, not Typer's `{QUESTION}`, on the usage line."""
        pieces: list[str] = super().collect_usage_pieces(ctx)
        return [_unbraced(piece) for piece in pieces]

    def get_help(self, ctx: Any) -> str:
        """Arguments are named by their metavar alone (`QUESTION`, not `QUESTION <str>`); the
        backends listed include the installed plugins'."""
        _name_plugin_backends(self.params)
        text: str = super().get_help(ctx)
        for param in self.params:
            if isinstance(param, TyperArgument) and param.metavar:
                shown = f"{param.metavar} {param.display_type_rich(ctx)}"
                text = text.replace(shown, param.metavar + " " * (len(shown) - len(param.metavar)))
                text = text.replace(f"{{{param.metavar}}}", param.metavar)
        # Click's range notation (`[x>=1]`): the help text says the range in words.
        return _CLICK_RANGE.sub("", text)

    def _parse_pairs(self, ctx: Any, args: list[str]) -> list[str]:
        joined: list[str] = []
        position = 0
        while position < len(args):
            token = args[position]
            if token == "--":
                joined.extend(args[position:])
                break
            if token in OPTION_FLAGS and position + 2 < len(args):
                key, value = args[position + 1], args[position + 2]
                joined.extend([token, f"{key}{_PAIR_SEPARATOR}{value}"])
                position += 3
                continue
            joined.append(token)
            position += 1
        result: list[str] = super().parse_args(ctx, joined)
        return result


_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?[0-9]{1,15}(?:\.[0-9]{0,15})?")
_PLAIN = (str, int, float, bool)


def plain_values(params: Sequence[Any]) -> None:
    """Convert the values of plain parameters (text, whole numbers, decimals, switches, lists
    of text) without pydantic.

    Typer converts every parameter of the command that runs, given or not, through a pydantic
    `TypeAdapter` it builds on first use: importing its adapters and building 14 of them is
    about a fifth of a warm `search`. Every option here is one of these plain types with no
    range of Typer's (ranges are checked by `Settings`), so a value in its plain form is
    converted as pydantic would convert it; anything else (a range, a number pydantic reads
    in another spelling, a wrong value with its error message) goes to Typer's adapter.
    """
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", True) is not None:
            continue
        info = descriptor.parameter_info
        if info.min is not None or info.max is not None or info.parser is not None:
            continue
        annotation = descriptor.annotation
        if annotation in _PLAIN or annotation == list[str]:
            param._runtime_param = _PlainValue(
                parameter_info=info, annotation=annotation, descriptor=descriptor
            )


@dataclass(frozen=True)
class _PlainValue(RuntimeParam):
    """A plain value converted here; any other goes to Typer's own conversion."""

    descriptor: TypeDescriptor

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        annotation = self.annotation
        kind = type(value)
        if annotation is str and kind is str:
            return value
        if annotation is bool and kind is bool:
            return value
        if annotation is int and (kind is int or (kind is str and _INTEGER.fullmatch(value))):
            return int(value)
        if annotation is float and (kind is float or (kind is str and _DECIMAL.fullmatch(value))):
            return float(value)
        if annotation == list[str] and kind in (list, tuple) and all(type(v) is str for v in value):
            return list(value)
        fallback = build_runtime_param(self.descriptor)
        return fallback._coerce_value(value, param=param, ctx=ctx)


def _name_plugin_backends(params: list[Any]) -> None:
    """`--backend`'s help lists the backends of installed plugins after the built-in ones
    (looked up only when help is printed)."""
    from schemanav.defaults import BUILTIN_BACKEND_LIST
    from schemanav.retrieval.registry import backend_names

    names = ", ".join(backend_names())
    for param in params:
        if param.name == "backend" and param.help and names not in param.help:
            param.help = param.help.replace(BUILTIN_BACKEND_LIST, names)


class OneLineUsageError(UsageError):
    """A flag Click could not parse, as one `error: …` line like every other bad input."""

    def show(self, file: Any = None) -> None:
        message = self.format_message()
        message = message[:1].lower() + message[1:].rstrip(".")
        command = self.ctx.command_path if self.ctx is not None else "schemanav"
        stderr().print(f"error: {message} (see `{command} --help`)", markup=False)


def _unbraced(piece: str) -> str:
    return piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece


_EXITS_AFTER_COMMAND = False
"""Set by `exits_after_command` (`main`): this process ends as soon as its command is done."""


def exits_after_command() -> None:
    """Mark this process as one that ends as soon as its command is done (see `one_shot`)."""
    global _EXITS_AFTER_COMMAND
    _EXITS_AFTER_COMMAND = True


@contextmanager
def one_shot() -> Iterator[None]:
    """A command that answers once and exits runs with the cyclic garbage collector off.

    It loads hundreds of thousands of long-lived objects (imports, the corpus, indexes, the
    graph) and makes next to no garbage cycles, so the collections those allocations trigger
    walk them again and again and find nothing (a tenth of a warm `search`); the process then
    exits without teardown (`main`). The servers and the agent keep the collector; so does a
    process that runs commands in a row (the collector is back once the command is done).
    The `schemanav` executable leaves it off: turned back on, its first allocation would
    walk every object the command made once more (some 0.04 s after a warm bench) just
    before exit.
    """
    import gc

    from schemanav.process import no_cyclic_gc

    if _EXITS_AFTER_COMMAND:
        gc.disable()
        yield
        return
    with no_cyclic_gc():
        yield


@contextmanager
def user_errors() -> Iterator[None]:
    """A `SchemanavError` becomes `error: …` on stderr and its exit code, never a traceback."""
    from schemanav.errors import SchemanavError

    try:
        yield
    except SchemanavError as err:
        stderr().print(f"error: {err.message}", markup=False)
        raise typer.Exit(err.exit_code) from None
    except KeyboardInterrupt:
        stderr().print("interrupted", markup=False)
        raise typer.Exit(130) from None


def settings_from(ctx: typer.Context) -> Settings:
    """Settings from the flags the user gave on this command line, over env, file, defaults."""
    from schemanav.settings import Settings, load_typed_settings

    given: dict[str, Any] = {
        name: value
        for name, value in ctx.params.items()
        if name in Settings.model_fields and _given(ctx, name)
    }
    if "options" in given:
        given["options"] = _option_pairs(given["options"])
    settings = load_typed_settings(given, {name: _typed_flag(ctx, name) for name in given})
    _check_names(settings)
    return settings


def _check_names(settings: Settings) -> None:
    """An unknown backend or format is refused before any work, naming where it was set
    (the flag, the variable, or schemanav.toml and its line)."""
    from schemanav.corpus import Format
    from schemanav.defaults import BUILTIN_BACKENDS
    from schemanav.errors import InputError

    for fmt in settings.format:
        try:
            Format.parse(fmt)
        except ValueError:
            choices = ", ".join(member.value for member in Format)
            raise InputError(
                f"unknown format {fmt!r} (set by {settings.source('format')}): "
                f"choose one of {choices}"
            ) from None
    unknown = [name for name in settings.backend if name not in BUILTIN_BACKENDS]
    if unknown:
        from schemanav.retrieval.registry import backend_names

        known = backend_names()
        for name in unknown:
            if name not in known:
                raise InputError(
                    f"unknown backend {name!r} (set by {settings.source('backend')}): "
                    f"choose one of {', '.join(known)}"
                )


def _typed_flag(ctx: typer.Context, name: str) -> str:
    """The flag of parameter `name` as the user last typed it (`-k`, not `--k`), so an invalid
    value is reported under that spelling; its long form when it cannot be told."""
    param = next(param for param in ctx.command.params if param.name == name)
    spelled = param.opts[-1]
    for token in ctx.meta.get(_TYPED_ARGS, ()):
        if token == "--":
            break
        for flag in param.opts:
            if (
                token == flag
                or token.startswith(f"{flag}=")
                or (len(flag) == 2 and not token.startswith("--") and token.startswith(flag))
            ):
                spelled = flag
    return str(spelled)


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the user wrote this option (not Click's default for it)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _option_pairs(values: Sequence[str]) -> dict[str, str]:
    from schemanav.errors import InputError

    pairs: dict[str, str] = {}
    for value in values:
        key, separator, setting = value.partition(_PAIR_SEPARATOR)
        if not separator:
            raise InputError(
                f"-o {key} has no value: write -o KEY VALUE, e.g. -o tokenizer camel_stem"
            )
        pairs[key] = setting
    return pairs


def one_backend(settings: Settings, command: str) -> None:
    """`search` and `agent` use one backend and one format; a list is for `bench`."""
    from schemanav.errors import InputError

    for flag, values in (("--backend", settings.backend), ("--format", settings.format)):
        if len(values) > 1:
            value = ",".join(values)
            raise InputError(
                f"{command} takes one {flag.lstrip('-')}, not a list ({flag} {value}): pick one, "
                f"or compare them all with `schemanav bench {flag} {value}`"
            )


def finish_comparison(
    title: str,
    findings: list[Finding],
    tables: Sequence[TextTable],
    *,
    regressed: bool,
    show_tables: bool,
    markdown: str | None,
    quiet: bool,
    below_output: bool = True,
) -> None:
    """Print a comparison's tables and verdict (`below_output`: under the command's own
    tables, a blank line apart), write its summary, exit 1 on a regression."""
    from pathlib import Path

    from schemanav.compare.findings import Severity
    from schemanav.compare.report import print_text_tables, summary_markdown, verdict
    from schemanav.outputs import write_output_file

    if show_tables:
        out = stdout()
        if below_output:
            out.print()
        print_text_tables(out, tables)
        out.print()
        out.print(f"{title}: {verdict(regressed)}", markup=False)
    for finding in findings:
        if finding.severity is Severity.REGRESSION:
            stderr().print(f"regression: {strip_control(finding.text)}", markup=False)
    if markdown is not None:
        write_output_file(Path(markdown), summary_markdown(title, regressed, findings, tables))
        if not quiet:
            stderr().print(f"wrote {markdown}", markup=False)
    if regressed:
        raise typer.Exit(1)


def check_outputs(markdown: str | None, plot: str | None) -> None:
    """Refuse an output path that cannot be written (or a missing matplotlib for --plot)."""
    from schemanav.errors import MissingExtra
    from schemanav.outputs import check_output_target

    if plot is not None:
        try:
            import matplotlib.figure  # noqa: F401
        except ImportError:
            raise MissingExtra("--plot needs matplotlib", "plot") from None
        check_output_target("--plot", plot, folder=True)
    if markdown is not None:
        check_output_target("--markdown", markdown)


def open_navigator(ctx: typer.Context) -> Navigator:
    """The navigator of this command line's settings, reporting on stderr (nothing loads yet)."""
    from schemanav.navigator import Navigator

    settings = settings_from(ctx)
    return Navigator(settings, Reporter(quiet=settings.quiet))
