"""A link to a fragment that names no element of its page is a control of the page's script, not an
anchor to scroll to: a wiki whose every page link is `#Some%20Title` (its story opens that page), a
tab bar's `#settings`. A fragment naming an element (`#comments` over `<section id="comments">`, a
skip link, `<a name>` anchors) stays a place on the page, clicked by nobody; a hash route (`#/…`) is
a page, followed as a link, not clicked."""

from __future__ import annotations

from bughunt.actions import clickable
from bughunt.dom import parse_html

PAGE = (
    "<html><body><a href='#main'>Skip</a><nav><a href='#Getting%20Started'>Getting Started</a>"
    "<a href='#settings'>Settings</a><a href='#/tags'>Tags</a><a href='#old'>Old anchor</a></nav>"
    "<main id='main'><h1>Home</h1><p><a name='old'></a>Welcome</p></main></body></html>"
)


def _links() -> dict[str, bool]:
    doc = parse_html(PAGE)
    return {a.attrs["href"]: clickable(a) for a in doc.find_all("a") if "href" in a.attrs}


def test_a_fragment_naming_nothing_on_the_page_is_a_control():
    links = _links()
    assert links["#Getting%20Started"] and links["#settings"]


def test_a_fragment_naming_an_element_is_a_place_and_a_hash_route_a_link():
    links = _links()
    assert not links["#main"] and not links["#old"] and not links["#/tags"]
