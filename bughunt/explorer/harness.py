"""What the harness writes after each fetch: the step, the visit, the links, and the bug table.

Exact state is code's job, not the model's: a finding is matched to the bug table by fingerprint, a
bug seen again is not reported again, and a changed status inserts a new live entry that supersedes
the old one (stamped with time and app version). Nothing here copies page text into memory except as
a quarantined observation.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.fingerprint import route_shape
from bughunt.oracles import KINDS, Finding
from bughunt.page import FetchedPage
from bughunt.record_repr import field_repr

from . import destructive_mode
from .engine import FetchResult
from .store import ExplorerStore

OBSERVATION_CHARS = 20_000
# Response headers that may carry a session or a secret are never kept, not even quarantined.
_SECRET_HEADER = re.compile(r"(?i)cookie|auth|token|secret|session|csrf|api-?key")
# Evidence fields that are the harness's own facts about the request; every other string an oracle
# attaches (excerpts, headings, labels, script code) is page text and goes to quarantine.
_FACT_FIELDS = frozenset(
    {"request", "url", "status", "content_type", "elapsed_ms", "location", "line", "probe", "inspected"}
)
"""Evidence strings that are the explorer's own facts, not page text: `probe` names the one-off check
that found a bug (`refused_form`), `inspected` the route whose inspection did."""


ALL_KINDS = frozenset(KINDS)

FAILURES = frozenset({"timeout", "network_error", "unreachable"})
"""Fetch outcomes that say nothing about the page (contract 3): not visits, retried later."""


def is_failure(outcome: str, status: int | None = None) -> bool:
    """A failed fetch: no answer, or an answer from something in front of the site (a 5xx gateway
    error that the fetcher classified as an HTTP error rather than a page)."""
    return outcome in FAILURES or (outcome == "http_error" and status is not None and status >= 500)


@dataclass(repr=False, slots=True, eq=False)
class StepOutcome:
    """What one step changed, for the progress display, the JSON summary and the llm policy."""

    __repr__ = field_repr

    n: int
    route: str
    outcome: str
    status: int | None
    links: list[str] = field(default_factory=list)
    new_bugs: list[Finding] = field(default_factory=list)
    seen_again: list[Finding] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    repeat: bool = False
    tokens: int = 0
    detail: str = ""
    """A harness code for what happened (`detail_code`), never the site's own words."""
    click: bool = True
    """False for the landing on the start page, which the budget does not count."""
    previous_hash: str | None = None
    """Set when the page was remembered with another DOM structure: the app may have changed under it."""
    partial: bool = False
    """The answer was a fragment (an HTMX partial): a state of the page it came from, which stays the
    position — its other links are still there to click."""


