"""Text that reaches a terminal: control and escape sequences removed.

Schema descriptions, server error texts, model answers and tool arguments come from outside;
an ESC sequence in any of them could recolour, retitle or rewrite the user's terminal. Every
printed text goes through `strip_control` first. Tabs and newlines are kept (they are layout,
not commands); everything else in Unicode's control categories is dropped, ESC sequences whole.
"""

from __future__ import annotations

import re

# CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`), other two-byte escapes, and
# the 8-bit C1 forms of CSI and OSC.
_ESCAPES = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?          # CSI … final byte
  | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC … terminator
  | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?     # DCS, SOS, PM, APC … ST
  | \x1b.?                                     # any other escape and its next character
    """,
    re.VERBOSE | re.DOTALL,
)
# C0 controls except tab and newline, DEL, C1 controls, and the bidi overrides/isolates that
# can make a printed line read differently from its bytes.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def strip_control(text: str) -> str:
    """`text` without terminal escape sequences or control characters (tab, newline kept)."""
    if text.isprintable():
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))


def one_line(text: str) -> str:
    """`text` on one line, controls stripped and runs of whitespace collapsed."""
    return " ".join(strip_control(text).split())


def clipped(text: str, limit: int = 200) -> str:
    """`text`, or its first `limit` characters and how many more: an input quoted in an error
    line (a 100 KB coordinate) stays one readable line."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit:,} more characters]"
