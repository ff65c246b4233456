"""One polite HTTP session per forum account: rate limit per host, retries with backoff, charset.

The clock and the sleep are injected so tests run without waiting. Nothing here logs request
bodies: they carry the password.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Callable, Mapping
from urllib.parse import urlsplit

import requests

from forumgm.daemon.forum.charset import decode_page
from forumgm.daemon.forum.conditional import KeptPages, validators
from forumgm.daemon.forum.errors import ForumError, MaybeSent, Unreachable

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# A POST may have been carried out whatever went wrong after it was sent (a proxy answers 502
# after the board posted): it is repeated only on 429, the one answer that says it was not
# carried out, and when the connection could not even be opened. Anything else is MaybeSent,
# which publishing reconciles (publish.py).
POST_RETRY_STATUSES = frozenset({429})
MAX_RETRY_AFTER = 300.0   # a board asking for a longer pause gets it across ticks, not inside one
# A body cut short (Content-Length not reached, a broken chunk, a garbled compression) is a
# transport failure like a reset: the page read is not the page the board sent.
TRANSPORT_ERRORS = (requests.Timeout, requests.ConnectionError, requests.exceptions.ChunkedEncodingError,
                    requests.exceptions.ContentDecodingError)


def user_agent() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        own = version("forumgm")
    except PackageNotFoundError:
        own = "dev"
    return f"forumgm/{own} (+host bot)"


@dataclass(frozen=True)
class Page:
    url: str            # after redirects
    status: int
    text: str
    location: str | None = None   # the Location of a redirect that was not followed
    validators: Mapping[str, str] = field(default_factory=dict)   # for a conditional GET of it (conditional.py)
    unchanged: bool = False       # the board answered 304: this is the copy kept from before


@dataclass(frozen=True)
class HttpPolicy:
    min_interval: float = 1.0     # seconds between two requests to one host
    timeout: float = 30.0
    retries: int = 4              # extra attempts after a 5xx or a timeout
    backoff: float = 2.0          # first wait; doubled each time


class EnvironmentOnce(requests.Session):
    """A session that reads what the environment says of a board's address (the proxy of
    HTTP(S)_PROXY unless NO_PROXY names the host, a CA bundle of REQUESTS_CA_BUNDLE) once per
    scheme, host and port, as requests would at its first request there, and keeps it: requests
    reads every environment variable twice a request for it, a tenth of a millisecond a page,
    and the daemon's environment does not change while it runs. A request given its own proxies,
    stream, verify or cert is read as requests reads it, and so is one after the session's own
    settings changed."""

    PLACES_KEPT = 16     # a session speaks to one board; more places than this are read afresh

    def __init__(self) -> None:
        super().__init__()
        self._environment: dict[tuple, dict] = {}

    def __setstate__(self, state) -> None:
        # requests pickles (and so copies) a session by its own attribute list: a copy reads anew
        super().__setstate__(state)
        self._environment = {}

    def merge_environment_settings(self, url, proxies, stream, verify, cert):
        if not self.trust_env or proxies or (stream, verify, cert) != (None, None, None):
            return super().merge_environment_settings(url, proxies, stream, verify, cert)
        key = (*urlsplit(url)[:2], self.stream, self.verify, self.cert, tuple(self.proxies.items()))
        settings = self._environment.get(key)
        if settings is None:
            if len(self._environment) >= self.PLACES_KEPT:
                self._environment.clear()
            settings = self._environment[key] = super().merge_environment_settings(url, {}, None, None, None)
        return {**settings, "proxies": dict(settings["proxies"])}


class HttpClient:
    def __init__(self, policy: HttpPolicy = HttpPolicy(), session: requests.Session | None = None,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 stopping: Callable[[], bool] = lambda: False):
        self.policy = policy
        self.stopping = stopping    # SIGTERM: no more retries (the sleep given should wake on it too)
        self.session = session or EnvironmentOnce()
        self.session.headers["User-Agent"] = user_agent()
        self.clock = clock
        self.sleep = sleep
        self.requests_made = 0
        self.kept = KeptPages()     # pages that came with validators, for conditional GETs
        self._last_at: dict[str, float] = {}
        self._dated: tuple[datetime, float] | None = None    # the latest answer's Date, when it came

    def board_now(self) -> datetime | None:
        """The board's own clock now, by the `Date:` of its latest answer (None: none told it)."""
        if self._dated is None:
            return None
        date, at = self._dated
        return date + timedelta(seconds=self.clock() - at)

    def get(self, url: str, whole: Callable[[str], bool] | None = None, **params) -> Page:
        """`whole`: whether a page's own markup says it came whole; a page that does not is a page cut
        short (a close-delimited answer the connection ended early shows no HTTP error), retried as
        a reset is."""
        if params:
            return self._send("GET", url, whole=whole, params=params)
        return self.kept.answer(url, self._send("GET", url, whole=whole, headers=self.kept.ask(url) or None))

    def post(self, url: str, data: dict[str, str], multipart: bool = False, follow: bool = True,
             headers: dict[str, str] | None = None, files: dict[str, tuple[str, bytes, str]] | None = None) -> Page:
        """`files`: field -> (file name, content, media type), sent multipart."""
        if multipart or files:
            return self._send("POST", url, files={**{k: (None, v) for k, v in data.items()}, **(files or {})},
                              follow=follow, headers=headers)
        return self._send("POST", url, data=data, follow=follow, headers=headers)

    def wait_until(self, moment: float) -> None:
        """The pauses the board needs (between two requests, a form's age, a flood interval) are kept
        even once forumgm is stopping, when the sleep given wakes at once: a form posted in the second
        it was fetched is refused (phpBB, SMF), and every draft left in a SIGTERM's tick went back to
        the host as refused. Only the retries' backoff ends early (_send)."""
        remaining = moment - self.clock()
        if remaining <= 0:
            return
        self.sleep(remaining)
        left = moment - self.clock()
        if self.stopping() and left > 0:
            time.sleep(left)

    def _send(self, method: str, url: str, follow: bool = True, whole: Callable[[str], bool] | None = None,
              **kwargs) -> Page:
        delay = self.policy.backoff
        for attempt in range(self.policy.retries + 1):
            self._pace(url)
            asked = None      # the pause the board asks for
            try:
                response = self.session.request(method, url, timeout=self.policy.timeout,
                                                allow_redirects=follow, **kwargs)
            except TRANSPORT_ERRORS as error:
                if method == "POST" and not isinstance(error, requests.ConnectTimeout):
                    raise MaybeSent(f"POST {_without_query(url)}: {type(error).__name__}; "
                                    "not repeated, it may have been carried out") from error
                problem = f"{type(error).__name__}"
            else:
                if method == "POST" and response.status_code >= 500:
                    raise MaybeSent(f"POST {_without_query(url)}: HTTP {response.status_code}; "
                                    "not repeated, it may have been carried out")
                retry_on = POST_RETRY_STATUSES if method == "POST" else RETRY_STATUSES
                if response.status_code not in retry_on:
                    page = self._page(response)
                    if whole is None or response.status_code != 200 or whole(page.text):
                        return page
                    problem = "the page was cut short (its closing markup is missing)"
                else:
                    problem = f"HTTP {response.status_code}"
                    asked = _retry_after(response)
            if attempt == self.policy.retries:
                raise Unreachable(f"{method} {_without_query(url)} failed after {attempt + 1} attempts: {problem}")
            wait = delay if asked is None else asked
            log.warning("%s %s: %s; retrying in %.0f s", method, _without_query(url), problem, wait)
            self.sleep(wait)
            if self.stopping():
                raise ForumError(f"{method} {_without_query(url)}: {problem}; not retried, forumgm is stopping")
            delay *= 2
        raise AssertionError("unreachable")

    def _pace(self, url: str) -> None:
        host = urlsplit(url).netloc
        last = self._last_at.get(host)
        if last is not None:
            self.wait_until(last + self.policy.min_interval)
        self._last_at[host] = self.clock()
        self.requests_made += 1

    def _page(self, response: requests.Response) -> Page:
        self._keep_date(response.headers.get("Date"))
        text = decode_page(response.headers.get("Content-Type"), response.content)
        location = response.headers.get("Location") if response.is_redirect else None
        page = Page(url=response.url, status=response.status_code, text=text, location=location,
                    validators=validators(response.headers))
        if response.status_code >= 400 and response.status_code != 404:
            # the adapter reads the board's own words on the page (a flood refusal, a ban)
            raise HttpError(f"{response.request.method} {_without_query(response.url)}: HTTP {response.status_code}",
                            page)
        return page


    def _keep_date(self, date: str | None) -> None:
        try:
            told = parsedate_to_datetime(date) if date else None
        except (TypeError, ValueError):
            return
        if told is not None:
            self._dated = (told if told.tzinfo else told.replace(tzinfo=timezone.utc), self.clock())


class HttpError(ForumError):
    """An error status the board answered with a page: the page is kept for its message."""

    def __init__(self, message: str, page: Page):
        super().__init__(message)
        self.page = page


def _retry_after(response: requests.Response) -> float | None:
    """The pause a board asks for (Retry-After in seconds, on 429 and 503), at most MAX_RETRY_AFTER."""
    value = response.headers.get("Retry-After", "").strip()
    if not value.isdigit():
        return None     # absent, or an HTTP date (rare on forums): the own backoff applies
    return min(float(value), MAX_RETRY_AFTER)


def _without_query(url: str) -> str:
    """URLs are logged without their query: phpBB puts the session id there."""
    return url.split("?", 1)[0]
