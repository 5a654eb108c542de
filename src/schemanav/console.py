"""The command line's consoles: stdout for results, stderr for everything else, and the
`Reporter` that renders library events (warnings, notes, progress) there.

Rich consoles with markup, highlighting and emoji off: user and server text (a path with `[/x]`,
`[redacted]`) is never markup, in prints, table titles and cells alike.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from schemanav.text import strip_control

if TYPE_CHECKING:
    from rich.console import Console


def stderr() -> Console:
    from rich.console import Console

    return _wrapping_on_a_terminal(Console(stderr=True, highlight=False, emoji=False, markup=False))


def stdout() -> Console:
    from rich.console import Console

    return _wrapping_on_a_terminal(Console(highlight=False, emoji=False, markup=False))


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
        self._live = not quiet and self._console.is_interactive
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
