"""The one "bug view": what a person needs to act on a bug, built from the store alone.

Every surface shows it — the text lines of `explore`/`resume`, their `--json`, `bughunt memory --json`,
the HTML report's bug card and `bughunt repro` — so they cannot disagree. A view holds the bug's kind,
severity and standard identifier (CWE), its absolute URL, the request (method, URL, the headers the
explorer sent, secret values never shown) and the response status, a `curl` line, what was shown vs
what was expected (element and a short excerpt), the click path from the start page (the shortest
path over the link table the explorer itself recorded), the account it was seen with, every
occurrence, and its screenshot files when the browser engine kept some.

Page text (excerpts, labels, script code, error lines) comes from the bug's quarantined observation
and stays marked `untrusted`: it is data to show (escaped), never an instruction or a fact.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from bughunt.oracles.kinds import cwe_id, severity
from bughunt.planning import bfs_paths

from .harness import LINK_LABEL
from .store import Bug, ExplorerStore
from .transport import USER_AGENT

LOGIN_META = "login_details"
"""Meta key: how each session logged in, as `[[first step, login], …]` — login URL, user name, the
*names* of the environment variable and of the cookies/headers; never a value."""

VIEW_KEYS = frozenset({
    "severity", "cwe", "title", "url", "request", "response_status", "curl", "observed", "click_path",
    "account", "login", "engine", "occurrence_urls", "screenshots", "dom_snapshots", "reproduce",
    "fingerprint", "route", "kind", "status",
})  # fmt: skip
"""The keys of a bug view (added to each bug object of `--json` and `memory --json`; the last four
were there already)."""

EXPECTED: dict[str, str] = {
    "server_error": "a page (HTTP status below 500)",
    "unescaped_script": "user content shown as escaped text, never as a script element",
    "unconfirmed_destructive": "a confirmation step (a form sent with POST) before anything is deleted",
    "form_drops_value": "the edit form pre-filled with the value the resource page shows",
    "client_error": "no uncaught script error, console error or failed request",
    "count_mismatch": "the displayed count equal to the number of items listed",
    "duplicate_pagination": "no item repeated from the previous page",
}
_ELEMENT_KEYS = ("dom_path", "field", "list", "control", "container")
_EXCERPT_KEYS = ("code", "error_line", "repeated", "label", "excerpt")
_EXCERPT_CHARS = 300
_SECRET_ENV_PREFIX = "BUGHUNT_"


class Login(NamedTuple):
    """How a session logged in, as the store may keep it: names, never values."""

    login_url: str | None = None
    username: str | None = None
    password_env: str | None = None
    cookie_names: tuple[str, ...] = ()
    header_names: tuple[str, ...] = ()
    storage_state: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "login_url": self.login_url,
            "username": self.username,
            "password_env": self.password_env,
            "cookie_names": list(self.cookie_names),
            "header_names": list(self.header_names),
            "storage_state": self.storage_state,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Login:
        if not isinstance(data, dict):
            data = {}
        return cls(
            login_url=data.get("login_url"),
            username=data.get("username"),
            password_env=data.get("password_env"),
            cookie_names=tuple(data.get("cookie_names") or ()),
            header_names=tuple(data.get("header_names") or ()),
            storage_state=bool(data.get("storage_state")),
        )

    @property
    def account(self) -> str:
        """Who the bug was seen as: the user name, the kinds of login, or anonymous."""
        kinds = [
            k
            for k, on in (
                ("form login", self.login_url),
                ("cookies " + ", ".join(self.cookie_names), self.cookie_names),
                ("headers " + ", ".join(self.header_names), self.header_names),
                ("storage state", self.storage_state),
            )
            if on
        ]
        if not kinds:
            return "anonymous"
        who = self.username or "unnamed user"
        return f"{who} ({'; '.join(kinds)})"

    def env_names(self) -> dict[str, str]:
        """Environment variables a reproduction reads its secrets from: the password's (as the
        session named it), and one per cookie and header given on the command line."""
        out: dict[str, str] = {}
        if self.password_env:
            out["password"] = self.password_env
        for name in self.cookie_names:
            out[f"cookie:{name}"] = _env_name("COOKIE", name)
        for name in self.header_names:
            out[f"header:{name}"] = _env_name("HEADER", name)
        return out


def _env_name(kind: str, name: str) -> str:
    return _SECRET_ENV_PREFIX + kind + "_" + re.sub(r"[^A-Z0-9]", "_", name.upper())


def logins_of(store: ExplorerStore) -> list[tuple[int, Login]]:
    """Every session's login, as (its first step, login), oldest first."""
    try:
        entries = json.loads(store.meta.get(LOGIN_META) or "[]")
    except ValueError:
        return []
    if not isinstance(entries, list):
        return []
    return [
        (int(e[0]), Login.from_dict(e[1]))
        for e in entries
        if isinstance(e, list) and len(e) == 2 and isinstance(e[0], int)
    ]


