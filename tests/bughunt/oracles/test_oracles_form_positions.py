"""An edit form that drops a value its resource page shows in an unmarked element: found by the
position of the field between its filled neighbours. Made-up recipe site, no built-in site's names."""

from __future__ import annotations

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.form_values import shown_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Fetcher as PageFetcher
from tests.support.pages import not_found

ORIGIN = "http://recipes.test"
EDIT = "/recipe/edit/7/"
VIEW = "/recipe/7/slow-roast-lamb/"
KNOWN = OracleConfig(known_routes=lambda: ["/", "/cook/3/", VIEW, "/recipe/8/quick-pho/"])


def page(body: str, path: str, status: int = 200) -> FetchedPage:
    html = (
        '<html><head><title>Recipes</title></head><body><nav><a href="/">recipes</a>'
        f'<a href="/new/">New recipe</a></nav>{body}<footer>Made with care.</footer></body></html>'
    )
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), status, {}, "text/html", html, 1.0)


def editor(lede: str = "", tags: str = "lamb, sunday") -> FetchedPage:
    lede_input = '<input type="text" name="lede" placeholder="In one line" maxlength="300"'
    lede_input += f' value="{lede}">' if lede else ">"
    return page(
        f'<form hx-post="{EDIT}"><input type="hidden" name="token" value="t0k3n">'
        '<input type="text" name="name" value="Slow-roast lamb" id="id_name">'
        f"{lede_input}"
        '<textarea name="method"># Slow-roast lamb\n\nSeason *well*, roast four hours.</textarea>'
        f'<input type="text" name="tags" value="{tags}"><button type="submit">Save</button></form>',
        EDIT,
    )


def view(comments: str = '<p class="card-text">Made it twice, lovely.</p>', lede: str = "") -> FetchedPage:
    lede = lede or "<p>A Sunday lunch that cooks itself.</p>"
    return page(
        '<div class="recipe"><div class="banner"><h1>Slow-roast lamb</h1><div class="meta">'
        '<a class="cook" href="/cook/3/">Rosa Marsh</a><span class="date">Mar. 3, 2026</span>'
        f'<a href="{EDIT}">Edit recipe</a><button hx-delete="/recipe/delete/7/">Delete</button></div></div>'
        f'<div class="content">{lede}<h1>Slow-roast lamb</h1><p>Season <em>well</em>, roast four hours.</p>'
        f'</div><h5>1 comment</h5><div class="comments">{comments}</div></div>',
        VIEW,
    )


def Fetcher(*pages: FetchedPage) -> PageFetcher:  # noqa: N802 (reads as the class it makes)
    return PageFetcher(*pages, missing=not_found(page))


def check(edit: FetchedPage, resource: FetchedPage) -> list:
    return ORACLES["form_drops_value"](edit, Fetcher(resource), KNOWN)


def test_an_empty_field_between_two_shown_neighbours_drops_the_unmarked_text_between_them():
    (finding,) = check(editor(), view())
    assert finding.evidence["field"] == "lede"
    assert finding.evidence["shown"] == "A Sunday lunch that cooks itself."
    assert finding.evidence["resource_url"] == ORIGIN + VIEW  # not `/cook/3/`, not the 404 `/recipe/7`
    # What the labelled rule alone saw: nothing names the lede on the page.
    assert shown_value(view().document, {"lede", "inoneline"}) == ""


def test_a_prefilled_form_and_an_empty_last_field_are_silent():
    assert check(editor(lede="A Sunday lunch that cooks itself."), view()) == []
    # No tags stored (the last field is empty): the comments after the body are not its value.
    untagged = page(view().body.replace("lamb, sunday", ""), VIEW)
    assert check(editor(lede="A Sunday lunch that cooks itself.", tags=""), untagged) == []


