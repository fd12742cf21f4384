"""The page's tree facts (one walk, kept with the page) give what a walk of the whole tree per reader
gave (issue 28: cheaper, not different), and the readers of a page ask them instead of walking."""

from __future__ import annotations

import pytest

from bughunt.actions import page_actions
from bughunt.dom import Node
from bughunt.oracles.count_targets import has_cells
from bughunt.oracles.destructive import has_confirmation_step
from bughunt.oracles.scripts import check_unescaped_script, csp_nonces
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts
from bughunt.urls import route_of

ORIGIN = "http://app.test"

BODY = """
<nav><a href="/">Home</a><a href="/c/1" onclick="go()">Cats</a></nav>
<h1>Items <span>(3)</span></h1>
<form action="/search"><input name="q"><button>Search</button></form>
<form method="post" action="/x"><input type="hidden" name="t" value="1"></form>
<table><tr><th>Name</th></tr><tr><td><a href="/item/1">One</a></td></tr></table>
<ul><li>a</li><li><img src="x" onerror="alert(1)"></li></ul>
<div class="comment"><script>alert(2)</script><button onclick="del()">Delete</button></div>
<h2>Two</h2><h3>Three</h3><meta http-equiv="Content-Security-Policy" content="script-src 'nonce-abc'">
<dialog open>Sure?</dialog>
"""


def page(body: str, path: str = "/") -> FetchedPage:
    html = f"<html><head><title>t</title></head><body>{body}</body></html>"
    url = ORIGIN + path
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


@pytest.mark.parametrize(
    "tags",
    [("form",), ("h1", "h2", "h3"), ("a", "button"), ("td", "th"), ("script",), ("meta",), ("nothing",)],
)
def test_the_facts_select_what_a_walk_of_the_tree_finds(tags: tuple[str, ...]) -> None:
    shown = page(BODY)
    facts = tree_facts(shown)
    assert facts.tagged(*tags) == shown.document.find_all(*tags)
    assert facts.has(*tags) == bool(shown.document.find_all(*tags))


def test_the_facts_keep_attributed_elements_in_document_order() -> None:
    shown = page(BODY)
    facts = tree_facts(shown)
    order = list(shown.document.iter())
    assert list(facts.attributed) == [n for n in order if n.attrs]
    # merged groups come back in the order one walk meets them
    mixed = [*facts.by_tag["script"], *facts.by_tag["button"], *facts.by_tag["a"], *facts.by_tag["script"]]
    assert facts.in_order(mixed) == [n for n in order if n in mixed]


def test_the_facts_are_read_once_per_page_and_shared_with_the_same_page_loaded_again() -> None:
    shown = page(BODY)
    assert tree_facts(shown) is tree_facts(shown)
    again = page(BODY)
    assert again.share_readings(shown)
    assert tree_facts(again) is tree_facts(shown)


def test_a_pages_readers_walk_its_tree_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The action extraction and the oracles' whole-page selections read the facts: the tree is walked
    once for them, where each walked it (or asked `find_all` of the root) before."""
    shown = page(BODY)
    root = shown.document
    walks = 0
    iterate = Node.iter

    def counted(self: Node) -> object:
        nonlocal walks
        walks += self is root
        return iterate(self)

    monkeypatch.setattr(Node, "iter", counted)
    actions = page_actions(shown)
    found = check_unescaped_script(shown)
    nonces = csp_nonces(shown)
    confirms = has_confirmation_step(shown)
    cells = has_cells(shown)
    assert walks == 1
    assert actions.actions and found == []  # nothing here is user content (`_suspicious`)
    assert nonces == frozenset({"abc"})
    assert confirms and cells


def test_a_form_without_attributes_is_still_an_action() -> None:
    # the attributed elements alone would miss it: the walk falls back to every element
    shown = page('<form><input name="q"></form><a href="/b">b</a>', "/list")
    targets = [a.target for a in page_actions(shown).actions]
    assert targets[0].startswith(f"{ORIGIN}/list?q=") and targets[1] == f"{ORIGIN}/b"