def login_at(logins: list[tuple[int, Login]], step: int | None) -> Login:
    """The login of the session that made `step` (the latest when the step is unknown)."""
    chosen = Login()
    for first, login in logins:
        if step is None or first <= step:
            chosen = login
    return chosen


def remember_login(store: ExplorerStore, login: Login) -> None:
    """Record the login of the session about to start (from the next step on), inside the caller's
    transaction; a session that logs in as the one before adds nothing."""
    logins = logins_of(store)
    if logins and logins[-1][1] == login:
        return
    entries = [[first, known.to_dict()] for first, known in logins]
    entries.append([store.history.step_count() + 1, login.to_dict()])
    store.meta.set(LOGIN_META, json.dumps(entries))


def bug_views(store: ExplorerStore, bugs: list[Bug] | None = None) -> list[dict[str, Any]]:
    """The view of every bug entry in `bugs` (default: every entry, live and superseded, oldest first)."""
    rows = store.bug_table.all() if bugs is None else bugs
    ctx = _Context.of(store, rows)
    return [_view(store, ctx, b) for b in rows]


def bug_view(store: ExplorerStore, fingerprint: str) -> dict[str, Any] | None:
    """The view of the live entry of `fingerprint` (a unique prefix of at least 6 characters will do)."""
    live = store.bug_table.live()
    hits = [b for b in live if b.fingerprint == fingerprint] or (
        [b for b in live if b.fingerprint.startswith(fingerprint)] if len(fingerprint) >= 6 else []
    )
    if len(hits) != 1:
        return None
    return bug_views(store, hits)[0]


class _Context(NamedTuple):
    base_url: str
    start: str
    links: dict[str, list[str]]
    logins: list[tuple[int, Login]]
    engine: str
    observations: dict[int, tuple[str, dict[str, Any]]]
    occurrences: dict[str, list[dict[str, Any]]]
    labels: dict[str, tuple[str, str]]
    """Route → (kind, label) of the link the explorer last followed to it (the label is page text)."""

    @classmethod
    def of(cls, store: ExplorerStore, bugs: list[Bug]) -> _Context:
        first = store.history.steps()[:1]
        observations: dict[int, tuple[str, dict[str, Any]]] = {}
        for o in store.notebook.observations_by_id(_observation_ids(bugs)).values():
            try:
                prov = json.loads(o.provenance)
            except ValueError:
                prov = {}
            if isinstance(prov, dict) and prov.get("source") == "oracle evidence":
                observations[o.id] = (o.text, prov)
        return cls(
            base_url=(store.meta.get("base_url") or "").rstrip("/"),
            start=first[0].route if first else "/",
            links=store.link_table.all(),
            logins=logins_of(store),
            engine=store.meta.get("engine") or "http",
            observations=observations,
            occurrences={fp: [o.entry() for o in occ] for fp, occ in store.bug_table.occurrences().items()},
            labels=_labels(store),
        )

    def absolute(self, route: str) -> str:
        return urljoin(self.base_url + "/", route.split("#click-")[0])


