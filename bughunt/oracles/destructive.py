"""Destructive actions that run on a plain GET, with no confirmation step.

Two ways to see one, neither naming any site's routes:

- *Opened*: the explorer opened a GET whose URL names a destructive action (delete, remove, destroy,
  deactivate, close account…). It is judged on the request itself, not on where a redirect lands:
  a redirect means the server acted (Post/Redirect/Get without the POST); a 2xx page with no
  confirmation step (no POST form, no dialog, no "yes / confirm" control) has acted too.
- *Linked*: a page offers a GET link, HTMX/data-href button or GET form whose target (or short
  label, when it leads elsewhere) reads as destructive. By default it is reported as **suspected**
  without being requested: on a real site opening it would do the damage. With
  `OracleConfig.allow_destructive` (disposable environments) it is opened and confirmed by its
  observable effect: the item is gone from the page that listed it, or its resource went from 2xx
  to 404/410. A confirmation page (2xx with a confirmation step) clears it.
  A link whose query says it is already confirmed (`?confirm=1`) is reported confirmed, unopened
  (without `allow_destructive`): its author meant the click to be the confirmation; with it, it is
  opened like any other — its effect is better evidence than its words.
  A session opens each control template once per route shape (`opening_key`: one macro's Delete link
  on two collections is opened on each, their views may differ): the other rows'
  Delete links take the first one's verdict unopened, so the exploration does not delete the data it
  is exploring, one record per page. A record's own page offering its action names the record in it
  (`/wiki/Alpha` → `/pages/Alpha/delete`): every such page is one template (`control_key`). No
  visible effect may be a record the site keeps (a home page), so the template is opened on the next
  record's page, up to `NO_EFFECT_TRIES` records, before that verdict stands.
- *Marked*: a GET whose query marks an action on a record under any verb (`?@action=detach&msg=7`,
  `request_action.marked_action`) is never walked; unopened it is a lead like the linked ones, and
  opened (`allow_destructive`) it is reported on its effect alone: gone from the page that listed it
  is a deletion, its control given way to its counterpart (or relabelled, or a count moved by one) a
  state change reported as `unsafe_get` (`action_effect.state_flip`); no effect seen, nothing.

An answer is judged unless it is a login wall (`action_effect.login_wall`): a *new* password field with
none of the record the action was offered on — not any page with a password field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from bughunt.actions import button_only, form_submission
from bughunt.dom import Node
from bughunt.fingerprint import IDENTIFIERS, route_shape
from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.oracles.action_effect import (
    STATE_CHANGE_MESSAGE,
    control_identity,
    login_wall,
    password_fields,
    state_flip,
    toggle_effect,
    toggle_key,
    toggled,
)
from bughunt.oracles.base import (
    DEFAULT_CONFIG,
    Fetch,
    Finding,
    OpenedAction,
    OracleConfig,
    evidence,
    fetch_again,
    page_shape,
)
from bughunt.oracles.destructive_forms import unasked_alike
from bughunt.oracles.destructive_words import (
    VERBS,
    action_route,
    destructive_action,
    destructive_label,
    hash_route,
    may_destroy,
    names_action,
    reads_destructive,
    words_of,
)
from bughunt.oracles.lists import targets
from bughunt.oracles.owner_pages import gone_from_owner, linking_now, owner_routes, same_thing
from bughunt.oracles.reading import resolve
from bughunt.oracles.record_places import record_places
from bughunt.oracles.request_action import ACTION_KEYS, marked_action
from bughunt.oracles.seen_twice import confirmed_twice
from bughunt.oracles.server_error import error_key
from bughunt.oracles.unnamed_deletes import unnamed_delete
from bughunt.oracles.visibility import unseen
from bughunt.page import FetchedPage, base_url
from bughunt.record_repr import field_repr
from bughunt.sim.route_keys import query_pairs
from bughunt.tree_facts import tree_facts
from bughunt.urls import same_origin
from memgpt_lite.log import logger

_CONFIRM = re.compile(r"\b(yes|confirm|continue|proceed|i understand)\b", re.I)
MESSAGE = "destructive action runs on a plain GET with no confirmation step"


def _target(base: str, href: str) -> str | None:
    """Absolute URL of a control; a hash route (`#/items/7/delete`) keeps its fragment: in a
    single-page app that *is* where the control leads."""
    if "#/" in href and not href.strip().lower().startswith("javascript:"):
        url = urljoin(base, href.strip())
        return url if urlsplit(url).scheme in ("http", "https") else None
    return resolve(base, href)


def has_confirmation_step(page: FetchedPage) -> bool:
    facts = tree_facts(page)
    if any(f.get("method", "get").lower() == "post" for f in facts.tagged("form")):
        return True
    if facts.has("dialog"):
        return True
    return any(_CONFIRM.search(n.text()) for n in facts.tagged("a", "button"))


def requested_url(page: FetchedPage) -> str:
    """The URL that was asked for (before any redirect)."""
    return page.redirects[0] if page.redirects else page.url


_MAY_MARK = re.compile(r"(?i)[?&][@$:_]*(?:" + "|".join(sorted(ACTION_KEYS)) + r")=")
_CONFIRM_ATTRS = ("data-confirm", "hx-confirm", "data-turbo-confirm", "data-confirm-message")
_METHOD_ATTRS = ("data-method", "data-turbo-method", "hx-method")


def _not_get(node: Node) -> bool:
    """A control a script sends with another method (Rails' `data-method="delete"`): no GET at all."""
    return any(node.get(a) and node.get(a).lower() != "get" for a in _METHOD_ATTRS)


def _asks_in_script(node: Node) -> bool:
    """A control whose only question is a script's (`data-confirm`, `hx-confirm`, `onclick="return
    confirm(…)"`): its `href` is still a GET that a link prefetcher, a crawler or a browser without
    scripts sends unasked. Never suspected on its words; with --allow-destructive opened after the
    walk and reported only on its effect (the server's answer decides: a confirmation page clears it)."""
    return any(node.get(a) for a in _CONFIRM_ATTRS) or "confirm(" in node.get("onclick")


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class DestructiveControl:
    __repr__ = field_repr

    url: str
    label: str
    control: str
    """"link", "button" or "form"."""
    markup: str = ""
    """The control as its template draws it (`control_markup`)."""
    scripted: bool = False
    """Its only confirmation is a script's (`_asks_in_script`): judged on its effect alone."""
    records: frozenset[int] = field(default_factory=frozenset)
    """The path segments that name its row's record, read off the page's other controls drawn alike
    (`record_places`): `<record>` in its `control_key`, whatever the record's name looks like."""


def control_markup(node: Node) -> str:
    """What a template draws of a control, without what it fills in per record: the tag, the names of
    its attributes, its classes and the words of its label (numbers aside). Two links drawn by one
    macro (a list's Delete button on every model's list) read the same; a hand-made link reads
    otherwise."""
    words = [
        w for w in words_of(node.text() or node.get("title") or node.get("aria-label")) if not w.isdigit()
    ]
    return " ".join([node.tag, *sorted(node.attrs), "." + ".".join(sorted(node.classes)), *words])


def _record_shape(control: DestructiveControl, page_url: str, *, rows: bool = False) -> list[str]:
    """The action's route shape as path segments, a segment below its collection that repeats one of
    the offering page's own words named `<record>`: the record that page shows, whatever its words
    (an identifier is its placeholder whatever page offers it). `rows`: so is a segment in which the
    page's other controls drawn alike name their own records (`DestructiveControl.records`)."""
    shape = route_shape(action_route(control.url)).partition("?")[0].strip("/").split("/")
    raw = urlsplit(control.url).path.strip("/").split("/")
    shown = {s for s in urlsplit(page_url).path.strip("/").split("/")[1:] if s}
    if rows and len(raw) == len(shape):
        # The row's record, by its place; a slug names a record wherever it stands, drawn on one row
        # or many (a one-row list says nothing of its places).
        shape = [
            "<record>" if t == "<slug>" or (i in control.records and i > 0 and t not in IDENTIFIERS) else t
            for i, t in enumerate(shape)
        ]
    drawn = list(shape)
    if len(raw) == len(shape):
        # Only a named record: a number is `<n>` on every page already, and the offering page's number
        # may be another collection's record (a group's page listing contact 2 beside group 2).
        shape = shape[:1] + [
            "<record>" if r in shown and t not in IDENTIFIERS else t
            for r, t in zip(raw[1:], shape[1:], strict=True)
        ]
        # What follows the segment naming the action is what it acts on (`/admin/uninstall-plugin/
        # pluginAPI`, `/remove/tag/python`): a record, whatever its name, on every row that offers it.
        # The action's own segment stays itself, whatever page offers it (the page that names it in
        # its address too: an opening judged from the action's own route).
        verb = next((i for i, r in enumerate(raw) if names_action(r, VERBS)), None)
        if verb is not None:
            shape = [*shape[:verb], drawn[verb]] + [
                t if t in IDENTIFIERS else "<record>" for t in drawn[verb + 1 :]
            ]
    return shape


def control_key(control: DestructiveControl, page_url: str = "") -> int:
    """One root cause for every record's action drawn by one template: the control's markup and the
    action's address below its collection (`/groups/delete/3`, `/contacts/delete/41` → `delete/<n>`),
    hashed to a number (the label stays quarantined evidence). A record's own page offering its action
    names the record in it (`/wiki/Code-Review` offering `/pages/Code-Review/delete` →
    `<record>/delete`): each record's page draws one template, not one per record."""
    places = _action_places(_record_shape(control, page_url, rows=True)[1:])
    return error_key(control.markup + " " + "/".join(places))


def _action_places(segments: list[str]) -> list[str]:
    """The segments of an action's address below its collection that say what it does and to which
    record — its verb and the placeholders of what it names — without the literal words naming the
    collection however deep they sit: a framework routing `/<app>/<controller>/<function>/<table>/<id>`
    draws one grid's Delete as `catalogue/tools/delete/tool/<n>` and `catalogue/suppliers/delete/
    supplier/<n>`, one template (`control_key`), as `/groups/delete/3` and `/contacts/delete/41` are.
    An address without a verb in its path (`?delete=…`, `?action=…`) keeps its segments as they are."""
    kept = [s for s in segments if s.startswith("<") or names_action(s, VERBS)]
    return kept if any(not s.startswith("<") for s in kept) else segments


def opening_key(control: DestructiveControl, page_url: str = "") -> int:
    """The template one opening judges: the control's markup and the action's whole route shape (the
    record named as in `control_key`), its query keys without their values (`/changes/<n>/delete/`,
    `?do=media&delete=&sectok=`). One macro's Delete link on every collection's list is one root cause
    to report (`control_key`), but each collection's view decides what a GET does — one deletes,
    another answers a confirmation page — so each is opened for itself."""
    path = "/" + "/".join(_record_shape(control, page_url))
    keys = sorted({k for k, _ in query_pairs(urlsplit(control.url).query, decoded=True)})
    return error_key(control.markup + " " + path + "?" + "&".join(keys))


def destructive_actions(page: FetchedPage) -> list[DestructiveControl]:
    """The page's GET controls that read as destructive, in document order, one per URL."""
    base = base_url(page)
    here = urlsplit(page.url)
    found: dict[str, DestructiveControl] = {}
    controls: list[tuple[str | None, str, str, str, bool]] = []
    for node, href in targets(page.document):
        if node.tag == "link" or (href.strip().startswith("#") and not hash_route(href.strip())):
            continue  # `href="#"` goes nowhere: a script does what it says, no GET does
        label = node.text() or node.get("title") or node.get("aria-label")
        if "#" in href and not hash_route(href.strip()) and not may_destroy(href.partition("#")[0]):
            # a link to a place in a document (`ast.html#ast.Delete`, an index's entry) is a
            # reference whatever its label: no action link points at an anchor of a page
            continue
        if may_destroy(href + " " + label) or _MAY_MARK.search(href):
            if _not_get(node):
                continue
            kind = "link" if node.tag == "a" else "button"
            controls.append((_target(base, href), label, kind, control_markup(node), _asks_in_script(node)))
    for form in tree_facts(page).tagged("form"):
        if form.get("method", "get").lower() != "get" or _not_get(form):
            continue
        buttons = [
            b for b in form.iter() if b.tag == "button" or (b.tag == "input" and b.get("type") == "submit")
        ]
        label = " ".join(b.text() or b.get("value") for b in buttons)
        target = resolve(base, form.get("action") or page.url)
        # A form of hidden values and buttons is a link drawn as a button: it asks for its action
        # with those values (`?action=delete&version=1` on the page's own address).
        if target and button_only(form):
            target = form_submission(form, target)
        controls.append((target, label, "form", control_markup(form), _asks_in_script(form)))
    if destructive_action(page.url) and has_confirmation_step(page):
        return []  # a confirmation page: its controls are the confirmation, not an unconfirmed action
    for url, label, control, markup, scripted in controls:
        if not url or url == page.url or not same_origin(url, page.url) or url in found:
            continue
        if _CONFIRM.search(label):
            continue  # "Yes, delete" is the confirmation step itself
        # A label alone counts only for a control that leads to another path ("Remove filter"
        # links back to the same list with another query: that is navigation, not an action) or
        # whose query says it is confirmed (a record page's "Delete" to `?confirm`).
        elsewhere = (urlsplit(url).path, hash_route(url)) != (here.path, hash_route(page.url))
        if (
            destructive_action(url)
            or marked_action(url)
            or ((elsewhere or confirms_itself(url)) and destructive_label(label))
        ):
            found[url] = DestructiveControl(url, label, control, markup, scripted)
    places = record_places([(c.url, c.markup) for c in found.values()], lambda s: names_action(s, VERBS))
    return [replace(c, records=places[c.url]) if c.url in places else c for c in found.values()]


def _judge_opened(page: FetchedPage) -> list[Finding]:
    """The page is the answer to a destructive GET the explorer made: did it act unconfirmed?"""
    asked = requested_url(page)
    action = destructive_action(asked)
    before = page.clicked_from[0] if page.clicked_from else None
    if page.method != "GET" or action is None or login_wall(page, before):
        return []
    if page.redirects:
        # The server acted and sent the browser elsewhere; only a confirmation page at a destructive
        # address (`/x/delete` → `/x/delete/confirm`) means it did not.
        if destructive_action(page.url) and has_confirmation_step(page):
            return []
    elif not 200 <= page.status < 300 or not page.is_html or has_confirmation_step(page):
        return []
    heading = next((n.text() for n in tree_facts(page).tagged("h1", "h2") if n.text()), "")
    return [
        Finding(
            "unconfirmed_destructive",
            action_route(asked),
            MESSAGE,
            evidence(
                page,
                heading,
                request=f"GET {asked}",
                action=action,
                page_heading=heading,
                redirected=bool(page.redirects),
                observed=bool(page.redirects),
            ),
        )
    ]


CLICK_MESSAGE = "destructive control sends its write at once, with no confirmation step"


def _judge_clicked(page: FetchedPage) -> list[Finding]:
    """A click state whose click, on a control labelled as destroying ("Delete item") or on a wordless
    one that deleted a record the page links to (`unnamed_deletes`), made the page send a write at
    once (refused by the browser engine: `FetchedPage.refused_writes`): nothing asked first. A
    control in an open dialog is the confirmation (the engine never clicks it)."""
    if page.clicked_from is None or not page.refused_writes:
        return []
    before, label = page.clicked_from
    if not (destructive_label(label) or unnamed_delete(label, page.refused_writes, before)):
        return []
    if _dialog_open(before) or asked_first(before):
        return []
    return [
        Finding(
            "unconfirmed_destructive",
            page.route,
            CLICK_MESSAGE,
            evidence(page, label, label=label, writes="\n".join(page.refused_writes), observed=True),
            shape=(shape := page_shape(page)),
            # fingerprinted on the control's document, not on the view (`_views_shape`): a finding
            # fingerprinted on something else than its route keeps its fingerprint (`harness`)
            fingerprint=make_fingerprint(_views_shape(shape), "unconfirmed_destructive", CLICK_MESSAGE),
        )
    ]


def _views_shape(shape: str) -> str:
    """A click's write is its control's, drawn by one script in every view of its document: a single-
    page app's hash routes (`/admin#/blog/1`, `/admin#/people/2`) show one list component per schema,
    whose row's Delete is one control — one report, not one per view (corpus ho12_yancy). Every
    segment of the hash route is a placeholder; the document's path keeps its shape."""
    base, mark, fragment = shape.partition("#")
    if not mark or not fragment.startswith("/"):
        return shape
    segments = [s for s in fragment.partition("#")[0].split("/") if s]
    return base + "#/" + "/".join("<v>" for _ in segments)


def asked_first(page: FetchedPage) -> bool:
    """Did the click that made `page` ask first: a click on a destroying control that sent no write
    (or whose label announces a dialog, `announces_dialog`). `page` is then its question,
    however it is drawn — a dialog of the app's own `div`s with no `role` (Transmission's web client, a
    Backbone or jQuery plugin's confirm box, an ExtJS `MessageBox` drawn as panels). A destroying
    control clicked there is the answer to it, the confirmation step itself."""
    if page.clicked_from is None:
        return False
    label = page.clicked_from[1]
    return destructive_label(label) and (not page.refused_writes or announces_dialog(label))


_ELLIPSIS = re.compile(r"(?:\.\.\.|…)\s*$")


def announces_dialog(label: str) -> bool:
    """A command whose label ends in an ellipsis ("Delete Event…", "Remove...") says it asks for more
    before it acts — the menu and button convention of desktop toolkits (Apple's HIG, Windows' UX
    guide) that web clients drawn as desktops keep (pixl-webapp, Dojo/Dijit menus, ExtJS, Roundcube).
    Its state is its question even when a write reached the gate with it: a click replayed on the way
    to the dialog lands the previous answer's refused write late, in the next click's list. If the
    command itself writes at once, its own click is judged (`_judge_clicked` on its state) and
    reported there; only the next click, the dialog's answer, is read as the confirmation."""
    return bool(_ELLIPSIS.search(label))


def _dialog_open(page: FetchedPage) -> bool:
    """A dialog the page shows. A closed one the layout carries for its scripts (an error modal,
    `aria-hidden`) is none: taken for open, it made a row's Delete its confirmation, and a delete
    sent at one click went unreported (corpus ho9_jupyterhub)."""
    facts = tree_facts(page)  # a dialog element, or one with a role: an attribute
    return any(
        (n.tag == "dialog" or n.get("role") in ("dialog", "alertdialog")) and not unseen(n)
        for n in (*facts.by_tag.get("dialog", ()), *facts.attributed)
    )


def _resource_of(url: str) -> str | None:
    """`/items/7/delete` → `/items/7`: the thing the action acts on, when its URL names it."""
    hashed = hash_route(url)
    if hashed:
        return destructive_action(urljoin(url, hashed))
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    while segments and reads_destructive(words_of(segments[-1])):
        segments.pop()
    if not segments or "/" + "/".join(segments) == parts.path.rstrip("/"):
        return None
    return f"{parts.scheme}://{parts.netloc}/" + "/".join(segments)


class Verdict(NamedTuple):
    """What opening an action did: `acted` (its effect seen), the effect in harness words, and the kind
    of report the effect makes (a deletion, or a state change on a GET: `unsafe_get`)."""

    acted: bool
    effect: str
    kind: str = "unconfirmed_destructive"
    toggle: int | None = None
    """Both directions of one toggle (`action_effect.toggle_key`), when the effect was one."""


def _named(action: DestructiveControl) -> bool:
    """Whether the control's words say it destroys (its URL or its label), not only its query's mark."""
    return destructive_action(action.url) is not None or destructive_label(action.label)


def _thing_of(page: FetchedPage, action: DestructiveControl) -> str | None:
    """The route of the page `action` deletes when it acts on the page it is offered on (a record's
    own Delete, `/ainfo/ab12?confirm` on `/ainfo/ab12`): that page cannot show it gone, its owner can.
    An action offered on a list is seen gone from the list."""
    # the page may name it by an abbreviation of the hash its Delete names (`same_thing`)
    return page.route if same_thing(urlsplit(action.url).path, urlsplit(page.url).path) else None


def _confirm(
    page: FetchedPage, action: DestructiveControl, fetch: Fetch, config: OracleConfig = DEFAULT_CONFIG
) -> Verdict | None:
    """Open `action` and look for its effect, or None when it did not act (an error answer, a
    confirmation page, a login wall). A page with a POST form is a confirmation page only if nothing
    happened: a file manager that deletes on GET answers with its upload form. An action its words do
    not name as destroying (`?@action=unlink&msg=7`) is first read for a state flip on the page it was
    offered on (`action_effect.state_flip`): its counterpart drawn where it was is no deletion.
    Failing those, the thing's owner page (`owner_pages`: a wiki page its attachment was attached to)
    that linked to it before and does not after saw it deleted."""
    resource = _resource_of(action.url)
    before = None
    if resource and resource != page.url:
        try:
            before = fetch(resource).status
        except OSError:
            before = None
    thing = _thing_of(page, action) if _named(action) else None
    owners = (
        linking_now(
            page.url,
            owner_routes(thing, config.linked_from, config.links_of, config.known_routes),
            thing,
            fetch,
        )
        if thing
        else []
    )
    result = fetch_again(fetch, action.url)
    if login_wall(result, page):
        return None  # the session is gone (`action_effect.login_wall`): nothing can be judged
    if not result.redirects and result.status >= 400:
        return None
    asks = not result.redirects and result.is_html and has_confirmation_step(result)
    after = result if result.url == page.url else fetch_again(fetch, page.url)
    if set(password_fields(after)) - set(password_fields(page)):
        return None  # the page that listed it now asks for a password it did not: the session ended
    if not _named(action) and (flip := state_flip(page, after, action.url)):
        if not confirmed_twice(page, after, flip, action.url, state_flip, fetch):
            return Verdict(False, "a state flip not seen again (`seen_twice`)")
        toggle = toggle_key(action.url, flip["control_after"]) if "control_after" in flip else None
        return Verdict(
            True, "state flipped on the page it was offered on: " + ", ".join(flip), "unsafe_get", toggle
        )
    if counter := toggled(page, after, action.url):
        # "Unsubscribe" gave way to "Subscribe": a toggle's undo in its place, nothing lost
        # (`action_effect`, toggle): a state change on a GET, whatever its verb reads as.
        if not confirmed_twice(page, after, {"control_after": counter}, action.url, toggle_effect, fetch):
            return Verdict(False, "a toggle not seen again (`seen_twice`)")
        effect = "gave way to its counterpart on the page it was offered on: control_after"
        return Verdict(True, effect, "unsafe_get", toggle_key(action.url, counter))
    mine = control_identity(action.url)
    # a form of hidden values is listed by its submission, which no link target shows
    still_listed = any(
        control_identity(resolve(base_url(after), href) or "") == mine for _, href in targets(after.document)
    ) or any(control_identity(c.url) == mine for c in destructive_actions(after) if c.control == "form")
    # Against an answer that looks like a confirmation page, only a listing page that still answers
    # shows the link gone: an error page lists nothing.
    if not still_listed and (not asks or 200 <= after.status < 300):
        return Verdict(True, "gone from the page that listed it")
    if resource and before is not None and 200 <= before < 300:
        if fetch_again(fetch, resource).status in (404, 410):
            return Verdict(True, "its resource now answers 404")
    if asks:
        return None
    if thing and owners and gone_from_owner(page.url, owners, thing, fetch):
        return Verdict(True, "gone from the page it belonged to (its owner page)")
    return Verdict(False, "no visible effect")


_CONFIRMING_KEYS = frozenset({"confirm", "confirmed", "confirmation", "yes", "sure", "force"})
_FALSE_VALUES = frozenset({"", "0", "false", "no", "off", "n"})


def confirms_itself(url: str) -> str | None:
    """The query parameter by which a destructive URL says it is already confirmed (`?confirm=1`,
    `?confirmed=yes`, or a bare flag `?confirm`, which apps that test a key's presence read as set):
    following such a link does not stop at a confirmation page — whoever wrote it meant the click to
    be the confirmation, so it needs no opening to be known. None when none does."""
    query = urlsplit(url).query
    for piece in query.split("&"):
        if "=" not in piece and piece.lower() in _CONFIRMING_KEYS:
            return piece
    for key, value in query_pairs(query, decoded=True):
        if key.lower() in _CONFIRMING_KEYS and value.strip().lower() not in _FALSE_VALUES:
            return f"{key}={value}"
    return None


def check_unconfirmed_destructive(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    if not page.is_html or page.status >= 400:
        return []
    findings = _judge_opened(page) + _judge_clicked(page) + unasked_alike(page)
    opened = 0
    ledger = config.opened_destructive
    for action in destructive_actions(page):
        key, opening = control_key(action, page.url), opening_key(action, page.url)
        earlier = ledger.get(opening) if ledger is not None else None
        # An action only its query marks (`marked_action`) is reported on its effect alone: opened and
        # seen to act. Unopened it is still listed (suspected), so a walk under --allow-destructive
        # defers it to the opening after the walk (`Explorer._defer`).
        # A control that asks in a script only is judged like an action its query marks: on its
        # effect, opened (`_asks_in_script`); its words alone suspect nothing.
        named = _named(action) and not action.scripted
        kind = "unconfirmed_destructive"
        toggle: int | None = None
        suspected = True
        observed = False  # whether what the action did was seen (its effect), not read off a page
        effect = "not opened (suspected; --allow-destructive opens and confirms it)"
        said = confirms_itself(action.url)
        may_open = config.allow_destructive and fetch is not None and opened < config.max_destructive
        if earlier is not None and (earlier.settled or not may_open):
            if earlier.acted is None or (not named and not earlier.acted):
                continue  # its template asked first, could not be judged, or (unnamed) did nothing seen
            suspected, observed, kind = not earlier.acted, bool(earlier.acted), earlier.kind
            effect = f"not opened: its template was opened at {earlier.url} ({earlier.effect})"
        elif may_open and fetch is not None:
            opened += 1
            try:
                judged = _confirm(page, action, fetch, config)
            except OSError as err:  # not judged: another instance of the template may be opened later
                logger.debug("destructive oracle could not confirm {}: {}", action.url, err)
                judged = Verdict(False, "could not be opened")
            else:
                if ledger is not None:
                    tries = earlier.tries + 1 if earlier is not None else 1
                    ledger[opening] = (
                        OpenedAction(action.url, judged.acted, judged.effect, tries, judged.kind)
                        if judged is not None
                        else OpenedAction(action.url, None, "a confirmation step", tries)
                    )
            if judged is None or (not named and not judged.acted):
                continue  # it asked for confirmation, failed, needs a login, or (unnamed) did nothing seen
            suspected, observed, effect, kind = not judged.acted, judged.acted, judged.effect, judged.kind
            toggle = judged.toggle
        elif said:
            suspected, effect = False, f"not opened: the link says it is confirmed ({said})"
        elif action.scripted:
            if not config.defer_opening:
                continue  # asked in a script: never suspected on its words (`_asks_in_script`)
            effect = "not opened (it asks in a script only; opened after the walk, judged on its effect)"
        elif not named:
            effect = "not opened (a GET marking an action on a record; --allow-destructive judges its effect)"
        findings.append(
            Finding(
                kind,
                action_route(action.url),
                MESSAGE if kind == "unconfirmed_destructive" else STATE_CHANGE_MESSAGE,
                evidence(
                    page,
                    action.label,
                    target=action.url,
                    control=action.control,
                    label=action.label,
                    effect=effect,
                    observed=observed,
                    control_key=key,
                    opening_key=opening,
                    **({"toggle_key": toggle} if toggle is not None else {}),
                ),
                suspected=suspected,
            )
        )
    return findings