def record_step(
    store: ExplorerStore,
    *,
    session_id: int,
    result: FetchResult,
    links: Sequence[str],
    findings: Sequence[Finding],
    version: str | None,
    tokens: int,
    retest: bool,
    dedupe: bool,
    now: float,
    position: str,
    structure_hash: str | None = None,
    failed: bool = False,
    came_by: tuple[str, str] | None = None,
    judged: frozenset[str] = ALL_KINDS,
) -> StepOutcome:
    """Write one step inside the caller's transaction (`ExplorationGraph.write_step`). Returns what changed.

    A `failed` fetch (no answer) is a step but not a visit: the route stays unvisited, to be retried.
    `judged`: the kinds of bug whose checks judged the page in full this step (`_supersede`)."""
    route = result.final_route if result.outcome == "page" and result.final_route else result.route
    detail = detail_code(result)
    repeat = store.visits.is_seen_page(route)  # a fresh request token is not a new page
    n = store.history.add_step(
        session_id,
        route=result.route,
        final_route=route,
        outcome=result.outcome,
        status=result.status,
        detail=detail,
        app_version=version,
        tokens=tokens,
        repeat=int(repeat),
        retest=int(retest),
        elapsed_ms=result.page.elapsed_ms if result.page else None,
        at=now,
    )
    if came_by is not None and came_by[1].strip():
        _quarantine_label(store, result.route, came_by, n, now)
    page_links = list(links) if result.outcome == "page" else []
    out = StepOutcome(n, route, result.outcome, result.status, page_links, repeat=repeat, tokens=tokens)
    out.detail = detail
    if failed:
        store.meta.set("position", position)
        return out
    store.visits.record(route, result.outcome, result.status, version, page_links, now)
    if result.route != route:
        # The requested address redirected: remember it as visited too, so it is not chosen again.
        store.visits.record(result.route, "redirect", result.status, version, [route], now)
    if result.outcome == "page" and structure_hash is not None:
        before = store.visits.set_structure_hash(route, structure_hash)
        if (
            before is not None
            and before != structure_hash
            and not store.history.loaded_in_session(route, session_id, n)
        ):
            # An upgrade shows between sessions. Within one, a page drawn otherwise on its next load is
            # the app's state, often one the walk's own clicks set (a script's table keeping its
            # search panel and page size in local storage): taken for an upgrade, it put every list
            # page due and the rest of the walk went round the hub pages toward them (31 of 38
            # repeat clicks at 100 clicks, corpus ho7_starlette_admin).
            out.previous_hash = before
    if result.outcome == "page" and result.page is not None:
        _record_bugs(store, out, session_id, route, findings, version, dedupe, now)
        _supersede(store, out, route, judged, version, now)
        _quarantine(store, result.page, n, now)
    store.meta.set("position", position)
    return out


