"""The command line's consoles: stdout for results, stderr for everything else, and the
`Reporter` that renders library events (warnings, notes, progress) there.

Rich consoles with markup, highlighting and emoji off: user and server text (a path with `[/x]`,
`[redacted]`) is never markup, in prints, table titles and cells alike.

To a pipe or a file, where Rich would write a line of plain text as it is, a console writes it
itself and imports Rich only for anything else (a table, a wrapped line): importing Rich costs
a command about 0.02 s, and a warm search piped to another program prints only lines.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO, cast

from schemanav.text import strip_control

if TYPE_CHECKING:
    from rich.console import Console

# Variables that make Rich treat a pipe as a terminal (or decide it its own way).
_RICH_TERMINAL_VARIABLES = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
# Characters Rich changes in a line (tabs expanded, control codes dropped).
_NOT_AS_IS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_PLAIN_OPTIONS = frozenset({"markup", "highlight", "emoji", "soft_wrap"})


def stderr() -> Console:
    return _console(lambda: _rich(stderr=True), stderr=True)


def stdout() -> Console:
    return _console(lambda: _rich(stderr=False), stderr=False)


def _rich(*, stderr: bool) -> Console:
    from rich.console import Console

    return _wrapping_on_a_terminal(
        Console(stderr=stderr, highlight=False, emoji=False, markup=False)
    )


def _console(make: Callable[[], Console], *, stderr: bool) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    if not writes_plain(stream):
        return make()
    return cast("Console", PlainConsole(make, stderr=stderr))


def writes_plain(stream: TextIO) -> bool:
    """Whether Rich would see `stream` as no terminal (a pipe or a file: no colour, no width,
    every line whole), as `rich.console.Console.is_terminal` decides it."""
    if any(name in os.environ for name in _RICH_TERMINAL_VARIABLES):
        return False
    import builtins

    if hasattr(builtins, "get_ipython"):  # Jupyter: Rich's own rules
        return False
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream: Rich's False too
        return True


class PlainConsole:
    """A console for a pipe or a file: a line of text (one string, printed with the options
    `stdout()` and `stderr()` set anyway) is written as Rich would write it there, as it is
    with a newline; anything else goes to the Rich console, made on first use."""

    is_terminal = False
    is_interactive = False
    soft_wrap = True

    def __init__(self, make: Callable[[], Console], *, stderr: bool) -> None:
        self._make = make
        self._stderr = stderr
        self._made: Console | None = None

    @property
    def _rich(self) -> Console:
        if self._made is None:
            self._made = self._make()
        return self._made

    def print(self, *objects: Any, **options: Any) -> None:
        if (
            len(objects) == 1
            and type(objects[0]) is str
            and options.keys() <= _PLAIN_OPTIONS
            and options.get("soft_wrap", True) is True
            and not _NOT_AS_IS.search(objects[0])
        ):
            stream = sys.stderr if self._stderr else sys.stdout
            stream.write(objects[0] + "\n")
            stream.flush()
            return
        self._rich.print(*objects, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rich, name)


def _wrapping_on_a_terminal(console: Console) -> Console:
    """On a terminal, prose (notes, start-up lines, captions, errors) is wrapped between words
    at its width, never broken mid-word by the terminal; a pipe or a file gets every line
    whole. Code (SDL, an operation) is printed unwrapped either way."""
    console.soft_wrap = not console.is_terminal
    return console


def print_json(payload: object) -> None:
    """One JSON document on stdout."""
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def write_json(path: str, payload: object) -> None:
    """A regular file or a new path only (never a device, FIFO or symlink), mode kept."""
    from schemanav.outputs import write_output_file

    write_output_file(path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


class Reporter:
    """Library events (warnings, notes, slow phases, progress) rendered on stderr.

    Progress and phases are transient Rich displays, shown only on an interactive terminal (a
    pipe, a file or a dumb terminal gets no blank lines from them); `quiet` drops everything
    but errors.
    """

    def __init__(self, *, quiet: bool = False) -> None:
        self._quiet = quiet
        self._console = stderr()
        # A terminal that cannot move its cursor (TERM=dumb) would keep every frame.
        self._live = not quiet and bool(self._console.is_interactive)
        self._progress: Any = None
        self._tasks: dict[str, Any] = {}
        self._printed: set[str] = set()

    def warning(self, message: str) -> None:
        self._once(f"warning: {message}")

    def note(self, message: str) -> None:
        self._once(message)

    def security(self, message: str) -> None:
        """Where a secret goes: printed even under -q."""
        line = f"warning: {message}"
        if line not in self._printed:
            self._printed.add(line)
            self._console.print(strip_control(line), markup=False)

    def _once(self, line: str) -> None:
        """Print `line` unless quiet or already printed: a bench run indexes the same model for
        several backends and formats (`embedding-local`, and again inside `hybrid-local`), and
        each announces it."""
        if not self._quiet and line not in self._printed:
            self._printed.add(line)
            self._console.print(strip_control(line), markup=False)

    def progress(self, description: str, done: int, total: int) -> None:
        if not self._live:
            return
        task = self._start(description, total)
        self._progress.update(task, completed=done, total=total)
        if done >= total:
            self._finish(description)

    @contextmanager
    def phase(self, description: str) -> Iterator[None]:
        """A spinner while slow work with no count runs (parsing, token counting, indexing)."""
        if not self._live:
            yield
            return
        self._start(description, None)
        try:
            yield
        finally:
            self._finish(description)

    def _start(self, description: str, total: int | None) -> Any:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn

        if self._progress is None:
            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                TaskProgressColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
        if description not in self._tasks:
            self._tasks[description] = self._progress.add_task(description, total=total)
        return self._tasks[description]

    def _finish(self, description: str) -> None:
        task = self._tasks.pop(description, None)
        if task is not None:
            self._progress.remove_task(task)
        if not self._tasks and self._progress is not None:
            self._progress.stop()
            self._progress = None
