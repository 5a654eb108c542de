"""Navigate vs inline, on the Movie DB, against a SCRIPTED model — for docs/agents.md.

No model runs here: the test suite's fake Ollama server (tests/servers/ollama_server.py)
replays a fixed script of replies and reports, as `prompt_eval_count`, the o200k_base count
of each request it received. The GraphQL endpoint is the test suite's real server over the
Movie DB. What is real: the `schemanav agent` process, its tools, its token counts and its
receipt. Run from the repository root:

    python scripts/scripted_agent_demo.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from schemanav.tokens import count_tokens  # noqa: E402
from servers.graphql_server import serve_moviedb  # noqa: E402
from servers.ollama_server import serve_ollama  # noqa: E402

TASK = "Who directed Paper Moons?"
QUERY = '{ movies(filter: {titleContains: "Paper Moons"}) { title directors { name } } }'
ANSWER = "Paper Moons was directed by Ada Moreno and Lena Okafor."


def reply(
    content: str = "", tool: tuple[str, dict[str, Any]] | None = None, completion: int = 25
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def answer(body: dict[str, Any]) -> dict[str, Any]:
        sent = json.dumps(body["messages"]) + json.dumps(body.get("tools") or [])
        calls = [{"function": {"name": tool[0], "arguments": tool[1]}}] if tool else []
        return {
            "content": content,
            "tool_calls": calls,
            "prompt_eval_count": count_tokens(sent),
            "eval_count": completion,
        }

    return answer


SCRIPTS = {
    "navigate": [
        reply(tool=("searchSchema", {"query": "directors of a movie"})),
        reply(tool=("introspectType", {"name": "MovieFilter"}), completion=31),
        reply(tool=("executeGraphql", {"query": QUERY}), completion=48),
        reply(content=ANSWER, completion=17),
    ],
    "inline": [
        reply(tool=("executeGraphql", {"query": QUERY}), completion=48),
        reply(content=ANSWER, completion=17),
    ],
}


def main() -> int:
    with serve_moviedb(token="demo-secret") as graphql:
        for mode, script in SCRIPTS.items():
            with serve_ollama() as ollama, tempfile.TemporaryDirectory() as scratch:
                ollama.script_chat(*script)
                receipt_path = Path(scratch) / "receipt.json"
                command = [
                    sys.executable, "-m", "schemanav", "agent", TASK,
                    "--endpoint", graphql.url, "--header", "Authorization: Bearer demo-secret",
                    "--budget", "120", "--receipt-json", str(receipt_path),
                ]  # fmt: skip
                if mode == "inline":
                    command.append("--inline")
                env = {**os.environ, "OLLAMA_HOST": ollama.url,
                       "SCHEMANAV_CACHE_DIR": str(Path(scratch) / "cache")}  # fmt: skip
                done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
                print(f"$ schemanav agent {TASK!r} --endpoint URL --budget 120"
                      + (" --inline" if mode == "inline" else ""))  # fmt: skip
                print(done.stdout)
                if done.returncode:
                    print(done.stderr, file=sys.stderr)
                    return done.returncode
                receipt = json.loads(receipt_path.read_text())
                print(json.dumps({k: receipt[k] for k in (
                    "mode", "model_calls", "prompt_tokens", "completion_tokens",
                    "tool_payload_tokens", "whole_corpus_tokens", "schema_in_prompt_tokens",
                    "stopped")}))  # fmt: skip
                print()
    return 0


if __name__ == "__main__":
    import argparse

    # No options: --help prints what the script does.
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    raise SystemExit(main())
