"""`--baseline FILE` of `bench` and `corpus`: read and checked before the work, so a wrong file
or threshold costs no run; compared with the run's JSON after it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from schemanav.compare.costs import CostComparison, compare_prices, load_price_baseline
from schemanav.compare.findings import check_max_drop, check_max_growth
from schemanav.compare.quality import (
    BenchComparison,
    check_plan,
    compare_bench,
    load_bench_baseline,
)
from schemanav.errors import InputError

if TYPE_CHECKING:
    from schemanav.settings import Settings

Command = Literal["bench", "corpus"]


@dataclass(frozen=True)
class Baseline:
    """An earlier `COMMAND --json` result and the thresholds this run is held to."""

    path: str
    payload: dict[str, Any]
    max_drop: float | None = None
    max_growth: float | None = None

    @classmethod
    def open(
        cls,
        command: Command,
        path: str | None,
        *,
        markdown: str | None = None,
        max_drop: float | None = None,
        max_growth: float | None = None,
    ) -> Baseline | None:
        """The baseline at `path` (None without one); `InputError` for a threshold out of
        range, a threshold or a `corpus --markdown` without a baseline, or a file that is not
        a `COMMAND --json` result."""
        check_max_drop(max_drop)
        check_max_growth(max_growth)
        if path is None:
            for flag, value in (("--max-drop", max_drop), ("--max-growth", max_growth)):
                if value is not None:
                    raise InputError(f"{flag} needs --baseline FILE: a `{command} --json` result")
            if command == "corpus" and markdown is not None:
                raise InputError(
                    "corpus --markdown needs --baseline FILE: a `corpus --json` result"
                )
            return None
        load = load_bench_baseline if command == "bench" else load_price_baseline
        return cls(path, load(Path(path)), max_drop, max_growth)

    def check_settings(self, settings: Settings) -> None:
        """Before a `bench` run, so a mismatch costs no run: `InputError` when the baseline's
        cutoffs, budgets, formats or outputs differ from what `settings` will measure (the
        backends and questions are compared after the run, by the rows it made)."""
        from schemanav.bench.runner import bench_formats, bench_outputs

        plan: dict[str, list[Any]] = {
            "formats": [fmt.value for fmt in bench_formats(settings)],
            "outputs": bench_outputs(settings),
        }
        for key in ("ks", "budgets"):
            values = sorted(set(getattr(settings, key)))
            if values and values[0] >= 1:  # else the run refuses them, saying why
                plan[key] = values
        check_plan(self.payload, plan, self.path)

    def quality(self, current: dict[str, Any]) -> BenchComparison:
        """This `bench` run (`BenchReport.as_dict()`) against the baseline."""
        return compare_bench(
            self.payload, current, baseline_label=self.path, max_drop=self.max_drop
        )

    def costs(self, current: dict[str, Any]) -> CostComparison:
        """This `corpus` run (`SchemaPrice.as_dict()`) against the baseline."""
        return compare_prices(
            self.payload, current, baseline_label=self.path, max_growth=self.max_growth
        )
