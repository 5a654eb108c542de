"""Every default of schemanav and the one-line help of every setting, in one place.

A plain module (no pydantic), so the command line can build its help from it without slowing
`schemanav --help`; `Settings` takes its defaults and field descriptions from here, and the
backends' option models take theirs.
"""

from __future__ import annotations

DEFAULT_K = 10
"""Hits of one search when neither --k nor --budget is given."""
DEFAULT_SEARCH_BUDGET = 500
"""Tokens of hits per call of the agent's searchSchema tool when --budget is not given."""
DEFAULT_MAX_PATHS = 2
DEFAULT_BACKEND = "structural"
DEFAULT_FORMAT = "DOT_PLUS_GLOSS"
DEFAULT_KS = (1, 5, 10, 20, 50)
DEFAULT_SLICE_BUDGET = 2000
"""Tokens of a schema slice when no --budget is given (`search --slice`, the MCP tool)."""
DEFAULT_BUDGETS = (125, 250, 500, 1000, 2000, 4000, 8000, 16000)

DEFAULT_MAX_DEPTH = 12
DEFAULT_MAX_ALIASES = 30
DEFAULT_MAX_NODES = 10_000
"""Limits on an operation an agent wrote (`schemanav.cost`): nesting, aliases, estimated nodes."""

DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"
"""Ollama's own default address, used when neither a setting nor $OLLAMA_HOST names one."""
DEFAULT_CHAT_MODEL = "qwen3:8b"
CHAT_APIS = ("ollama", "openai")
"""The chat protocols the agent speaks: Ollama's own, and OpenAI's chat completions."""
DEFAULT_CHAT_API = "ollama"
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
"""The OpenAI client's own default, used when neither --chat-url nor $OPENAI_BASE_URL is set."""
DEFAULT_CHAT_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_TEMPERATURE = 0.0
"""Greedy sampling: with the seed, what makes a run repeatable where the server allows it."""
DEFAULT_AGENT_SLICE_BUDGET = 11000
"""Tokens of the schema slice in agent-bench's slice mode: about the mean slice of the Working
Group's agent board (~11k), so that a rerun of its setup gives the model as much schema."""
DEFAULT_EMBEDDING_MODEL = "qwen3-graphql-embedder"
DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2"
DEFAULT_BM25_TOKENIZER = "en_stem"
DEFAULT_EMBEDDING_BATCH_SIZE = 32
DEFAULT_EMBEDDING_TIMEOUT = 120.0
BUILTIN_BACKENDS: dict[str, str] = {
    "structural": "schemanav.retrieval.structural",
    "bm25": "schemanav.retrieval.bm25",
    "embedding": "schemanav.retrieval.embedding",
    "embedding-local": "schemanav.retrieval.embedding",
    "hybrid": "schemanav.retrieval.hybrid",
    "hybrid-local": "schemanav.retrieval.hybrid",
}
"""The backends that ship with schemanav, in the order help lists them, each by the module that
registers it as it is imported. The registry imports one the first time its name is asked for:
a search with one backend never loads the others (their modules and option models were some
10 ms of every command). Other packages add backends through the `schemanav.backends` entry
points (`schemanav.retrieval.registry`)."""
BUILTIN_BACKEND_LIST = ", ".join(BUILTIN_BACKENDS)
"""The built-in names as help lists them (help with plugins installed names those too)."""
FORMATS = ("RAW", "DOT_PLUS_GLOSS", "GLOSS", "SDL")
"""The corpus renderings (`schemanav.corpus.Format`), cheapest first."""

DEFAULT_QUERY_PREFIX = (
    "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"
)

