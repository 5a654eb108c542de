"""The test suite's Movie DB GraphQL API on 127.0.0.1, to try `execute`, `serve --upstream`
and `mcp --endpoint` by hand (graphql-core behind http.server; not part of the product).

    python scripts/moviedb_server.py [--port 8724] [--token TOKEN]

With `--token`, a request without `Authorization: Bearer TOKEN` is answered HTTP 401. One line
per request on stderr says whether it carried an Authorization header (never its value).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from servers.graphql_server import serve_moviedb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8724)
    parser.add_argument("--token", help="require this bearer token")
    args = parser.parse_args()
    with serve_moviedb(token=args.token, port=args.port) as server:
        print(f"Movie DB GraphQL API at {server.url} (Ctrl-C stops it)", file=sys.stderr)
        seen = 0
        try:
            while True:
                time.sleep(0.2)
                for request in server.requests[seen:]:
                    carried = "with" if "authorization" in request.headers else "without"
                    line = f"{request.method} {request.path} {carried} Authorization"
                    print(line, file=sys.stderr)
                seen = len(server.requests)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