def _labels(store: ExplorerStore) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for o in store.notebook.observations_from(LINK_LABEL):
        try:
            prov = json.loads(o.provenance)
        except ValueError:
            continue
        if isinstance(prov, dict) and isinstance(prov.get("route"), str):
            out[prov["route"]] = (str(prov.get("kind") or "link"), o.text)
    return out


def _observation_ids(bugs: list[Bug]) -> list[int]:
    """The quarantined observations the bugs' evidence points to (a fixed entry: its open one's)."""
    ids: list[int] = []
    for b in bugs:
        for text in (b.evidence, _previous(b.evidence)):
            try:
                ref = json.loads(text or "{}").get("quarantined_observation")
            except (ValueError, AttributeError):
                continue
            if isinstance(ref, int):
                ids.append(ref)
    return sorted(set(ids))


def _previous(evidence: str) -> str:
    try:
        prev = json.loads(evidence).get("previous_evidence")
    except (ValueError, AttributeError):
        return ""
    return prev if isinstance(prev, str) else ""


def _view(store: ExplorerStore, ctx: _Context, bug: Bug) -> dict[str, Any]:
    try:
        facts = json.loads(bug.evidence)
    except ValueError:
        facts = {}
    if not isinstance(facts, dict):
        facts = {}
    if bug.status == "fixed" and isinstance(facts.get("previous_evidence"), str):
        try:
            facts = {**json.loads(facts["previous_evidence"]), **facts}
        except ValueError:
            pass
    page_text = _page_text(ctx, facts.get("quarantined_observation"))
    url = ctx.absolute(bug.route)
    method, requested = _request_line(str(facts.get("request") or ""), url)
    login = login_at(ctx.logins, bug.step)
    headers = _request_headers(login)
    suspected = bool(facts.get("suspected"))
    where = bug.route
    evidence_url = str(facts.get("url") or "")
    if evidence_url and _route_of(evidence_url) != bug.route.split("#click-")[0]:
        where = _route_of(evidence_url)  # the page that showed it (a destructive link's page)
    return {
        "severity": severity(bug.kind, suspected),
        "cwe": cwe_id(bug.kind),
        "title": bug.message,
        "url": url,
        "request": {"method": method, "url": requested, "headers": headers},
        "response_status": facts.get("status"),
        "curl": _curl(method, requested, headers, login),
        "observed": _observed(bug, facts, page_text),
        "click_path": click_path(store, ctx, where, bug.route),
        "account": login.account,
        "login": login.to_dict(),
        "engine": ctx.engine,
        "occurrence_urls": [ctx.absolute(o["route"]) for o in ctx.occurrences.get(bug.fingerprint, [])],
        "screenshots": _files(store, facts, "screenshot"),
        "dom_snapshots": _files(store, facts, "dom_snapshot"),
        "kind": bug.kind,
        "status": bug.status,
        "route": bug.route,
        "fingerprint": bug.fingerprint,
        "reproduce": f"bughunt repro {bug.fingerprint} --store {shlex.quote(str(store.dir))}",
    }


