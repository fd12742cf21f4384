"""The pages that lead to a form without an identifier, where the form oracle looks for its record:
in memory (`ExplorationGraph.linking_to`) a click state that navigated there (a profile's "Edit"
button, no link) stands for the page it was clicked on; in the step that made that click, before
memory has written it, the page clicked on is passed to the oracles (`inspect(clicked_on=…)`)."""

from __future__ import annotations

from pathlib import Path

from bughunt.explorer.graph import CLICK_MARK, ExplorationGraph
from bughunt.explorer.inspection import inspect
from bughunt.explorer.secrets import REDACTED
from bughunt.explorer.store import ExplorerStore
from bughunt.page import FetchedPage


def test_a_click_that_navigated_to_the_form_stands_for_the_page_it_was_made_on(tmp_path: Path) -> None:
    store = ExplorerStore(tmp_path / "s")
    click = "/people/ann" + CLICK_MARK + "0a1b2c"
    stray = "/orphan" + CLICK_MARK + "9f9f9f"  # a click state memory holds no click for
    with store.transaction():
        store.link_table.add_click(click, "/people/ann", "div > button")
        store.link_table.replace(click, ["/edit"])
        store.link_table.replace(stray, ["/edit"])
        store.link_table.replace("/", ["/people/ann", "/edit"])
    assert ExplorationGraph(store).linking_to("/edit") == ["/", "/people/ann"]


class _Pages:
    """An engine stand-in that answers the oracles' fetches from a dict of pages."""

    def __init__(self, *pages: FetchedPage) -> None:
        self.pages = {p.url: p for p in pages}

    def route_of(self, url: str) -> str | None:
        return url.removeprefix("http://app.test") if url.startswith("http://app.test/") else None

    def followable(self, route: str) -> bool:
        return True

    def reuse_page(self, url: str, version: str | None) -> FetchedPage | None:
        return None

    def fetch_page(self, url: str, referer: str | None = None) -> FetchedPage:
        if url not in self.pages:
            raise OSError(url)
        return self.pages[url]


def _page(path: str, body: str) -> FetchedPage:
    html = f"<html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage("http://app.test" + path, path, 200, {}, "text/html", html, 1.0)


def test_the_page_whose_button_navigated_to_a_form_is_its_record_before_memory_knows_the_link(
    tmp_path: Path,
) -> None:
    profile = _page(
        "/people/ann", "<div><h1>ann</h1><h5>Loves tea and trains</h5></div><button>Edit</button>"
    )
    form = _page(
        "/edit",
        '<form><input id="username" value="ann"><input id="email" value="ann@mail.test">'
        '<input id="about" value=""><button type="submit">Save</button></form>',
    )
    graph = ExplorationGraph(ExplorerStore(tmp_path / "s"))
    engine = _Pages(profile)
    kinds = [
        f.kind
        for f in inspect(form, engine, graph, allow_destructive=False, clicked_on="/people/ann").findings
    ]
    assert kinds == ["form_drops_value"]
    assert inspect(form, engine, graph, allow_destructive=False).findings == []


def test_a_page_written_again_with_the_same_links_is_not_rewritten_unless_a_secret_was_learned(
    tmp_path: Path,
) -> None:
    store = ExplorerStore(tmp_path / "s")
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    try:
        links = ["/a", "/b?token=tok-123456"]
        with store.transaction():
            store.link_table.replace("/", links)
        table = store.link_table.table()  # the writer's copy is kept from here on
        with store.transaction():
            store.link_table.replace("/", links)
        statements.clear()
        with store.transaction():
            store.link_table.replace("/", list(links))
        assert not [s for s in statements if "links" in s]  # the same links: nothing to write
        store.add_secrets(["tok-123456"])
        with store.transaction():
            store.link_table.replace("/", list(links))  # rows written before the secret was known
        assert [r["dst"] for r in store.db.execute("SELECT dst FROM links ORDER BY pos")] == [
            "/a",
            f"/b?token={REDACTED}",
        ]
        with store.transaction():
            store.link_table.replace("/", ["/a"])  # other links: written
        assert [r["dst"] for r in store.db.execute("SELECT dst FROM links")] == ["/a"]
        assert table["/"] == ["/a"]
    finally:
        store.close()
