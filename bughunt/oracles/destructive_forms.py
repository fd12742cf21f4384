"""A form's button that writes at once where the page's alike buttons ask first.

A page that asks before some of its writes says which of them lose data: "Clear Failed Jobs" asks
("Are you sure? This cannot be undone."), so "Clear Retried Jobs", a POST form beside it whose button
leads with the same verb, should ask too. A control *asks* when its markup carries the question — an
`onclick`/`onsubmit` calling `confirm(`, a `data-confirm`-like attribute — or names the script hook
that does (a class or id with "confirm" in it: `.confirmSubmission`, `js-confirm`, bound by the
app's script to `confirm()`; the http engine runs no script, the hook's name is what it can read).
Judged on the page's own markup, with no request and no word list of what destroys: the asking
sibling is the app's own statement that its verb does. A page whose writes never ask says nothing
here (whether a lone Delete button should ask is another oracle's question: the browser engine's
click, `destructive._judge_clicked`).

Applies to every server-rendered family that confirms in the browser: Sinatra/ERB and Rails
(`button_to … data: {confirm:}`, `onclick="return confirm(…)"`), Django and Flask admin pages with
per-list action buttons, PHP admin panels. The cost, stated: a script that asks by another selector
(`form[action$=clear]`) for the one button without a hook is not seen, and that button is reported.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.form_owner import submits
from bughunt.oracles.base import Finding, evidence
from bughunt.oracles.destructive_words import action_route, words_of
from bughunt.oracles.reading import resolve
from bughunt.page import FetchedPage, base_url
from bughunt.tree_facts import tree_facts
from bughunt.urls import same_origin

MESSAGE = "destructive form sends its write at once, where the page's alike buttons ask first"

_CONFIRM_ATTRS = ("data-confirm", "hx-confirm", "data-turbo-confirm", "data-confirm-message")


def _asks(node: Node) -> bool:
    """Whether the control or its form carries a confirmation (see the module)."""
    for n in (node, *node.ancestors()):
        if n.tag not in ("form", "input", "button"):
            continue
        if any(n.get(a) for a in _CONFIRM_ATTRS) or any(
            "confirm(" in n.get(h) for h in ("onclick", "onsubmit")
        ):
            return True
        if any("confirm" in name.lower() for name in (*n.classes, n.get("id"))):
            return True
    return False


def _writes(page: FetchedPage) -> list[tuple[Node, str, str, bool]]:
    """(button, its label's verb, its form's target, whether it asks) of each form that is not sent
    by GET, for its one submit button."""
    base, out = base_url(page), []
    for form in tree_facts(page).tagged("form"):
        if form.get("method", "get").lower() == "get":
            continue
        buttons = [b for b in form.iter() if submits(b)]
        target = resolve(base, form.get("action") or page.url)
        if len(buttons) != 1 or target is None or not same_origin(target, page.url):
            continue
        words = words_of(buttons[0].text() or buttons[0].get("value"))
        if words and not words[0].isdigit():
            out.append((buttons[0], words[0], target, _asks(buttons[0])))
    return out


def unasked_alike(page: FetchedPage) -> list[Finding]:
    """A finding per form target whose button writes at once while another form of the page, whose
    button leads with the same verb, asks first."""
    writes = _writes(page)
    asking = {verb: target for _b, verb, target, asks in writes if asks}
    findings, seen = [], set()
    for button, verb, target, asks in writes:
        if (
            asks
            or verb not in asking
            or target in seen
            or urlsplit(asking[verb]).path == urlsplit(target).path
        ):
            continue
        seen.add(target)
        label = button.text() or button.get("value")
        findings.append(
            Finding(
                "unconfirmed_destructive",
                action_route(target),
                MESSAGE,
                evidence(
                    page,
                    label,
                    target=target,
                    control="form",
                    label=label,
                    effect="not sent: read off the page (its alike buttons ask, this one does not)",
                    observed=False,
                    asking_target=asking[verb],
                ),
            )
        )
    return findings