SETTING_HELP: dict[str, str] = {
    "schema": "SDL file, introspection JSON file or http(s) URL [default: bundled Movie DB]",
    "header": "'Name: value' sent with live introspection and --endpoint requests "
    "(repeatable; never printed)",
    "timeout": "HTTP timeout in seconds [default: 30]",
    "cache_dir": "Corpus, index and vector caches [default: user cache dir]",
    "backend": f"Retrieval backend: {BUILTIN_BACKEND_LIST} [default: {DEFAULT_BACKEND}]",
    "format": f"Corpus rendering: {', '.join(FORMATS)} [default: {DEFAULT_FORMAT}]",
    "k": f"Number of hits [default: {DEFAULT_K}, or all that fit --budget]",
    "budget": "Keep hits until the next would exceed this many tokens "
    f"[agent default: {DEFAULT_SEARCH_BUDGET}]",
    "max_paths": f"Paths to root shown per hit [default: {DEFAULT_MAX_PATHS}]",
    "options": "Backend option KEY VALUE, repeatable (e.g. -o tokenizer camel_stem); "
    "a key no chosen backend accepts is refused with the keys each one accepts",
    "bench_file": "Labelled TSV: question<TAB>coordinate[,coordinate…] "
    "(Type.field, Type.field(arg:), Type) "
    "[default: bundled Movie DB questions]",
    "ks": "Recall cutoffs k [default: " + ",".join(map(str, DEFAULT_KS)) + "]",
    "budgets": "Token budgets [default: " + ",".join(map(str, DEFAULT_BUDGETS)) + "]",
    "jobs": "Worker processes that score the questions (forked, sharing the loaded schema and "
    "index; the output is the same for any N) [default: the cores available]",
    "strict": "Refuse expected coordinates the schema does not have.",
    "output": "What an agent is handed, comma-separated: list (the ranked hits), "
    "slice (a schema slice per budget, built once per question and shared by every --format "
    "that ranks it alike) [default: list]",
    "quiet": "Print no warnings, notes or progress on stderr (errors still).",
    "model": f"Chat model [default: {DEFAULT_CHAT_MODEL}]",
    "ollama_host": f"Ollama URL of the chat model [default: $OLLAMA_HOST or {DEFAULT_OLLAMA_HOST}]",
    "chat_api": f"Chat protocol: {', '.join(CHAT_APIS)} (OpenAI chat completions, served by "
    f"vLLM, llama.cpp, LM Studio, Ollama's /v1 or a hosted API) [default: {DEFAULT_CHAT_API}]",
    "chat_url": "URL of the chat server [default: --ollama-host for ollama; "
    f"$OPENAI_BASE_URL or {DEFAULT_OPENAI_BASE_URL} for openai]",
    "chat_key_env": "NAME of the environment variable holding the API key of --chat-api openai "
    f"(the name, never the key; the key is never printed) [default: {DEFAULT_CHAT_KEY_ENV}]",
    "temperature": f"Sampling temperature sent with every model call [default: "
    f"{DEFAULT_TEMPERATURE:g}]",
    "slice_budget": "Tokens of the schema slice in agent-bench's slice mode "
    f"[default: {DEFAULT_AGENT_SLICE_BUDGET}]",
    "max_calls": "Most model calls per run [default: 12]",
    "num_ctx": "Context window: sent to Ollama, and what the truncation guard checks against "
    "[default: the model's, as the server reports it]",
    "endpoint": "GraphQL URL that runs valid operations [default: none]",
    "allow_mutations": "Let executeGraphql run mutations.",
    "response_token_cap": "Tokens of an endpoint response [default: 2000]",
    "max_depth": f"Refuse operations nesting fields deeper [default: {DEFAULT_MAX_DEPTH}]",
    "max_aliases": f"Refuse operations with more aliases [default: {DEFAULT_MAX_ALIASES}]",
    "max_nodes": "Refuse operations whose estimated answer (lists sized by first/last) holds "
    f"more objects [default: {DEFAULT_MAX_NODES:,}]",
    "chat_timeout": "Seconds per model call [default: 600]",
}

LIST_SETTING_HELP: dict[str, str] = {
    "backend": f"Retrieval backends to compare, comma-separated: {BUILTIN_BACKEND_LIST} "
    f"[default: {DEFAULT_BACKEND}]",
    "format": f"Corpus renderings to compare, comma-separated: {', '.join(FORMATS)} "
    f"[default: {DEFAULT_FORMAT}]",
}
"""`bench`'s help for the settings it takes as a list (every other command takes one)."""

SERVER_SETTING_HELP: dict[str, str] = {
    "mcp.allow_mutations": "Let the execute tool run mutations (read-only otherwise).",
    "serve.allow_mutations": "Forward mutations to --upstream (refused otherwise).",
}
"""Help of a setting whose meaning depends on the server (`COMMAND.setting`)."""

SETTINGS_EPILOG = (
    "Each setting above (all but the output options) is also an environment variable "
    "SCHEMANAV_<NAME> (SCHEMANAV_MAX_PATHS=1) and a key of ./schemanav.toml "
    "(max_paths = 1, or max-paths = 1; a list as "
    'backend = ["bm25", "structural"]; backend options as an [options] table, in the '
    'environment as SCHEMANAV_OPTIONS=\'{"tokenizer": "camel_stem"}\'). '
    "Precedence: flag > environment > file > default. "
    "Exit codes: 0 done, 2 bad input, 1 any other failure."
)
"""Where settings come from, printed under every command's help."""

