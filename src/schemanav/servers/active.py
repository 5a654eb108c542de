"""The active schema: what a server answers from, rebuilt in the background when it changes.

The Semantic Introspection RFC asks that the index be of the *active* schema. A server holds
one served state (an endpoint, a tool box) built from one `Navigator`; `ActiveSchema` builds a
fresh one when

- the schema file changes (its size or modification time, then its bytes, polled every
  `FILE_POLL_S`),
- `refresh` seconds have passed (a URL schema is introspected again), or
- the process gets SIGHUP (either source),

and swaps it in with one reference assignment once it is whole, so a request (which reads
`current` once) is answered from one version only, and no request waits on a rebuild. A new
schema that does not load (a file saved half-way, an endpoint that is down) leaves the old one
served, with a warning.
"""

from __future__ import annotations

import hashlib
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from schemanav.errors import InputError
from schemanav.schema import is_url, schema_source

if TYPE_CHECKING:
    from schemanav.events import Events
    from schemanav.navigator import Navigator

Served = TypeVar("Served")
FILE_POLL_S = 0.2
MIN_REFRESH_S = 1.0


class ActiveSchema(Generic[Served]):
    """The latest state `build` made from the schema source; `current` is always whole."""

    def __init__(
        self,
        navigator: Navigator,
        build: Callable[[Navigator, Served | None], Served],
        *,
        refresh: float | None = None,
        events: Events | None = None,
        later: bool = False,
    ) -> None:
        """`later`: build the first state in the watch thread `start` starts, not here, so a
        server answers its probes while it loads (`ready` is False until then)."""
        if refresh is not None and refresh < MIN_REFRESH_S:
            raise InputError(
                f"--refresh takes at least {MIN_REFRESH_S:g} s between reloads; got {refresh:g}"
            )
        self._navigator = navigator
        self._build = build
        self._refresh = refresh
        self._events = events
        source = schema_source(navigator.settings)
        self._file = None if is_url(source) else Path(source)
        self._seen = self._file_state()
        self.reloading = False
        self.failed: BaseException | None = None
        """Why the first state could not be built (`later` only)."""
        self._loaded = threading.Event()
        self.generation = 0
        if not later:
            self._first(build(navigator, None))
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._previous_handler: Any = None

    def _first(self, state: Served) -> None:
        self.current: Served = state
        self.generation = 1
        self._loaded.set()

    @property
    def ready(self) -> bool:
        """Whether a whole state is served and none is being rebuilt."""
        return self._loaded.is_set() and self.failed is None and not self.reloading

    def wait_loaded(self, timeout: float | None = None) -> bool:
        """Block until the first state is served (True), it failed or `timeout` passed."""
        return self._loaded.wait(timeout)

    def start(self) -> None:
        """Watch in a daemon thread; SIGHUP reloads (when called from the main thread)."""
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGHUP"):
            self._previous_handler = signal.signal(
                signal.SIGHUP, lambda _signum, _frame: self._wake.set()
            )
        self._thread = threading.Thread(target=self._watch, name="schema-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the watch (and give SIGHUP back to whoever had it)."""
        self._stop.set()
        self._wake.set()
        if self._previous_handler is not None:
            signal.signal(signal.SIGHUP, self._previous_handler)
            self._previous_handler = None
        if self._thread is not None:
            self._thread.join(timeout=5)

    def reload(self) -> bool:
        """Build from the source now and swap it in; False (old state kept) when it fails."""
        seen = self._file_state()
        self.reloading = True
        try:
            fresh_navigator = type(self._navigator)(
                self._navigator.settings, self._navigator.events
            )
            fresh = self._build(fresh_navigator, self.current)
        except Exception as err:  # any failure keeps the schema being served
            redact = self._navigator.operations.redact
            self._say(
                f"the schema did not reload; still serving the previous one: {redact(str(err))}",
                True,
            )
            self._seen = seen
            return False
        finally:
            self.reloading = False
        self.current = fresh
        self._seen = seen
        self.generation += 1
        self._say(f"reloaded {self._navigator.label} (version {self.generation})", False)
        return True

    def _watch(self) -> None:
        if not self._loaded.is_set():
            try:
                self._first(self._build(self._navigator, None))
            except BaseException as err:  # told to whoever waits on the first load
                self.failed = err
                self._loaded.set()
                return
        wait = FILE_POLL_S if self._file is not None else self._refresh
        waited = 0.0
        while not self._stop.is_set():
            woken = self._wake.wait(timeout=wait)
            if self._stop.is_set():
                return
            self._wake.clear()
            waited += wait or 0.0
            due = self._refresh is not None and waited >= self._refresh
            if woken or due or self._file_changed():
                waited = 0.0
                self.reload()

    def _file_state(self) -> tuple[int, int, str] | None:
        """Size, modification time and digest of the schema file (None: not a file or gone)."""
        if self._file is None:
            return None
        try:
            stat = self._file.stat()
            digest = hashlib.sha256(self._file.read_bytes()).hexdigest()
        except OSError:
            return None
        return stat.st_size, stat.st_mtime_ns, digest

    def _file_changed(self) -> bool:
        if self._file is None or self._seen is None:
            return self._file is not None and self._file_state() is not None
        try:
            stat = self._file.stat()
        except OSError:
            return False  # gone for now (an editor replacing it): keep serving
        size, mtime, digest = self._seen
        if (stat.st_size, stat.st_mtime_ns) == (size, mtime):
            return False
        state = self._file_state()
        if state is not None and state[2] == digest:
            self._seen = state  # touched, not changed
            return False
        return state is not None

    def _say(self, message: str, warning: bool) -> None:
        if self._events is None:
            return
        if warning:
            self._events.warning(message)
        else:
            self._events.note(message)