_NETWORK_CODES: tuple[tuple[str, str], ...] = (
    ("robots.txt", "robots_unreachable"),  # the engine does not fetch a site whose robots.txt fails
    ("refused", "connection_refused"),
    ("connecterror", "connect_failed"),  # httpx: refused, unreachable or unresolvable
    ("remoteprotocolerror", "bad_response"),
    ("readerror", "connection_reset"),
    ("writeerror", "connection_reset"),
    ("reset", "connection_reset"),
    ("name or service", "dns_failure"),
    ("getaddrinfo", "dns_failure"),
    ("ssl", "tls_error"),
    ("certificate", "tls_error"),
    ("remotedisconnected", "connection_closed"),
    ("badstatusline", "bad_response"),
    ("incompleteread", "bad_response"),
    ("too large", "too_large"),
    ("too many", "too_large"),
)
_MIME = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]{0,40}/[a-z0-9][a-z0-9!#$&^_.+-]{0,60}$")


def detail_code(result: FetchResult) -> str:
    """What a step records about its fetch: a code the harness chose, never the site's own words
    (`Location` targets, `Content-Type` texts and error messages are remote text)."""
    outcome, status, text = result.outcome, result.status, result.detail.lower()
    if outcome == "page":
        return ""
    if outcome == "login_wall":
        if status in (401, 403, 407):
            return f"login_wall:http_{status}"
        return "login_wall:form" if "form" in text else "login_wall:redirect"
    if outcome == "blocked":
        # The browser's own refusals: a page abandoned for blocking its renderer or navigating without
        # end, a navigation its network gate refused (it left the origin), a control it could not click.
        for needle, code in (
            ("robots", "robots_disallowed"),
            ("click chain broken", "click_chain_broken"),
            ("click failed", "click_failed"),
            ("hostile page", "hostile_page"),
            ("gate refused", "gate_refused"),
        ):
            if needle in text:
                return code
        return "redirect_not_followed"
    if outcome == "non_html":
        ctype = (result.page.content_type if result.page is not None else "").split(";")[0].strip().lower()
        return f"content_type:{ctype}" if _MIME.match(ctype) else "content_type:other"
    if outcome == "http_error":
        return f"http_{status}" if status is not None else "http_error"
    if outcome == "timeout":
        return "timeout"
    return next((code for needle, code in _NETWORK_CODES if needle in text), outcome)


def _record_bugs(
    store: ExplorerStore, out: StepOutcome, session_id: int, route: str, findings: Sequence[Finding],
    version: str | None, dedupe: bool, now: float,
) -> None:  # fmt: skip
    seen: set[str] = set()
    for f in _template_shaped(store, findings, out.links):
        store.bug_table.add_occurrence(f.fingerprint, f.route, out.n)
        if f.fingerprint in seen:
            continue
        seen.add(f.fingerprint)
        live = store.bug_table.live_one(f.fingerprint)
        ever_reported = store.bug_table.ever_reported(f.fingerprint)
        if live is not None and live.status == "open":
            out.seen_again.append(f)
            if destructive_mode.is_suspected(live.evidence) and f.evidence.get("observed") is True:
                # Suspected before (not opened), its effect seen now (gone from its list, its resource
                # 404, a redirect after the request): the evidence replaces the suspicion, and the
                # suspected entry stays in the bug's history. A 2xx page with no confirmation step does
                # not: a refusal ("you cannot delete this") reads the same.
                evidence = _evidence(store, f, out.n, now, route)
                store.bug_table.insert(
                    f.fingerprint, f.route, f.kind, f.message, evidence, "open", version, now, out.n
                )
            else:
                store.bug_table.confirm(live.id, version, now)
            if not dedupe:
                # Without a bug list the agent cannot know it reported this already.
                store.bug_table.add_report(
                    out.n, session_id, f.fingerprint, f.route, f.kind, True, "harness", now
                )
            continue
        # New bug, or a fixed one that came back: a new live entry (superseding the fixed one).
        evidence = _evidence(store, f, out.n, now, route)
        store.bug_table.insert(
            f.fingerprint, f.route, f.kind, f.message, evidence, "open", version, now, out.n
        )
        regression = live is not None
        store.bug_table.add_report(
            out.n,
            session_id,
            f.fingerprint,
            f.route,
            f.kind,
            ever_reported and not regression,
            "harness",
            now,
        )
        out.new_bugs.append(f)


def _supersede(
    store: ExplorerStore,
    out: StepOutcome,
    route: str,
    judged: frozenset[str],
    version: str | None,
    now: float,
) -> None:
    """Re-tested and the symptom is gone: "fixed" supersedes "open", stamped with this version — only
    when the check that found the bug ran again. That is a visit of the route the bug is on whose
    inspection found it, judged in full for the bug's kind (no oracle failed or was refused a page it
    asked for, its kind not held back), and not a bug a one-off probe found (the refused login's
    dropped username: a logged-in visit of the login page sends no refused form)."""
    seen = {f.fingerprint for f in (*out.new_bugs, *out.seen_again)}
    for bug in store.bug_table.live():
        if bug.route != route or bug.status != "open" or bug.fingerprint in seen or bug.kind not in judged:
            continue
        facts = _stored(bug.evidence)
        if facts.get("probe") or facts.get("inspected", route) != route:
            continue
        store.bug_table.insert(
            bug.fingerprint, bug.route, bug.kind, bug.message,
            {"fixed_on_step": out.n, "previous_evidence": bug.evidence}, "fixed", version, now, out.n,
        )  # fmt: skip
        out.fixed.append(bug.fingerprint)


def _stored(evidence: str) -> dict[str, Any]:
    """A bug entry's stored facts (an entry from an older store may hold anything)."""
    try:
        facts = json.loads(evidence or "{}")
    except ValueError:
        return {}
    return facts if isinstance(facts, dict) else {}


def _template_shaped(
    store: ExplorerStore, findings: Sequence[Finding], page_links: Sequence[str]
) -> list[Finding]:
    """The findings fingerprinted on their route's template as memory knows it.

    An oracle sees one page: its shape comes from the page's own links, and an error page links to
    nothing, so `/tag/python` and `/tag/webdev` failing alike would be two bugs. Memory also knows the
    pages that link *to* the route (the tag cloud that listed both): their links are siblings too. A
    finding fingerprinted on something else (a failed request's own path) keeps its fingerprint, and so
    does one that is an open bug already (issue 25): the links beside one more record of a sampled
    template (`/edit.php?id=229` among `?id=` links) would read its number as data and make the same
    bug a second one."""
    out: list[Finding] = []
    known: set[str] | None = None
    # A finding may have joined one found before it in this batch (`inspection.same_root_cause`: one
    # opening judging every row of a plugin list, the first row's verdict taken by the others); when
    # that one is shaped anew here, the ones that joined it follow it, or the batch's one root cause
    # is stored as two bugs (issue 25, a plugin toggle reported twice on a CMS's clean build).
    moved: dict[str, str] = {}
    for f in findings:
        if f.fingerprint != make_fingerprint(f.shape, f.kind, f.message):
            out.append(replace(f, fingerprint=moved[f.fingerprint]) if f.fingerprint in moved else f)
            continue
        if known is None:
            known = {b.fingerprint for b in store.bug_table.live() if b.status == "open"}
        if f.fingerprint in known:
            out.append(f)
            continue
        shape = route_shape(f.route, {*page_links, *store.link_table.beside(f.route)})
        shaped = f if shape == f.shape else replace(f, shape=shape, fingerprint="")
        if shaped.fingerprint != f.fingerprint:
            moved.setdefault(f.fingerprint, shaped.fingerprint)
        out.append(shaped)
    return out


def _evidence(store: ExplorerStore, f: Finding, step: int, now: float, inspected: str) -> dict[str, Any]:
    """Split an oracle's evidence: facts stay in the bug entry; page text becomes a quarantined
    observation the entry points to, so a planted sentence can never ride into the bug table.
    `inspected`: the route whose inspection found it (what re-tests it, `_supersede`)."""
    facts: dict[str, Any] = {"inspected": inspected}
    raw: dict[str, str] = {}
    for key, value in dict(f.evidence).items():
        if key in _FACT_FIELDS or not isinstance(value, str):
            facts[key] = value
        else:
            raw[key] = value
    if f.suspected:
        facts["suspected"] = True  # the oracle's own judgement (not opened), not page text
    if raw:
        text = "\n".join(f"{k}: {v}" for k, v in raw.items())
        provenance = {
            "source": "oracle evidence",
            "url": facts.get("url"),
            "step": step,
            "fingerprint": f.fingerprint,
            "fields": list(raw),  # the oracle's key names (harness facts), to split the text again
        }
        facts["quarantined_observation"] = store.notebook.add_observation(text, provenance, step, now)
    return facts


LINK_LABEL = "link label"
"""Provenance source of the label of the link a step followed (page text: the click path shows it)."""
_LABEL_CHARS = 200


def _quarantine_label(
    store: ExplorerStore, route: str, came_by: tuple[str, str], step: int, now: float
) -> None:
    """The link's label is the page's words: kept, like all page text, only as a quarantined observation."""
    kind, label = came_by
    provenance = {"source": LINK_LABEL, "route": route, "kind": kind, "step": step}
    store.notebook.add_observation(" ".join(label.split())[:_LABEL_CHARS], provenance, step, now)


def _quarantine(store: ExplorerStore, page: FetchedPage, step: int, now: float) -> None:
    """Keep what the page said — its text and its response headers — as quarantined observations:
    auditable (and what the note gate compares notes with after a resume), never trusted."""
    kept: list[tuple[str, dict[str, Any]]] = []
    headers = "\n".join(f"{k}: {v}" for k, v in page.headers.items() if not _SECRET_HEADER.search(k))[
        :OBSERVATION_CHARS
    ]
    if headers:
        kept.append(
            (headers, {"source": "response headers", "url": page.url, "route": page.route, "step": step})
        )
    text = page.visible_text[:OBSERVATION_CHARS]
    if text:
        provenance = {
            "url": page.url,
            "route": page.route,
            "status": page.status,
            "step": step,
            "sha256": hashlib.sha256(page.body.encode("utf-8", "replace")).hexdigest()[:16],
        }
        kept.append((text, provenance))
    if kept:
        store.notebook.add_observations(kept, step, now)
