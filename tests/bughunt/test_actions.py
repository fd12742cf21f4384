"""Actions a script-free client can see (contract 2) and the page structure hash (contract 1)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from bughunt.actions import (
    Action,
    action_counts,
    action_targets,
    extract_actions,
    extract_links,
    item_places,
    page_actions,
    page_clicks,
)
from bughunt.dom import Node
from bughunt.page import FetchedPage
from bughunt.urls import absolute, route_of, url_template

ORIGIN = "http://a.test"


def page(body: str, path: str = "/dir/here") -> FetchedPage:
    url = ORIGIN + path
    return FetchedPage(url, route_of(url), 200, {}, "text/html; charset=utf-8", body, 0.0)


def test_links_hx_data_href_and_literal_onclick_are_actions_in_document_order():
    body = """
    <a href="/one">One</a>
    <button hx-get="/?page=2" hx-target="#list">More</button>
    <div data-href="/row/7" class="row">Row seven</div>
    <span onclick="window.location.href='/clicked'; return false;">go</span>
    <span onclick="location.assign('/assigned')">go</span>
    <span onclick="location.href = base + '/computed'">computed: needs a browser</span>
    <a href="https://elsewhere.test/x">off-origin</a>
    <a href="/one#frag">same target again</a>
    <a href="/nofollow" rel="nofollow">n</a>
    <a href="/posts/5" data-method="delete" rel="nofollow">Delete</a>
    <a href="/posts/5/pin" data-turbo-method="post">Pin</a>
    <a href="/report.pdf" download>d</a>
    """
    got = extract_actions(page(body))
    # rel=nofollow speaks to search engines, not to people: followed; a script's write and a download are not
    assert [(a.kind, a.target) for a in got] == [
        ("link", "http://a.test/one"),
        ("hx", "http://a.test/?page=2"),
        ("click", "http://a.test/row/7"),
        ("click", "http://a.test/clicked"),
        ("click", "http://a.test/assigned"),
        ("link", "http://a.test/nofollow"),
    ]
    assert got[1].label == "More" and got[2].label == "Row seven"
    # selectors are for an engine that clicks: made when it asks (`page_clicks`), not with every walk
    assert all(isinstance(a, Action) and not a.selector for a in got)
    located = page_clicks(page(body)).actions
    assert [(a.kind, a.target) for a in located] == [(a.kind, a.target) for a in got]
    assert [a.selector for a in located][:2] == ["html > body > a:nth-of-type(1)", "html > body > button"]
    # extract_links keeps its meaning: <a href> only.
    assert extract_links(page(body)) == ["http://a.test/one", "http://a.test/nofollow"]


def test_an_hx_get_field_sends_its_own_value_as_htmx_does():
    body = """
    <input name="email" type="email" value="ann@x.test" hx-get="/people/7/email" hx-trigger="change">
    <select name="sort" hx-get="/list?page=2"><option value="a">A</option><option value="b" selected>B</option></select>
    <button name="go" hx-get="/plain">Go</button>
    """
    assert [a.target for a in extract_actions(page(body))] == [
        "http://a.test/people/7/email?email=ann%40x.test",
        "http://a.test/list?page=2&sort=b",
        "http://a.test/plain",
    ]


def test_hx_vals_fill_the_paths_placeholders_and_an_unfilled_template_is_no_address():
    body = """
    <button hx-ext="path-params" hx-get="/link/edit/{id}" hx-vals='{"id": "ab-12"}'>edit</button>
    <button hx-get="/confirm-delete" hx-vals='{"id": "ab-12", "n": 3}'>delete</button>
    <button hx-get="/link/stats/{id}">stats</button>
    <button hx-get="/other" hx-vals="js:{id: pick()}">other</button>
    """
    assert [a.target for a in extract_actions(page(body))] == [
        "http://a.test/link/edit/ab-12",
        "http://a.test/confirm-delete?id=ab-12&n=3",
        "http://a.test/other",
    ]


def test_url_templates_in_hx_and_data_attributes_are_not_actions():
    # A script fills `{id}` in before it requests (HTMX path parameters): without values to fill it
    # with, the template names no page, whether spelled raw or percent-encoded.
    body = """
    <button hx-get="/link/edit/{id}" hx-vals="js:{id: pick()}">Edit</button>
    <tr data-href="/admin/link/%7Bid%7D/stats">row</tr>
    <a href="/users/{{ user.name }}">unrendered</a>
    <button hx-get="/link/edit/7">Edit seven</button>
    <a href="/search?q=a%7Cb">a pipe is not a template</a>
    """
    got = extract_actions(page(body))
    assert [a.target for a in got] == ["http://a.test/link/edit/7", "http://a.test/search?q=a%7Cb"]
    assert url_template("/x/%7bid%7d") and url_template("/x/{id}") and not url_template("/x/%7C/%7D")
    assert absolute(ORIGIN + "/", "/link/{id}/stats") is None


def test_get_form_is_submitted_with_generated_values_and_post_forms_never():
    body = """
    <form action="/search" method="get">
      <input type="search" name="q">
      <input type="hidden" name="csrf" value="abc">
      <select name="sort"><option value="new">New</option><option value="old">Old</option></select>
      <input type="checkbox" name="exact" checked value="1"><input type="checkbox" name="other">
      <input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>
      <input type="password" name="pw"><input type="submit" name="go" value="Go">
      <input name="off" disabled value="x">
    </form>
    <form action="/delete-all" method="post"><input name="id" value="1"></form>
    <form hx-post="/comments"><input name="body"></form>
    """
    got = extract_actions(page(body))
    assert [a.kind for a in got] == ["form"]
    parts = urlsplit(got[0].target)
    assert parts.path == "/search"
    assert parse_qsl(parts.query, keep_blank_values=True) == [
        ("q", "test"),
        ("csrf", "abc"),
        ("sort", "new"),
        ("exact", "1"),
        ("r", "b"),
    ]
    # Deterministic: the same page gives the same target.
    assert action_targets(page(body)) == action_targets(page(body))


def test_actions_counts_places_and_clickables_come_from_one_walk_of_the_page(monkeypatch):
    body = """
    <nav><a href="/home">Home</a></nav>
    <div class="card"><a href="/p/1">One</a><span>by ann, today</span><a href="/u/ann">ann</a></div>
    <div class="card"><a href="/p/2">Two</a><span>by bob, today</span><a href="/u/ann">ann</a></div>
    <a href="/about" download>not followed</a>
    <button type="button" onclick="more()">More</button>
    """
    shown = page(body)
    assert shown.base == shown.url  # the page's own lookup of <base href>, kept with it, not extraction
    walks = 0
    iterate = Node.iter

    def counting(node: Node):
        nonlocal walks
        walks += node.tag == "#document"
        return iterate(node)

    monkeypatch.setattr(Node, "iter", counting)
    targets = [a.target for a in extract_actions(shown)]
    counts, places = action_counts(shown), item_places(shown)
    assert walks == 1 and page_actions(shown) is page_actions(shown)
    # what only an engine that clicks needs is one more walk, when it first asks, and kept
    clickables = page_clicks(shown).clickables
    assert walks == 2 and page_clicks(shown) is page_clicks(shown) and walks == 2
    assert targets == ["http://a.test/home", "http://a.test/p/1", "http://a.test/u/ann", "http://a.test/p/2"]
    assert counts["http://a.test/u/ann"] == 2 and counts["http://a.test/home"] == 1
    assert set(places) == {"http://a.test/p/1", "http://a.test/u/ann", "http://a.test/p/2"}
    assert places["http://a.test/p/1"] == places["http://a.test/p/2"]
    assert [n.tag for n in clickables] == ["button"]
    # the callers get copies: changing one leaves the page's own walk as it was
    counts.clear(), places.clear()
    assert action_counts(shown) and item_places(shown) and walks == 2


def test_a_get_form_with_nothing_to_fill_is_a_link_not_a_probe():
    body = """
    <form method="get" action="/log"><input type="hidden" name="first" value="20">
      <input type="hidden" name="id" value="home"><button type="submit">less recent &gt;&gt;</button></form>
    <form method="get" action="/search"><input name="q"><button>Search</button></form>
    """
    got = [(a.kind, a.target) for a in extract_actions(page(body))]
    assert got == [("link", "http://a.test/log?first=20&id=home"), ("form", "http://a.test/search?q=test")]


def test_form_without_action_submits_to_the_page_itself_and_selected_option_wins():
    body = '<form><select name="n"><option>1</option><option selected>2</option></select></form>'
    assert action_targets(page(body, "/list?x=1")) == ["http://a.test/list?n=2"]


def test_structure_hash_ignores_text_and_values_but_not_structure():
    a = page('<ul class="l"><li><a href="/a/1">one</a></li><li><a href="/a/2">two</a></li></ul>')
    b = page('<ul class="l">' + "".join(f'<li><a href="/b/{i}">x{i}</a></li>' for i in range(7)) + "</ul>")
    c = page('<ul class="l"><li><a href="/a/1">one</a></li></ul><div class="error">boom</div>')
    d = page('<ul class="other"><li><a href="/a/1">one</a></li></ul>')
    assert a.structure_hash == b.structure_hash
    assert a.structure_hash != c.structure_hash
    assert a.structure_hash != d.structure_hash
    assert len(a.structure_hash) == 32 and int(a.structure_hash, 16) >= 0


def test_structure_hash_skips_scripts_styles_templates_and_noscript_and_what_they_hold():
    plain = page('<div class="a"><p>x</p></div>')
    for hidden in (
        "<noscript><div class='b'><img src=x></div></noscript>",
        "<template><ul><li>1</li></ul></template>",
        "<script>var a = '<div>'</script><style>p {}</style>",
    ):
        shown = page(f'<div class="a">{hidden}<p>x</p>{hidden}</div>')
        list(shown.document.iter())  # the root's order, kept by an earlier walk, is what it reads
        assert shown.structure_hash == plain.structure_hash
    assert page('<div class="a"><p>x</p><div class="b"></div></div>').structure_hash != plain.structure_hash


def test_structure_hash_of_a_very_deep_page_does_not_recurse():
    deep = page("<div>" * 50_000 + "x" + "</div>" * 50_000)
    assert len(deep.structure_hash) == 32


def test_a_link_inside_chrome_within_an_item_has_no_place_whatever_was_asked_before():
    # Whether an element is inside navigation chrome is remembered per element for the whole page:
    # a link asked about after its item's other links must still see the menu around it.
    card = (
        '<div class="card"><a href="/p/{i}">Post {i}</a><span>by ann, today</span>'
        '<div role="menu"><a href="/p/{i}/share">share</a></div><header><a href="/u/{i}">u</a></header></div>'
    )
    body = "<main>" + "".join(card.format(i=i) for i in range(3)) + "</main>"
    places = item_places(page(body))
    assert set(places) == {"http://a.test/p/0", "http://a.test/p/1", "http://a.test/p/2"}
    assert places["http://a.test/p/0"] == "main > div.card >> a"


def test_the_base_url_is_read_from_a_base_element_and_a_page_without_one_is_not_walked(monkeypatch):
    based = page('<head><BASE\n href="/sub/"></head><body><a href="x">x</a></body>')
    assert based.base == ORIGIN + "/sub/"
    assert action_targets(based) == [ORIGIN + "/sub/x"]
    assert page('<p>&lt;base href="/sub/"&gt; is text</p><a href="x">x</a>').base == ORIGIN + "/dir/here"

    def walked(node: Node, tag: str) -> list[Node]:
        raise AssertionError("a page whose text has no <base> tag has no base element to look for")

    monkeypatch.setattr(Node, "find_all", walked)
    plain = page('<a href="/p/1">one</a><p>based on <b>it</b>, baseline</p>')
    assert plain.base == plain.url
