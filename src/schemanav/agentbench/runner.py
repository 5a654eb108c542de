"""`schemanav agent-bench`: the agent loop over a task set, in several modes, resumable.

Tasks are a labelled TSV (`question<TAB>Type.field,…`, as `bench` reads), so the GitHub slice
is a task set. Every task runs in every mode with the same model, settings and seed, task by
task (all modes of task 1, then of task 2, …) so that an interrupted run stays paired. Each
result is appended to a JSONL file as soon as it is scored; a rerun with the same file skips
the tasks already finished. A run that stopped on a model error is not final: a rerun tries
it again (the server may simply have been down), and the newest record of a task wins.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.agent.loop import context_window, open_chat, run_task
from schemanav.agentbench.scoring import TaskScore, score_run
from schemanav.bench.labelled import LabelledQuery, load_labelled, unknown_coordinates
from schemanav.errors import InputError
from schemanav.events import Events, SilentEvents
from schemanav.limits import DEFAULT_MAX_SCHEMA_BYTES, MAX_JSON_DEPTH, loads_json
from schemanav.navigator import Navigator
from schemanav.outputs import append_output_file, read_output_file
from schemanav.textfile import decode_text

if TYPE_CHECKING:
    from schemanav.agent.receipt import Mode
    from schemanav.settings import Settings

MODES: tuple[Mode, ...] = ("inline", "navigate", "slice", "oracle")
DEFAULT_SEED = 0
# A results file is read back whole: one record per task and mode is some kilobytes.
MAX_RESULTS_BYTES = DEFAULT_MAX_SCHEMA_BYTES


def parse_modes(value: str) -> list[Mode]:
    """`inline,navigate,slice,oracle` → the modes, in that order, each once; bad names refused."""
    modes: list[Mode] = []
    for piece in (p.strip() for p in value.split(",")):
        if not piece:
            continue
        if piece not in MODES:
            raise InputError(f"unknown mode {piece!r}: choose from {', '.join(MODES)}")
        mode: Mode = piece
        if mode not in modes:
            modes.append(mode)
    if not modes:
        raise InputError(f"no mode given: choose from {', '.join(MODES)}")
    return modes


def task_key(task: LabelledQuery) -> str:
    """A task's identity in the results file: its question and expected coordinates."""
    text = task.question + "\t" + ",".join(task.expected_coordinates)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class TaskRecord:
    """One task in one mode: its score and what the run cost (one JSONL line)."""

    key: str
    task: int
    question: str
    expected: tuple[str, ...]
    mode: str
    score: TaskScore
    model_calls: int
    prompt_tokens: int
    completion_tokens: int
    tool_payload_tokens: int
    tool_calls: int
    stopped: str
    error: str | None
    answer: str | None
    config: dict[str, Any]

    @property
    def success(self) -> bool:
        return self.score.success

    @property
    def final(self) -> bool:
        return self.stopped != "error"

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "task": self.task,
            "question": self.question,
            "expected": list(self.expected),
            "mode": self.mode,
            **self.score.as_dict(),
            "model_calls": self.model_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tool_payload_tokens": self.tool_payload_tokens,
            "tool_calls": self.tool_calls,
            "stopped": self.stopped,
            "error": self.error,
            "answer": self.answer,
            "config": self.config,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaskRecord:
        score = TaskScore(
            success=bool(data["success"]),
            stage=data["stage"],
            operation=data["operation"],
            operation_source=data["operation_source"],
            valid=data["valid"],
            errors=tuple(data["errors"]),
            missing=tuple(data["missing"]),
            not_surfaced=tuple(data["not_surfaced"]),
        )
        return cls(
            key=str(data["key"]),
            task=int(data["task"]),
            question=str(data["question"]),
            expected=tuple(data["expected"]),
            mode=str(data["mode"]),
            score=score,
            model_calls=int(data["model_calls"]),
            prompt_tokens=int(data["prompt_tokens"]),
            completion_tokens=int(data["completion_tokens"]),
            tool_payload_tokens=int(data["tool_payload_tokens"]),
            tool_calls=int(data["tool_calls"]),
            stopped=str(data["stopped"]),
            error=data["error"],
            answer=data["answer"],
            config=dict(data["config"]),
        )


def run_config(settings: Settings, label: str, seed: int) -> dict[str, Any]:
    """What must match for results to be comparable (and a rerun to reuse them); every result
    row carries it, so each says which model, protocol, temperature and seed produced it."""
    return {
        "schema": label,
        "model": settings.model,
        "chat_api": settings.chat_api,
        "temperature": settings.temperature,
        "seed": seed,
        "backend": ",".join(settings.backend),
        "format": ",".join(settings.format),
        "options": dict(sorted(settings.options.items())),
        "budget": settings.budget,
        "k": settings.k,
        "max_paths": settings.max_paths,
        "max_calls": settings.max_calls,
        "num_ctx": settings.num_ctx,
        "slice_budget": settings.slice_budget,
    }


