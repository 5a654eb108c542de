#!/usr/bin/env bash
# Fetch one of the GraphQL AI Working Group's slices (graphql/ai-wg, pinned commit: GitHub or
# GitLab) and turn it into schemas/NAME-wg.graphqls and benchmarks/NAME-wg[-full].tsv. The data is not committed to
# this repository (licence OWFa-1.0); run this once to get it.
set -euo pipefail

COMMIT=72e39082da9624f4a6197baf926a5177acc63a07
# WG_BASE_URL points the download at a mirror (any URL curl reads, file:// included).
BASE_URL=${WG_BASE_URL:-https://raw.githubusercontent.com/graphql/ai-wg/${COMMIT}/benchmark/evaluation/src}
SOURCE_LABEL="https://github.com/graphql/ai-wg commit ${COMMIT}, benchmark/evaluation/src/"
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
PYTHON=${PYTHON:-python3}

usage() {
  cat <<EOF
usage: $(basename "$0") [--schema github|gitlab] [--from DIR] [--out-dir DIR] [--labels fields|full]

Downloads one of the GraphQL AI Working Group's benchmark slices at commit ${COMMIT:0:12}
and writes schemas/NAME-wg.graphqls and benchmarks/NAME-wg.tsv (NAME: github or gitlab).

  --schema S     github (default; queries gh-ext-NNN) or gitlab (queries glab-NNN)
  --from DIR     use a local copy laid out like shared/wg (NAME/schema.graphql,
                 NAME/queries/PREFIX-NNN[-kw].yaml) instead of downloading
  --out-dir DIR  where schemas/ and benchmarks/ are written (default: $REPO_ROOT)
  --labels L     fields (default): benchmarks/NAME-wg.tsv with Type.field labels only;
                 full: benchmarks/NAME-wg-full.tsv with every mustInclude coordinate
                 (Type.field, Type.field(arg:), Type)
  -h, --help     show this help

Environment: PYTHON (default python3), WG_BASE_URL (download mirror).
EOF
}

die() {
  echo "fetch-wg-benchmark: $1" >&2
  exit "${2:-1}"
}

# One value of curl's config file, quoted: backslash and double quote escaped. A control
# character (a newline would start a new curl option) is refused, never written.
curl_quoted() {
  local value=$1
  [[ $value != *[[:cntrl:]]* ]] || die "WG_BASE_URL and the paths must not contain control characters (a newline would add curl options)" 2
  value=${value//\\/\\\\}
  value=${value//\"/\\\"}
  printf '"%s"' "$value"
}

from_dir=""
out_dir=$REPO_ROOT
labels=fields
schema=github
while [[ $# -gt 0 ]]; do
  case $1 in
    --from)
      [[ $# -ge 2 ]] || die "--from needs a folder (laid out like shared/wg)" 2
      from_dir=$2
      shift 2
      ;;
    --from=*)
      from_dir=${1#*=}
      shift
      ;;
    --out-dir)
      [[ $# -ge 2 ]] || die "--out-dir needs a folder" 2
      out_dir=$2
      shift 2
      ;;
    --out-dir=*)
      out_dir=${1#*=}
      shift
      ;;
    --labels)
      [[ $# -ge 2 ]] || die "--labels needs fields or full" 2
      labels=$2
      shift 2
      ;;
    --labels=*)
      labels=${1#*=}
      shift
      ;;
    --schema)
      [[ $# -ge 2 ]] || die "--schema needs github or gitlab" 2
      schema=$2
      shift 2
      ;;
    --schema=*)
      schema=${1#*=}
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      die "unknown argument '$1' (see --help)" 2
      ;;
  esac
done

case $schema in
  github) prefix=gh-ext ;;
  gitlab) prefix=glab ;;
  *) die "--schema must be github or gitlab, not '$schema'" 2 ;;
esac

command -v "$PYTHON" >/dev/null 2>&1 || die "'$PYTHON' not found: install Python 3 or set PYTHON" 2

if [[ -n $from_dir ]]; then
  if [[ ! -f $from_dir/$schema/schema.graphql ]] \
    || ! compgen -G "$from_dir/$schema/queries/$prefix-*.yaml" >/dev/null; then
    die "--from $from_dir must hold $schema/schema.graphql and $schema/queries/$prefix-*.yaml (laid out like shared/wg)" 2
  fi
  src_dir=$from_dir
  label="$SOURCE_LABEL read from a local copy"
else
  command -v curl >/dev/null 2>&1 || die "curl not found: install it, or pass --from DIR with a local copy" 2
  work_dir=$(mktemp -d)
  trap 'rm -rf "$work_dir"' EXIT
  src_dir=$work_dir/wg
  config=$work_dir/curl.config
  curl_quoted "$BASE_URL" >/dev/null # refuse a bad URL before writing anything
  curl_quoted "$src_dir" >/dev/null
  {
    printf 'url = %s\noutput = %s\n' \
      "$(curl_quoted "$BASE_URL/schemas/$schema/schema.graphql")" \
      "$(curl_quoted "$src_dir/$schema/schema.graphql")"
    for number in $(seq -f '%03g' 1 100); do
      for name in "$prefix-$number" "$prefix-$number-kw"; do
        printf 'url = %s\noutput = %s\n' \
          "$(curl_quoted "$BASE_URL/queries/all-schemas/$name.yaml")" \
          "$(curl_quoted "$src_dir/$schema/queries/$name.yaml")"
      done
    done
  } >"$config"
  echo "downloading 201 files from $BASE_URL ..." >&2
  curl --fail --fail-early --silent --show-error --location --retry 3 --create-dirs \
    --config "$config" \
    || die "download failed (offline? pass --from DIR with a local copy laid out like shared/wg)" 1
  label=$SOURCE_LABEL
fi

"$PYTHON" "$SCRIPT_DIR/wg_to_tsv.py" --src "$src_dir" --out-dir "$out_dir" --source-label "$label" --labels "$labels" --schema "$schema"
