"""How library code reports warnings, notes and progress without printing.

The CLI passes an object that renders them on stderr (Rich); tests and library users pass
`SilentEvents` or their own recorder.
"""

from __future__ import annotations

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
