"""What a comparison found, ranked, so a pull-request comment can lead with the worst.

Each comparison (quality, costs, the schema itself) states its findings as one-line
`Finding`s; `worst` orders them by `Severity` and then by size, and a summary shows the first
three. A regression is what makes the check fail (exit 1); the rest is reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

from schemanav.errors import InputError
from schemanav.limits import TooDeep, loads_json
from schemanav.textfile import read_text

WORST_SHOWN = 3
"""How many findings a summary leads with."""


class Severity(IntEnum):
    """Worst first: what fails the check, breaks clients, costs agents, may surprise, helps."""

    REGRESSION = 0
    BREAKING = 1
    WORSE = 2
    NOTICE = 3
    BETTER = 4


@dataclass(frozen=True)
class Finding:
    """One line of a summary; `size` orders findings of one severity (larger first)."""

    severity: Severity
    size: float
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"severity": self.severity.name.lower(), "text": self.text}


def worst(findings: Iterable[Finding], count: int | None = WORST_SHOWN) -> list[Finding]:
    """The findings worst first (all of them when `count` is None); improvements last."""
    ordered = sorted(findings, key=lambda finding: (finding.severity, -finding.size))
    return ordered if count is None else ordered[:count]


def read_json_file(path: Path, what: str, remedy: str) -> dict[str, Any]:
    """A JSON object from `path`, or one `InputError` naming the file and the `remedy`."""
    text = read_text(path, what)
    try:
        value = loads_json(text)
    except (ValueError, TooDeep) as err:
        raise InputError(f"{path}: {what} is not JSON ({err}); {remedy}") from None
    if not isinstance(value, dict):
        raise InputError(f"{path}: {what} is not a JSON object; {remedy}")
    if _has_huge_number(value):
        raise InputError(
            f"{path}: {what} holds a number larger than {MAX_FIGURE:.0e}, which no measure "
            f"reaches; {remedy}"
        )
    return value


MAX_FIGURE = 1e15
"""No figure of a result (a count, tokens, a share) comes near this; a 400-digit integer
would overflow the float arithmetic of a comparison."""
MAX_QUOTED_CHARS = 200
"""What an error line quotes of a value read from a file (a baseline's list) is cut here."""


def quoted(text: str) -> str:
    """`text` cut to `MAX_QUOTED_CHARS` for an error line, saying how much was left out."""
    if len(text) <= MAX_QUOTED_CHARS:
        return text
    return f"{text[:MAX_QUOTED_CHARS]}… ({len(text) - MAX_QUOTED_CHARS:,} more characters)"


def _has_huge_number(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif (
            isinstance(item, int | float)
            and not isinstance(item, bool)
            and not abs(item) <= MAX_FIGURE  # (NaN too)
        ):
            return True
    return False


def check_max_drop(max_drop: float | None) -> None:
    """`--max-drop` is a share of questions (0 to 1): 0.02 lets a measure fall two points."""
    if max_drop is not None and not 0 <= max_drop <= 1:
        raise InputError(
            f"--max-drop {max_drop:g} is not a share between 0 and 1: "
            "e.g. --max-drop 0.02 fails the check when a measure falls by more than 0.02"
        )


def check_max_growth(max_growth: float | None) -> None:
    """`--max-growth` is a percentage of the baseline's tokens, not negative."""
    if max_growth is not None and not 0 <= max_growth < float("inf"):  # NaN never trips
        raise InputError(
            f"--max-growth {max_growth:g} is not a percentage of 0 or more: give one, "
            "e.g. --max-growth 5 fails the check when a form grows by more than 5%"
        )