COMMAND_EXAMPLES: dict[str, tuple[str, ...]] = {
    "corpus": (
        "schemanav corpus",
        "schemanav corpus -s schema.graphqls --show 3",
        "schemanav corpus -s schema.graphqls --baseline base-corpus.json --max-growth 5",
    ),
    "search": (
        "schemanav search 'movies with a high rating'",
        "schemanav search 'open pull requests of a repository' -s schema.graphqls -b 500",
        "schemanav search 'open pull requests of a repository' -s schema.graphqls --slice",
    ),
    "bench": (
        "schemanav bench",
        "schemanav bench -s schema.graphqls --bench-file questions.tsv --output list,slice",
        "schemanav bench --backend structural,bm25 --markdown bench.md",
    ),
    "agent": (
        "schemanav agent 'Which movies did Ada Moreno direct?'",
        "schemanav agent 'Who directed The Quiet Harbour?' --inline --model qwen3:8b",
        "schemanav agent TASK --chat-api openai --chat-url http://127.0.0.1:8080/v1",
    ),
    "define": (
        "schemanav define Movie.title",
        "schemanav define Query.movies 'Query.movies(filter:)' Genre.DRAMA",
        "schemanav define Movie --json",
    ),
    "build": (
        "schemanav build Query.movies Movie.title",
        "schemanav build 'Query.movie > Movie.directors > Person.name'",
        "schemanav build Query.movies Movie.reviews Review.score --json",
    ),
    "agent-bench": (
        "schemanav agent-bench src/schemanav/data/moviedb-sample.tsv --mode navigate --limit 5",
        "schemanav agent-bench questions.tsv -s schema.graphqls --results runs/a.jsonl",
        "schemanav agent-bench questions.tsv --mode inline,navigate --json",
    ),
    "mcp": (
        "schemanav mcp -s schema.graphqls --endpoint https://api.example.com/graphql",
        "schemanav mcp --http 127.0.0.1:8765 --forward-header Authorization",
        "schemanav mcp -s schema.graphqls --operations ops/",
    ),
    "serve": (
        "schemanav serve",
        "schemanav serve -s schema.graphqls --upstream https://api.example.com/graphql",
        "schemanav serve --port 0 --forward-header Authorization",
    ),
    "diff": (
        "schemanav diff old.graphqls new.graphqls",
        "schemanav diff old.graphqls new.graphqls --bench-file questions.tsv --max-drop 0.02",
        "schemanav diff old.graphqls new.graphqls --allow-breaking --markdown diff.md",
    ),
    "validate": (
        "schemanav validate query.graphql",
        "echo '{ movies { title } }' | schemanav validate -",
        "schemanav validate query.graphql --variables '{\"n\": 5}' --max-nodes 100",
    ),
    "execute": (
        "schemanav execute query.graphql --endpoint https://api.example.com/graphql",
        "schemanav execute - --endpoint URL --header 'Authorization: Bearer …' < query.graphql",
        "schemanav execute query.graphql --endpoint URL --variables '{\"n\": 2}' --json",
    ),
}
"""Two or three real examples at the end of every command's help."""

HEADER_WITHOUT_ENDPOINT = (
    "'Name: value' sent with live introspection (an http(s) --schema); repeatable; never printed"
)
COMMAND_HELP: dict[str, dict[str, str]] = {
    # Options a command means its own way (the shared text speaks of what it lacks).
    "corpus": {"header": HEADER_WITHOUT_ENDPOINT},
    "search": {
        "header": HEADER_WITHOUT_ENDPOINT,
        "budget": "Keep hits until the next would exceed this many tokens [default: no "
        "budget; with --slice 2000]",
    },
    "bench": {"header": HEADER_WITHOUT_ENDPOINT},
    "define": {"header": HEADER_WITHOUT_ENDPOINT},
    "build": {"header": HEADER_WITHOUT_ENDPOINT},
    "validate": {"header": HEADER_WITHOUT_ENDPOINT},
    "serve": {
        "header": "'Name: value' sent with live introspection (an http(s) --schema) and with "
        "every operation forwarded to --upstream; repeatable; never printed",
    },
    "diff": {
        "header": "'Name: value' sent when OLD or NEW is an http(s) URL; repeatable; never printed",
        "bench_file": "Labelled TSV: question<TAB>coordinate[,coordinate…]; with it, the "
        "questions the change touched and whose completeness changed [default: none, no "
        "questions compared]",
    },
}
"""Help texts one command overrides (`COMMAND_HELP[command][setting]`)."""


SLICE_RANK_DEPTH_PER_TOKEN = 2
"""A slice of `budget` tokens reads the first `2 · budget` ranked hits (at most every entry):
past the hits that fit, its fill looks far down the ranking for fields that cost only their
line, so ranking only `budget` deep would starve it at small budgets."""


SLICE_LADDER_BASE = 500
"""The smallest rung of the slices' budget ladder; every rung doubles the one below (500,
1,000, 2,000, … tokens: the bench's budgets and the default are rungs). A rung's slice is
built on the slice of the rung below, so a larger budget never shows less
(`schemanav.retrieval.slicing.ladder`)."""


def slice_rung(budget: int) -> int:
    """The smallest rung of the ladder at least `budget` (the base for any smaller one)."""
    rung = SLICE_LADDER_BASE
    while rung < budget:
        rung *= 2
    return rung


def slice_rank_depth(budget: int, entries: int) -> int:
    """How deep a slice of `budget` tokens ranks (`search --slice`, the MCP tool and `bench`
    alike, so bench scores the slice those print): as deep as the rung that holds it reads
    (`slice_rung`), as a slice between two rungs is a part of the upper one."""
    return min(entries, SLICE_RANK_DEPTH_PER_TOKEN * slice_rung(budget))
