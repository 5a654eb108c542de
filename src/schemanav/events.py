"""How library code reports warnings, notes and progress without printing.

The CLI passes an object that renders them on stderr (Rich); tests and library users pass
`SilentEvents` or their own recorder. Slow work with no count (parsing, token counting,
indexing) is wrapped in `phase(events, description)`: a sink that has a `phase(description)`
context manager shows it (the CLI, as a transient spinner); any other sink is left alone.
A security notice (`security_notice`) goes to the sink's `security(message)` where it has one
(the CLI prints it even under `-q`), else to its `warning`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class Events(Protocol):
    def warning(self, message: str) -> None: ...

    def note(self, message: str) -> None: ...

    def progress(self, description: str, done: int, total: int) -> None: ...


class SilentEvents:
    """Drops everything; the default for library calls."""

    def warning(self, message: str) -> None:
        pass

    def note(self, message: str) -> None:
        pass

    def progress(self, description: str, done: int, total: int) -> None:
        pass


@contextmanager
def phase(events: Events, description: str) -> Iterator[None]:
    """Run the body as one named phase of slow work, shown by sinks that can show it."""
    show = getattr(events, "phase", None)
    if show is None:
        yield
        return
    with show(description):
        yield


def security_notice(events: Events, message: str) -> None:
    """A warning that `-q` must not hide (where a secret goes): the sink's `security`, if it
    has one, else its `warning`."""
    say = getattr(events, "security", None)
    if say is None:
        events.warning(message)
    else:
        say(message)
