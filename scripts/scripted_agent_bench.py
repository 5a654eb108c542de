"""`schemanav agent-bench` on a labelled task set with a SCRIPTED policy instead of a model.

No model runs here. The test suite's Ollama-protocol server (tests/servers/ollama_server.py)
answers every chat call with a fixed policy that reads the conversation it was sent:

1. `searchSchema(<the task's question>)`;
2. `buildQuery(<every coordinate the search result showed, hits and their paths>)`;
3. `executeGraphql(<the operation buildQuery returned>)`;
4. answer "done".

Its `prompt_eval_count` is the o200k_base count of each request body it received. What is
real: the `schemanav agent-bench` process, its tools (search backend, builder, validation),
scorer, report and token counts. The figure is what one search followed by building from
everything it showed would achieve: a floor for a model that searches once and a check of
the bench machinery at scale, not a model's score. Run from the repository root:

    python scripts/scripted_agent_bench.py [TASKS.tsv] [--schema S] [agent-bench options…]

(defaults: the GitHub slice, `--mode navigate`, a fresh results file). `--row LABEL` prints
instead the row of docs/agents.md's table for that run (what `scripts/check_docs.py` checks).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from schemanav.tokens import count_tokens  # noqa: E402
from servers.ollama_server import serve_ollama  # noqa: E402

COORDINATE = re.compile(r"\b[_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*\b")


def policy(body: dict[str, Any]) -> dict[str, Any]:
    messages = body["messages"]
    last = messages[-1]
    call: tuple[str, dict[str, Any]] | None = None
    content = ""
    if last["role"] == "user":
        call = ("searchSchema", {"query": last["content"]})
    elif last.get("tool_name") == "searchSchema":
        shown = [c for c in COORDINATE.findall(last["content"]) if c[0].isupper()]
        call = ("buildQuery", {"coordinates": list(dict.fromkeys(shown))})
    elif last.get("tool_name") == "buildQuery":
        text = last["content"]
        operation = text[: text.find("\n}") + 2] if "\n}" in text else text
        call = ("executeGraphql", {"query": operation})
    else:
        content = "done"
    sent = json.dumps(messages) + json.dumps(body.get("tools") or [])
    return {
        "content": content,
        "tool_calls": [{"function": {"name": call[0], "arguments": call[1]}}] if call else [],
        "prompt_eval_count": count_tokens(sent),
        "eval_count": 20,
    }


def table_row(label: str, budget: str, mode: dict[str, Any]) -> str:
    """The run as a row of docs/agents.md's table."""

    def spread(name: str) -> str:
        return f"{mode[name]['mean']:,.0f} / {mode[name]['p95']:,.0f}"

    failures = ", ".join(f"{n} {stage}" for stage, n in mode["failures"].items() if n) or "none"
    cells = [
        label, budget, str(mode["tasks"]), str(mode["solved"]), f"{mode['success_rate']:.3f}",
        spread("prompt_tokens"), spread("tool_payload_tokens"), failures,
    ]  # fmt: skip
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str]) -> int:
    row_label = None
    if "--row" in argv:
        at = argv.index("--row")
        row_label = argv[at + 1]
        argv = argv[:at] + argv[at + 2 :]
    tasks = argv[0] if argv and not argv[0].startswith("-") else "benchmarks/github-wg.tsv"
    extra = argv[1:] if argv and not argv[0].startswith("-") else argv
    if "--schema" not in extra:
        extra = [*extra, "--schema", "schemas/github-wg.graphqls"]
    if "--mode" not in extra:
        extra = [*extra, "--mode", "navigate"]
    with serve_ollama() as ollama, tempfile.TemporaryDirectory() as scratch:
        ollama.script_chat(*([policy] * 100_000))
        command = [
            sys.executable, "-m", "schemanav", "agent-bench", tasks, *extra,
            "--results", str(Path(scratch) / "results.jsonl"), "--json",
        ]  # fmt: skip
        env = {**os.environ, "OLLAMA_HOST": ollama.url}
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        report = json.loads(done.stdout)
        if row_label is not None:
            budget = extra[extra.index("--budget") + 1] if "--budget" in extra else "default"
            for mode in report["modes"]:
                print(table_row(row_label, budget, mode))
            return 0
        for mode in report["modes"]:
            print(json.dumps(mode))
        failures = [r for r in report["results"] if not r["success"]]
        missing: dict[str, int] = {}
        for record in failures:
            for coordinate in record["missing"]:
                missing[coordinate] = missing.get(coordinate, 0) + 1
        top = sorted(missing.items(), key=lambda item: -item[1])[:10]
        print("most often missing:", ", ".join(f"{c} ({n})" for c, n in top))
    return 0


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        raise SystemExit(0)
    raise SystemExit(main(sys.argv[1:]))