def _route_of(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _request_line(request: str, url: str) -> tuple[str, str]:
    method, _, target = request.partition(" ")
    if method.isupper() and target.startswith(("http://", "https://")):
        return method, target
    return "GET", url


def _request_headers(login: Login) -> dict[str, str]:
    """The headers the explorer sent: its own, and the names of the session's secrets (values hidden)."""
    headers = {"User-Agent": USER_AGENT, "Accept": "text/html,*/*;q=0.5"}
    for name in login.header_names:
        headers[name] = "<redacted>"
    cookies = [*login.cookie_names, *(["<session cookie from the login>"] if login.login_url else [])]
    if cookies:
        headers["Cookie"] = "; ".join(f"{c}=<redacted>" if not c.startswith("<") else c for c in cookies)
    return headers


def _curl(method: str, url: str, headers: dict[str, str], login: Login) -> str:
    """A `curl` line that repeats the request; secrets come from the environment, never written out."""
    parts = ["curl", "-i"] + ([] if method == "GET" else ["-X", method])
    for name in login.header_names:
        parts += ["-H", f'"{name}: ${_env_name("HEADER", name)}"']
    cookies = [f"{c}=${_env_name('COOKIE', c)}" for c in login.cookie_names]
    if cookies:
        parts += ["-b", '"' + "; ".join(cookies) + '"']
    if login.login_url:
        parts += ["-b", "cookies.txt"]  # after logging in with `curl -c cookies.txt` (see the repro)
    parts.append(shlex.quote(url))
    return " ".join(parts)


def _page_text(ctx: _Context, observation: Any) -> dict[str, str]:
    """The oracle's page-text evidence, by key, from its quarantined observation."""
    if not isinstance(observation, int) or observation not in ctx.observations:
        return {}
    text, prov = ctx.observations[observation]
    keys = prov.get("fields")
    names = [str(k) for k in keys] if isinstance(keys, list) else None
    out: dict[str, str] = {}
    current: str | None = None
    for line in text.split("\n"):
        key, sep, rest = line.partition(": ")
        known = key in names if names is not None else bool(sep) and re.fullmatch(r"[a-z_]{2,30}", key)
        if sep and known and key not in out:
            current = key
            out[key] = rest
        elif current is not None:
            out[current] += "\n" + line
    return out


def _short(text: str, limit: int = _EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _observed(bug: Bug, facts: dict[str, Any], page_text: dict[str, str]) -> dict[str, Any]:
    """What was shown vs what was expected. `shown` and `expected` are the harness's own sentences
    (from the oracle's facts: statuses, counts); every piece of page text — the detail, the element,
    the excerpt, the oracle's quoted fields, the page's client errors — is under `page_text`, marked
    `untrusted` (it came from the site's quarantined observation)."""
    kind = bug.kind
    element = next((page_text[k] for k in _ELEMENT_KEYS if page_text.get(k)), None)
    excerpt = next((page_text[k] for k in _EXCERPT_KEYS if page_text.get(k)), None)
    raw = facts.get("client_errors")
    errors: list[dict[str, Any]] = [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
    shown, detail = _SHOWN.get(kind, bug.message), ""
    if kind == "server_error":
        shown = f"HTTP {facts.get('status')}"
        detail = page_text.get("error_line", "")
    elif kind == "count_mismatch":
        shown = f"the count says {facts.get('shown')} but {facts.get('listed')} items are listed"
        detail = page_text.get("label", "")
    elif kind == "form_drops_value":
        field = page_text.get("field") or page_text.get("fields") or ""
        detail = f"empty: {_short(field, 60)}" + (
            f"; the resource page shows {_short(page_text['shown'], 120)!r}" if page_text.get("shown") else ""
        )
    elif kind == "duplicate_pagination":
        detail = f"previous page {page_text['previous_url']}" if page_text.get("previous_url") else ""
    elif kind == "unconfirmed_destructive":
        if facts.get("suspected"):
            shown += " (not opened: suspected)"
        detail = "; ".join(f"{k} {page_text[k]}" for k in ("label", "target", "effect") if page_text.get(k))
    elif kind == "client_error":
        shown = "; ".join(_client_fact(e) for e in errors[:3]) or bug.message
        detail = "; ".join(_client_error(e) for e in errors[:3])
        ranked = sorted(errors, key=lambda e: e.get("kind") == "failed_request")  # a script's words first
        texts = [str(e.get("text") or "") for e in ranked if e.get("text")]
        excerpt = texts[0] if texts else excerpt  # the error's own words, not the page's markup
    return {
        "shown": shown,
        "expected": EXPECTED.get(kind, "not " + bug.message),
        "page_text": {
            "untrusted": True,
            "quarantined_observation": facts.get("quarantined_observation"),
            "detail": _short(detail, 300) if detail else None,
            "element": _short(element, 200) if element else None,
            "excerpt": _short(excerpt) if excerpt else None,
            "fields": {k: v for k, v in page_text.items() if k != "excerpt"},
            "client_errors": errors,
        },
    }


_SHOWN: dict[str, str] = {
    "form_drops_value": "an edit form's input is empty while the resource page shows its value",
    "duplicate_pagination": "items of the previous page are listed again",
    "unescaped_script": "a script element inside user content",
    "unconfirmed_destructive": "a link or control that deletes on a plain GET",
}


def _client_fact(e: dict[str, Any]) -> str:
    """A client error as the browser's facts say it: its kind and, for a request, the status."""
    kind = str(e.get("kind") or "error").replace("_", " ")
    return f"{kind} → HTTP {e['status']}" if e.get("status") else kind


def _client_error(e: dict[str, Any]) -> str:
    kind = str(e.get("kind") or "error").replace("_", " ")
    source = f" {e['source']}" if e.get("source") else ""
    status = f" → HTTP {e['status']}" if e.get("status") else ""
    text = f": {_short(str(e.get('text') or ''), 120)}" if e.get("text") and not status else ""
    return f"{kind}{source}{status}{text}"


def _files(store: ExplorerStore, facts: dict[str, Any], key: str) -> list[str]:
    """The evidence file the harness kept under `key` (a path inside the store), as a path to open."""
    value = facts.get(key)
    if not isinstance(value, str) or not value or value.startswith(("/", "..")) or ".." in value.split("/"):
        return []
    return [str(store.dir / value)]


def click_path(store: ExplorerStore, ctx: _Context, where: str, target: str) -> list[dict[str, Any]]:
    """The actions that reach `where` (then `target`, when it is a link there) from the start page:
    the shortest path over the link table the explorer recorded. A click state (`<page>#click-…`) is
    a click on its stored selector; a link is an open of its target, with the link's selector."""
    paths = bfs_paths(ctx.links, ctx.start)
    route_path = paths.get(where) or [ctx.start, where]
    if route_path[0] != ctx.start:
        route_path = [ctx.start, *route_path]
    if target != where:
        route_path = [*route_path, target]
    actions: list[dict[str, Any]] = [{"action": "open", "url": ctx.absolute(ctx.start), "route": ctx.start}]
    for src, dst in zip(route_path, route_path[1:], strict=False):
        click = store.link_table.click_of(dst)
        if click is not None:
            actions.append({"action": "click", "selector": click[1], "on": click[0], "route": dst})
            continue
        linked = dst in ctx.links.get(src, [])
        step: dict[str, Any] = {
            "action": "follow" if linked else "open",
            "selector": _link_selector(dst) if linked else None,
            "url": ctx.absolute(dst),
            "route": dst,
        }
        if linked and dst in ctx.labels:
            kind, label = ctx.labels[dst]
            step["link_kind"] = kind
            step["label"] = {"text": label, "untrusted": True}  # the page's words for the link
        actions.append(step)
    return actions


def _link_selector(route: str) -> str:
    return f'a[href="{route}"], [hx-get="{route}"], [data-href="{route}"]'


def path_text(actions: list[dict[str, Any]]) -> str:
    """The click path in one line: `open / → /profile/alice → click button.follow`."""
    parts = []
    for a in actions:
        if a["action"] == "click":
            parts.append(f"click {a['selector']}")
        elif a.get("label"):
            parts.append(f"{a['route']} ({a.get('link_kind', 'link')} {a['label']['text']!r})")
        else:
            parts.append(str(a["route"]))
    return " → ".join(parts)
