"""`click_target`: a structural selector read back in the page it was made on, and a control described
so it can be found again at click time (the browser side is `test_redrawn_clicks.py`)."""

from __future__ import annotations

from bughunt.dom import Selectors
from bughunt.explorer.click_target import MAX_ALIKE, resolve, wanted
from bughunt.page import FetchedPage

ROWS = """<!doctype html><html><body><div id="app"><ul>
<li><span>North row</span><button type="button">Remove</button></li>
<li><span>South row</span><button type="button">Remove</button></li>
<li><span>North row</span><button type="button">Remove</button></li>
</ul><p>See <a href="/a">A</a> and <a href="/b">B</a></p></div></body></html>"""


def _page(body: str) -> FetchedPage:
    return FetchedPage("http://x.test/", "/", 200, {}, "text/html", body, 1.0)


def test_every_selector_of_a_page_resolves_to_its_own_element() -> None:
    page = _page(ROWS)
    selectors = Selectors()
    elements = list(page.document.iter())[1:]
    assert elements and all(resolve(page.document, selectors.of(n)) is n for n in elements)
    assert resolve(page.document, "html > body > div > ol > li") is None
    assert resolve(page.document, "#app > ul > li:nth-of-type(9) > button") is None


def test_a_control_is_described_by_its_words_attributes_and_surroundings() -> None:
    page = _page(ROWS)
    south = wanted(page, "#app > ul > li:nth-of-type(2) > button")
    assert south is not None
    assert (south.tag, south.text, south.attrs) == ("button", "Remove", {"type": "button"})
    assert south.context[0] == "South row Remove" and (south.alike, south.twins, south.position) == (3, 1, 0)
    # two rows alike down to their texts: told apart only by their position among the two
    second_north = wanted(page, "#app > ul > li:nth-of-type(3) > button")
    assert second_north is not None and (second_north.alike, second_north.twins, second_north.position) == (
        3,
        2,
        1,
    )
    link = wanted(page, "#app > p > a:nth-of-type(2)")
    assert link is not None and link.attrs == {"href": "/b"} and link.alike == 1
    assert wanted(page, "#app > ol > li > button") is None


def test_hundreds_of_one_control_are_left_to_their_path() -> None:
    rows = "".join(f"<li>Comment {i}<button>Reply</button></li>" for i in range(MAX_ALIKE + 1))
    page = _page(f"<!doctype html><html><body><ul>{rows}</ul></body></html>")
    assert wanted(page, "html > body > ul > li:nth-of-type(3) > button") is None