def read_results(
    path: Path, config: dict[str, Any], events: Events
) -> dict[tuple[str, str], TaskRecord]:
    """Records already in `path`, newest per (task key, mode); refuses another run's file."""
    data = read_output_file(path, MAX_RESULTS_BYTES)
    if data is None:
        return {}
    lines = decode_text(data, path, "results file").splitlines()
    records: dict[tuple[str, str], TaskRecord] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = TaskRecord.from_dict(loads_json(line, max_depth=MAX_JSON_DEPTH))
        except (ValueError, KeyError, TypeError):
            events.warning(f"{path}:{number}: not a result record (an interrupted write?); ignored")
            continue
        if record.config != config:
            changed = sorted(k for k in config if record.config.get(k) != config[k])
            raise InputError(
                f"{path} holds results of a run with other settings ({', '.join(changed)}); "
                "pass another --results file, or the same settings"
            )
        records[(record.key, record.mode)] = record
    return records


def _append(path: Path, record: TaskRecord) -> None:
    append_output_file(path, json.dumps(record.as_dict(), ensure_ascii=False) + "\n")


@dataclass(frozen=True)
class AgentBenchRun:
    """The records of this task set in these modes (reused and new), and how many ran now."""

    tasks: tuple[LabelledQuery, ...]
    modes: tuple[str, ...]
    records: tuple[TaskRecord, ...]
    ran: int
    reused: int
    config: dict[str, Any]


def run_agent_bench(
    settings: Settings,
    tasks_path: str | Path,
    modes: Sequence[Mode],
    results_path: str | Path,
    *,
    seed: int = DEFAULT_SEED,
    limit: int | None = None,
    events: Events | None = None,
) -> AgentBenchRun:
    """Run (or resume) the benchmark; see the module docstring."""
    events = events or SilentEvents()
    tasks = load_labelled(tasks_path)
    if limit is not None:
        tasks = tasks[:limit]
    navigator = Navigator(settings, events)
    schema = navigator.loaded.schema
    unknown = unknown_coordinates(tasks, set(navigator.corpus.coordinates))
    if unknown:
        events.warning(
            f"{len(unknown)} expected coordinate(s) are not in the schema, so their tasks "
            f"cannot succeed: {', '.join(unknown[:5])}{' …' if len(unknown) > 5 else ''}"
        )
    config = run_config(settings, navigator.label, seed)
    results = Path(results_path)
    done = read_results(results, config, events)
    todo = [
        (number, task, mode)
        for number, task in enumerate(tasks, start=1)
        for mode in modes
        if not ((found := done.get((task_key(task), mode))) and found.final)
    ]
    reused = len(tasks) * len(modes) - len(todo)
    if reused:
        events.note(f"{results}: {reused} finished run(s) reused, {len(todo)} to run")
    if todo:
        chat = open_chat(settings, seed)
        try:
            num_ctx = context_window(chat, settings, events)
            for position, (number, task, mode) in enumerate(todo, start=1):
                run = run_task(
                    task.question,
                    navigator,
                    chat,
                    num_ctx,
                    mode=mode,
                    events=SilentEvents(),
                    oracle_coordinates=task.expected_coordinates,
                )
                receipt = run.receipt
                score = score_run(schema, task.expected_coordinates, receipt, run.transcript)
                record = TaskRecord(
                    key=task_key(task),
                    task=number,
                    question=task.question,
                    expected=task.expected_coordinates,
                    mode=mode,
                    score=score,
                    model_calls=receipt.model_calls,
                    prompt_tokens=receipt.prompt_tokens,
                    completion_tokens=receipt.completion_tokens,
                    tool_payload_tokens=receipt.tool_payload_tokens,
                    tool_calls=len(receipt.tool_calls),
                    stopped=receipt.stopped,
                    error=receipt.error,
                    answer=receipt.answer,
                    config=config,
                )
                _append(results, record)
                done[(record.key, mode)] = record
                outcome = "solved" if score.success else f"failed: {score.stage}"
                events.note(f"[{position}/{len(todo)}] task {number} · {mode} · {outcome}")
        finally:
            chat.close()
    records = tuple(
        done[(task_key(task), mode)]
        for task in tasks
        for mode in modes
        if (task_key(task), mode) in done
    )
    return AgentBenchRun(
        tasks=tuple(tasks),
        modes=tuple(modes),
        records=records,
        ran=len(todo),
        reused=reused,
        config=config,
    )
