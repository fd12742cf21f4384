"""`--allow-destructive`: which sessions of an exploration opened destructive actions, and how the
text output, `--json` and the report say so.

Off by default: the destructive-action oracle reports a GET link or form that reads as destructive as
*suspected* without requesting it. A session run with the flag lets the oracle open such actions and
confirm them by their effect (`bughunt.oracles.destructive`) — for disposable environments only, since
opening one does the damage. The flag is a property of one session, never a default a store hands on:
the store remembers only which sessions had it (so the report can say the site was changed), and
`resume` opens nothing unless it is given the flag again.
"""

from __future__ import annotations

import json
from typing import Any

from bughunt.oracles.destructive_words import MAY_DESTROY, account_page

from .store import ExplorerStore

META_KEY = "destructive_sessions"
OPENED = "destructive actions were opened: disposable environment"
NOT_OPENED = "destructive actions were not opened: suspected ones are reported unconfirmed"
LEADS = "suspected bugs are leads to look at: no --fail-on, JUnit failure or SARIF problem counts them"
"""Why (`bughunt.reporters.records.ReportedBug.gates`): the page that offers a GET link to
`/post/7/delete/` is the same whether that address deletes or shows a confirmation form."""


def opened_in(store: ExplorerStore) -> list[str]:
    """Names of the sessions that ran with `--allow-destructive`, oldest first."""
    raw = store.meta.get(META_KEY)
    try:
        names = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


def remember_session(store: ExplorerStore, session: str) -> None:
    """Record that `session` runs with `--allow-destructive` (call inside a store transaction)."""
    names = opened_in(store)
    if session not in names:
        store.meta.set(META_KEY, json.dumps([*names, session]))


def summary_keys(store: ExplorerStore, session: str | None) -> dict[str, Any]:
    """The `explore`/`resume --json` keys: `allow_destructive` (this session), `destructive_actions`
    (what that means, in words) and `destructive_sessions` (every session of the store that opened them)."""
    names = opened_in(store)
    on = session is not None and session in names
    walked = walked_account_pages(store)
    said = OPENED if on else NOT_OPENED
    if walked and not on:
        said += f"; the walk followed {len(walked)} account page(s) whose address reads destructive: {', '.join(walked)}"
    return {
        "allow_destructive": on,
        "destructive_actions": said,
        "destructive_sessions": names,
        "destructive_walked": walked,
    }


def walked_account_pages(store: ExplorerStore) -> list[str]:
    """The visited routes that read as destructive: without --allow-destructive the walk follows only the
    account's own page at a fixed address (`account_page`, a page that asks first on a site that asks),
    which on a site that does not ask is the action itself — said, not hidden behind "not opened"."""
    return sorted(r for r in store.visits.visited() if MAY_DESTROY.search(r) and account_page(r))


def is_suspected(evidence: str | dict[str, Any]) -> bool:
    """A bug entry's evidence says the oracle suspected it without opening it."""
    if isinstance(evidence, str):
        try:
            evidence = json.loads(evidence)
        except ValueError:
            return False
    return isinstance(evidence, dict) and evidence.get("suspected") is True
