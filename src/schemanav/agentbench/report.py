"""Agent-bench figures: per mode (success, calls, tokens, failures by stage) and per pair of
modes (which tasks one solved and the other did not). JSON, text tables and markdown all come
from the same `AgentBenchReport`."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from schemanav.agentbench.scoring import STAGES
from schemanav.bench.metrics import mean, percentile
from schemanav.bench.report import TextTable, to_markdown

if TYPE_CHECKING:
    from schemanav.agentbench.runner import AgentBenchRun, TaskRecord

COST_FIELDS = ("model_calls", "prompt_tokens", "completion_tokens", "tool_payload_tokens")


@dataclass(frozen=True)
class Spread:
    """Mean and nearest-rank 95th percentile of one cost over a mode's tasks."""

    mean: float
    p95: float

    def as_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "p95": self.p95}


@dataclass(frozen=True)
class ModeSummary:
    mode: str
    tasks: int
    solved: int
    costs: dict[str, Spread]
    failures: dict[str, int]

    @property
    def success_rate(self) -> float:
        return self.solved / self.tasks if self.tasks else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "tasks": self.tasks,
            "solved": self.solved,
            "success_rate": self.success_rate,
            **{name: spread.as_dict() for name, spread in self.costs.items()},
            "failures": dict(self.failures),
        }


@dataclass(frozen=True)
class Pair:
    """Two modes on the tasks both have finished: solved by both, by one only, by neither."""

    first: str
    second: str
    both: int
    neither: int
    only_first: tuple[int, ...]
    only_second: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "modes": [self.first, self.second],
            "both": self.both,
            "neither": self.neither,
            f"only_{self.first}": list(self.only_first),
            f"only_{self.second}": list(self.only_second),
        }


@dataclass(frozen=True)
class AgentBenchReport:
    schema: str
    model: str
    config: dict[str, Any]
    tasks: int
    modes: tuple[ModeSummary, ...]
    pairs: tuple[Pair, ...]
    records: tuple[TaskRecord, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "model": self.model,
            "config": self.config,
            "tasks": self.tasks,
            "modes": [summary.as_dict() for summary in self.modes],
            "pairs": [pair.as_dict() for pair in self.pairs],
            "results": [record.as_dict() for record in self.records],
        }


def summarise(run: AgentBenchRun) -> AgentBenchReport:
    by_mode: dict[str, list[TaskRecord]] = {mode: [] for mode in run.modes}
    for record in run.records:
        by_mode[record.mode].append(record)
    summaries = tuple(_summary(mode, records) for mode, records in by_mode.items())
    solved = {
        mode: {record.task: record.success for record in records}
        for mode, records in by_mode.items()
    }
    pairs = tuple(_pair(a, b, solved[a], solved[b]) for a, b in combinations(run.modes, 2))
    return AgentBenchReport(
        schema=str(run.config["schema"]),
        model=str(run.config["model"]),
        config=run.config,
        tasks=len(run.tasks),
        modes=summaries,
        pairs=pairs,
        records=run.records,
    )


def _summary(mode: str, records: list[TaskRecord]) -> ModeSummary:
    costs = {
        name: Spread(
            mean(getattr(record, name) for record in records),
            float(percentile([getattr(record, name) for record in records], 95)),
        )
        if records
        else Spread(0.0, 0.0)
        for name in COST_FIELDS
    }
    failures: dict[str, int] = {stage: 0 for stage in STAGES}
    for record in records:
        if record.score.stage is not None:
            failures[record.score.stage] += 1
    solved = sum(record.success for record in records)
    return ModeSummary(mode, len(records), solved, costs, failures)


def _pair(first: str, second: str, a: dict[int, bool], b: dict[int, bool]) -> Pair:
    common = sorted(set(a) & set(b))
    return Pair(
        first=first,
        second=second,
        both=sum(a[t] and b[t] for t in common),
        neither=sum(not a[t] and not b[t] for t in common),
        only_first=tuple(t for t in common if a[t] and not b[t]),
        only_second=tuple(t for t in common if b[t] and not a[t]),
    )


def _sampling(config: dict[str, Any]) -> str:
    """How the model was asked: protocol, temperature and seed (as every result row says)."""
    return (
        f"{config.get('chat_api', 'ollama')}, temperature {config.get('temperature', 0):g}, "
        f"seed {config.get('seed')}"
    )


def _spread(spread: Spread) -> str:
    return f"{spread.mean:,.1f} / {spread.p95:,.0f}"


def tables(report: AgentBenchReport) -> list[TextTable]:
    """The per-mode table and, with two modes or more, the paired table."""
    headers = (
        "mode",
        "tasks",
        "solved",
        "success",
        "model calls",
        "prompt tokens",
        "completion tokens",
        "tool payload tokens",
        *STAGES,
    )
    rows = tuple(
        (
            summary.mode,
            str(summary.tasks),
            str(summary.solved),
            f"{summary.success_rate:.3f}",
            *(_spread(summary.costs[name]) for name in COST_FIELDS),
            *(str(summary.failures[stage]) for stage in STAGES),
        )
        for summary in report.modes
    )
    found = [
        TextTable(
            title=(
                f"Agent bench · {report.schema} · {report.model} · {_sampling(report.config)} · "
                f"{report.tasks} tasks"
            ),
            headers=headers,
            numeric=(False, *([True] * (len(headers) - 1))),
            rows=rows,
            caption=(
                "Costs are mean / p95 (nearest rank) per task; prompt and completion tokens as "
                "the provider counted them, tool payloads in o200k_base. "
                f"{STAGES[0]} … {STAGES[-1]}: failures by stage."
            ),
        )
    ]
    if report.pairs:
        found.append(
            TextTable(
                title="Paired: tasks solved by one mode and not the other",
                headers=("modes", "both", "only first", "only second", "neither"),
                numeric=(False, True, True, True, True),
                rows=tuple(
                    (
                        f"{pair.first} vs {pair.second}",
                        str(pair.both),
                        _tasks(pair.only_first),
                        _tasks(pair.only_second),
                        str(pair.neither),
                    )
                    for pair in report.pairs
                ),
                caption="Task numbers are line order in the task file, from 1.",
            )
        )
    return found


def _tasks(numbers: tuple[int, ...], shown: int = 8) -> str:
    if not numbers:
        return "0"
    listed = ", ".join(str(n) for n in numbers[:shown])
    more = " …" if len(numbers) > shown else ""
    return f"{len(numbers)} ({listed}{more})"


def report_markdown(report: AgentBenchReport) -> str:
    return "\n".join(to_markdown(table) for table in tables(report))
