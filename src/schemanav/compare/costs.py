"""What a schema costs against a baseline: this `corpus` run beside an earlier `corpus --json`.

Each form an agent can be handed (the corpus in every format, the SDL text, the
introspection JSON) is compared in tokens; `max_growth` (a percentage) turns a form that
grew by more into a regression. Both sides must be counted in the same encoding.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemanav.compare.findings import Finding, Severity, read_json_file
from schemanav.errors import InputError
from schemanav.records import to_json

_REMEDY = "write one with `schemanav corpus --json > FILE`"
_COUNTS = ("coordinates", "sdl_tokens", "introspection_tokens")


def load_price_baseline(path: Path) -> dict[str, Any]:
    """A `corpus --json` result from `path`, checked for the counts a comparison reads."""
    payload = read_json_file(path, "corpus baseline", _REMEDY)
    counts = payload.get("corpus_tokens")
    problem = None
    if not isinstance(payload.get("encoding"), str):
        problem = "no 'encoding'"
    elif not isinstance(counts, dict) or not all(_count(v) for v in counts.values()):
        problem = "no 'corpus_tokens' counts"
    elif not all(_count(payload.get(key)) for key in _COUNTS):
        problem = "no " + " or ".join(repr(key) for key in _COUNTS) + " count"
    if problem:
        raise InputError(f"{path}: not a `schemanav corpus --json` result ({problem}); {_REMEDY}")
    return payload


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class CostChange:
    """One form's tokens before and after (`form`: `corpus RAW`, `SDL text`, …)."""

    form: str
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before

    @property
    def percent(self) -> float | None:
        """The change as a percentage of the baseline (None when the baseline was 0)."""
        return 100 * self.change / self.before if self.before else None

    def grew_beyond(self, max_growth: float) -> bool:
        percent = self.percent
        return self.change > 0 and (percent is None or percent > max_growth)

    def as_dict(self) -> dict[str, Any]:
        return to_json(self, change=self.change, percent=self.percent)

    def text(self) -> str:
        percent = self.percent
        share = "" if percent is None else f", {percent:+.1f}%"
        return f"{self.form}: {self.before:,} → {self.after:,} tokens ({self.change:+,}{share})"


@dataclass(frozen=True)
class CostComparison:
    """Every form's tokens against the baseline; `regressions`: the forms over `max_growth`."""

    baseline: str
    encoding: str
    max_growth: float | None
    coordinates: tuple[int, int]
    changes: tuple[CostChange, ...]

    @property
    def regressions(self) -> tuple[CostChange, ...]:
        if self.max_growth is None:
            return ()
        limit = self.max_growth
        return tuple(change for change in self.changes if change.grew_beyond(limit))

    def as_dict(self) -> dict[str, Any]:
        return {
            "baseline": self.baseline,
            "encoding": self.encoding,
            "max_growth": self.max_growth,
            "regressed": bool(self.regressions),
            "coordinates": {"before": self.coordinates[0], "after": self.coordinates[1]},
            "forms": [change.as_dict() for change in self.changes],
            "regressions": [change.form for change in self.regressions],
        }

    def findings(self) -> Iterator[Finding]:
        over = set(self.regressions)
        for change in self.changes:
            if not change.change:
                continue
            size = abs(change.percent or 0.0)
            if change in over:
                text = f"{change.text()} grew more than {self.max_growth:g}%"
                yield Finding(Severity.REGRESSION, size, text)
            else:
                severity = Severity.NOTICE if change.change > 0 else Severity.BETTER
                yield Finding(severity, size, change.text())


def _forms(price: Mapping[str, Any]) -> dict[str, int]:
    forms = {f"corpus {fmt}": int(tokens) for fmt, tokens in price["corpus_tokens"].items()}
    forms["SDL text"] = int(price["sdl_tokens"])
    forms["introspection JSON"] = int(price["introspection_tokens"])
    return forms


def compare_prices(
    baseline: Mapping[str, Any],
    current: Mapping[str, Any],
    *,
    baseline_label: str,
    max_growth: float | None = None,
) -> CostComparison:
    """Compare two `corpus --json` results (`SchemaPrice.as_dict()`); `InputError` when they
    were counted in different encodings or formats."""
    if baseline["encoding"] != current["encoding"]:
        raise InputError(
            f"the baseline {baseline_label} counts tokens in {baseline['encoding']}, this run in "
            f"{current['encoding']}: write a new baseline"
        )
    before, after = _forms(baseline), _forms(current)
    if before.keys() != after.keys():
        raise InputError(
            f"the baseline {baseline_label} prices the forms {', '.join(before)}, this run "
            f"{', '.join(after)}: write a new baseline"
        )
    return CostComparison(
        baseline=baseline_label,
        encoding=str(current["encoding"]),
        max_growth=max_growth,
        coordinates=(int(baseline["coordinates"]), int(current["coordinates"])),
        changes=tuple(CostChange(form, before[form], after[form]) for form in after),
    )