def test_bylines_dates_counts_and_furniture_between_the_neighbours_are_not_values():
    # An optional lede left empty and none stored: between the title and the method the page shows
    # only the cook's link, a date, controls — and the site's own furniture text.
    for between in ("<p>Mar. 3, 2026 · 5 min read</p>", "<p>Made with care.</p>", "<p>12</p>"):
        shown = page(view().body.replace("<p>A Sunday lunch that cooks itself.</p>", between), VIEW)
        assert check(editor(), shown) == [], between
    edit_with_tagline = page(
        editor().body.replace("</nav>", "</nav><p>Cook it slow, share it fast.</p>"), EDIT
    )
    shown = page(
        view().body.replace("A Sunday lunch that cooks itself.", "Cook it slow, share it fast."), VIEW
    )
    assert check(edit_with_tagline, shown) == []


def test_neighbours_shown_out_of_order_or_not_at_all_say_nothing():
    # The method shown before the title: no "between" to read.
    swapped = page(
        '<div class="content"><p>Season well, roast four hours.</p><p>A Sunday lunch that cooks itself.</p>'
        "<h1>Slow-roast lamb</h1></div>",
        VIEW,
    )
    assert check(editor(), swapped) == []
    bare = page("<div><h1>Slow-roast lamb</h1><p>A Sunday lunch that cooks itself.</p></div>", VIEW)
    assert check(editor(), bare) == []  # only one neighbour shown


def test_text_another_instance_of_the_template_shows_is_the_templates_not_a_value():
    sibling_path = "/recipe/8/quick-pho/"

    def other(between: str) -> FetchedPage:
        return page(
            f'<div class="recipe"><h1>Quick pho</h1>{between}<p>Simmer, strain, serve.</p></div>',
            sibling_path,
        )

    template_line = "<p>Serves four, keeps two days.</p>"
    shown = page(view().body.replace("<p>A Sunday lunch that cooks itself.</p>", template_line), VIEW)
    assert len(check(editor(), shown)) == 1  # with no sibling to compare, the line would count ...
    shown_with_sibling = Fetcher(shown, other(template_line))
    assert ORACLES["form_drops_value"](editor(), shown_with_sibling, KNOWN) == []  # ... it is the template's
    # A sibling showing its own lede there leaves this one's lede a value.
    fetch = Fetcher(view(), other("<p>Twenty minutes, one pot.</p>"))
    (finding,) = ORACLES["form_drops_value"](editor(), fetch, KNOWN)
    assert finding.evidence["shown"] == "A Sunday lunch that cooks itself."


def test_a_hash_routed_apps_router_links_name_other_pages():
    # A single-page app: the author is a `#/` router link (a reference); the lede a bare `<p>`.
    spa_view = page(
        '<div class="article-page"><h1>Slow-roast lamb</h1><div class="meta"><a href="#/cook/rosa-marsh">Rosa Marsh Kitchen</a>'
        '<a href="#top">Jump to the method steps</a></div>'
        "<p>A Sunday lunch that cooks itself.</p><p>Season well, roast four hours.</p></div>",
        "/#/recipe/slow-roast-lamb",
    )
    spa_edit = page(
        '<form><input aria-label="Name" type="text" value="Slow-roast lamb">'
        '<input aria-label="Lede" type="text" placeholder="In one line">'
        '<textarea aria-label="Method">Season well, roast four hours.</textarea>'
        '<button type="submit">Publish</button></form>',
        "/#/recipe/slow-roast-lamb/edit",
    )
    (finding,) = ORACLES["form_drops_value"](spa_edit, Fetcher(spa_view))
    assert finding.evidence["shown"] == "A Sunday lunch that cooks itself."  # not the author, not the anchor
    # The author's link alone between the neighbours: nothing to report.
    no_lede = page(
        spa_view.body.replace("<p>A Sunday lunch that cooks itself.</p>", ""), "/#/recipe/slow-roast-lamb"
    )
    assert ORACLES["form_drops_value"](spa_edit, Fetcher(no_lede)) == []
