"""Each oracle fires on a small hand-made bad page and stays silent on a correct one. The pages use
names and routes that are not the built-in site's, so nothing here can pass by being keyed to it."""

from __future__ import annotations

import re

import pytest

from bughunt.explorer.http_engine import DEFAULT_AVOID
from bughunt.oracles import ORACLES, Finding, inspect_page
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://shop.test"


def page(body: str, path: str = "/", status: int = 200, content_type: str = "text/html") -> FetchedPage:
    html = f"<html><head><title>t</title></head><body>{body}<script>window.app = 1;</script></body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), status, {}, content_type, html, 1.0)


def fetcher(pages: dict[str, FetchedPage]):
    def fetch(url: str) -> FetchedPage:
        if url not in pages:
            raise OSError(f"not found: {url}")
        return pages[url]

    return fetch


def kinds(findings: list[Finding]) -> list[str]:
    return [f.kind for f in findings]


# --- server errors ---------------------------------------------------------------------------


def test_server_error_fires_on_5xx_with_the_error_line():
    bad = page("<h1>Oops</h1><pre>Traceback\n  File x\nKeyError: 'cart_4711'</pre>", "/cart", 503)
    (finding,) = ORACLES["server_error"](bad, None)
    assert finding.kind == "server_error" and finding.route == "/cart"
    # The message is a template: the page's error line is evidence only (issue 12).
    assert finding.message == "HTTP 503 Service Unavailable"
    assert finding.evidence["error_line"] == "KeyError: 'cart_4711'"
    assert finding.evidence["status"] == 503 and "KeyError" in finding.evidence["excerpt"]


def test_server_error_silent_on_success_and_client_errors():
    assert ORACLES["server_error"](page("<p>ok</p>"), None) == []
    assert ORACLES["server_error"](page("<p>missing</p>", status=404), None) == []


# --- unescaped script in user content --------------------------------------------------------

REVIEWS = '<section class="reviews"><div class="review"><p>Great shoes</p></div>{}</section>'


def test_script_inside_user_content_fires():
    bad = page(REVIEWS.format('<div class="review"><p>Love it <script>steal()</script></p></div>'), "/shoes")
    (finding,) = ORACLES["unescaped_script"](bad, None)
    assert finding.kind == "unescaped_script" and "steal()" in finding.evidence["code"]


def test_event_handler_in_user_content_fires():
    bad = page(REVIEWS.format('<div class="review"><p>pic <img src=x onerror="steal()"></p></div>'))
    (finding,) = ORACLES["unescaped_script"](bad, None)
    assert finding.message == "inline event handler rendered unescaped inside user content"
    assert finding.evidence["handler"] == "onerror" and "review" in finding.evidence["container"]


def test_script_inside_a_link_title_in_a_menu_fires():
    # A title printed unescaped into a menu of links: the script sits in the link, beside its words.
    menu = '<div class="dropdown-menu"><a class="item" href="/shelf/a">Atlas</a>{}</div>'
    bad = page(menu.format('<a class="item" href="/shelf/b">Big <script>steal()</script> maps</a>'), "/shelf")
    assert kinds(ORACLES["unescaped_script"](bad, None)) == ["unescaped_script"]
    escaped = page(
        menu.format('<a class="item" href="/shelf/b">Big &lt;script&gt;steal()&lt;/script&gt; maps</a>')
    )
    assert ORACLES["unescaped_script"](escaped, None) == []
    own = page(menu.format('<a class="item" href="/shelf/b"><script>track("b")</script></a>'))
    assert ORACLES["unescaped_script"](own, None) == []  # alone in its link: one sign only


def test_escaped_script_and_the_sites_own_scripts_are_silent():
    good = page(
        REVIEWS.format('<div class="review"><p>Love it &lt;script&gt;steal()&lt;/script&gt;</p></div>')
        + '<div class="content"><script>initCarousel();</script><div id="c"></div></div>'
        + '<script type="application/ld+json">{"@type": "Product"}</script>'
        + "<table><tr><td><script>document.write(year)</script></td></tr></table>"  # legacy, no user content
    )
    assert ORACLES["unescaped_script"](good, None) == []


# --- duplicate items across pages of a list ---------------------------------------------------


def products(*names: str) -> str:
    return (
        '<ul class="products">' + "".join(f'<li class="product"><h3>{n}</h3></li>' for n in names) + "</ul>"
    )


def shop_page(n: int, names: tuple[str, ...]) -> FetchedPage:
    menu = '<nav><ul><li><a href="/">Shop</a></li><li><a href="/cart">Cart</a></li></ul></nav>'
    prev = f'<a href="/shoes?page={n - 1}">{n - 1}</a>' if n > 1 else ""
    return page(f"{menu}{products(*names)}<div>{prev}</div>", f"/shoes?page={n}")


def test_duplicate_across_pages_fires_on_the_later_page_only():
    p1 = shop_page(1, ("Boot", "Sandal", "Loafer"))
    p2 = shop_page(2, ("Clog", "Loafer"))
    fetch = fetcher({p1.url: p1, p2.url: p2})
    (finding,) = ORACLES["duplicate_pagination"](p2, fetch)
    assert finding.route == "/shoes?page=2" and finding.evidence["repeated"] == "Loafer"
    assert ORACLES["duplicate_pagination"](p1, fetch) == []


def test_distinct_pages_and_identical_furniture_are_silent():
    p1 = shop_page(1, ("Boot", "Sandal", "Loafer"))
    p2 = shop_page(2, ("Clog", "Slipper"))
    assert ORACLES["duplicate_pagination"](p2, fetcher({p1.url: p1})) == []
    assert ORACLES["duplicate_pagination"](p2, None) == []  # nothing to compare without fetch


def test_rel_prev_is_followed():
    first = page(products("Boot", "Sandal"), "/new")
    second = page(f'<link rel="prev" href="/new">{products("Clog", "Sandal")}', "/new?page=2")
    (finding,) = ORACLES["duplicate_pagination"](second, fetcher({first.url: first}))
    assert finding.evidence["previous_url"] == first.url


def test_previous_post_links_are_not_pagination():
    # Blogs put rel=prev between two posts; the posts' sidebars are not one paginated list.
    older = page(f"<aside>{products('Hello', 'Older')}</aside>", "/2024/older-post/")
    newer = page(
        f'<a rel="prev" href="/2024/older-post/">Older</a><aside>{products("Newer", "Hello")}</aside>',
        "/2024/hello-world/",
    )
    assert ORACLES["duplicate_pagination"](newer, fetcher({older.url: older})) == []


# --- displayed count vs listed items ----------------------------------------------------------


def test_count_that_disagrees_with_its_list_fires():
    bad = page(f"<h2>Wishlist (4)</h2>{products('Boot', 'Sandal', 'Loafer')}", "/wishlist")
    (finding,) = ORACLES["count_mismatch"](bad, None)
    assert finding.evidence["shown"] == 4 and finding.evidence["listed"] == 3


def test_leading_count_form_fires():
    bad = page(
        '<div><span class="count">2 reviews</span></div><div class="reviews">'
        '<p class="review">a</p><p class="review">b</p><p class="review">c</p></div>'
    )
    assert kinds(ORACLES["count_mismatch"](bad, None)) == ["count_mismatch"]


def test_matching_counts_durations_and_paged_totals_are_silent():
    good = page(f"<h2>Wishlist (3)</h2>{products('Boot', 'Sandal', 'Loafer')}<p>5 min read</p>")
    assert ORACLES["count_mismatch"](good, None) == []
    paged = page(f"<h2>Results (40)</h2>{products('Boot', 'Sandal')}<a rel='next' href='/r/2'>next</a>")
    assert ORACLES["count_mismatch"](paged, None) == []
    badge = page(products("Boot (3)", "Sandal"))  # a count inside an item labels something else
    assert ORACLES["count_mismatch"](badge, None) == []
    threaded = page(
        '<h3>Comments (3)</h3><ol class="comments"><li>a<ol><li>reply</li></ol></li><li>b</li></ol>'
    )
    assert ORACLES["count_mismatch"](threaded, None) == []  # replies count too


def test_a_list_that_says_it_is_empty_lists_no_items():
    def shelf(count: int, rows: str) -> FetchedPage:
        return page(
            f"<p>Shelf <strong>{count} books</strong> here.</p>"
            f"<table><tr><th>Title</th><th>Author</th></tr>{rows}</table>",
            "/shelf",
        )

    empty_row = '<tr><td colspan="2"><em>There are no books on this shelf</em></td></tr>'
    assert ORACLES["count_mismatch"](shelf(0, empty_row), None) == []
    assert kinds(ORACLES["count_mismatch"](shelf(2, empty_row), None)) == ["count_mismatch"]
    # one real row that happens to start with "No" is an item
    real_row = '<tr><td><a href="/b/1">No Country for Old Men</a></td><td>McCarthy</td></tr>'
    assert kinds(ORACLES["count_mismatch"](shelf(0, real_row), None)) == ["count_mismatch"]


# --- edit forms that drop stored values -------------------------------------------------------

PRODUCT_VIEW = page(
    '<h1 itemprop="name">Boot</h1><dl><dt>Colour</dt><dd>Brown</dd></dl>'
    '<div class="product-categories"><span>Winter</span></div>',
    "/products/boot",
)


def edit_form(colour: str, categories: str) -> FetchedPage:
    return page(
        '<form method="post" action="/products/boot">'
        '<label for="name">Name</label><input id="name" name="name" value="Boot">'
        f'<label for="colour">Colour</label><input id="colour" name="colour" value="{colour}">'
        f'<input name="categories" value="{categories}">'
        '<a href="/products/boot">Cancel</a><button>Save</button></form>',
        "/products/boot/edit",
    )


def test_edit_form_with_an_empty_field_the_resource_shows_fires():
    bad = edit_form("", "Winter")
    (finding,) = ORACLES["form_drops_value"](bad, fetcher({PRODUCT_VIEW.url: PRODUCT_VIEW}))
    assert finding.evidence["field"] == "colour" and finding.evidence["shown"] == "Brown"
    assert "colour" not in finding.message  # a field name is page text: evidence only
    both = edit_form("", "")
    (found,) = ORACLES["form_drops_value"](both, fetcher({PRODUCT_VIEW.url: PRODUCT_VIEW}))
    assert sorted(found.evidence["fields"].splitlines()) == ["categories", "colour"]


def test_complete_edit_forms_and_blank_new_forms_are_silent():
    fetch = fetcher({PRODUCT_VIEW.url: PRODUCT_VIEW})
    assert ORACLES["form_drops_value"](edit_form("Brown", "Winter"), fetch) == []
    blank = page(
        '<form method="post"><input name="colour"><input name="name">'
        '<a href="/products/boot">Back</a></form>',
        "/products/new",
    )
    assert ORACLES["form_drops_value"](blank, fetch) == []
    # A select without a `selected` option submits its first option: not empty.
    select = page(
        '<form method="post"><input name="name" value="Boot"><select name="colour">'
        '<option value="brown">Brown</option></select><a href="/products/boot">Cancel</a></form>',
        "/products/boot/edit",
    )
    assert ORACLES["form_drops_value"](select, fetch) == []
    # An optional field the resource does not show is not a dropped value.
    optional = page(
        '<form method="post"><input name="name" value="Boot"><input name="coupon">'
        '<a href="/products/boot">Cancel</a></form>',
        "/products/boot/edit",
    )
    assert ORACLES["form_drops_value"](optional, fetch) == []


# --- destructive actions on a plain GET -------------------------------------------------------


def test_destructive_get_without_confirmation_fires():
    bad = page("<h1>Subscription cancelled</h1><p>Done.</p>", "/billing/cancel-subscription")
    (finding,) = ORACLES["unconfirmed_destructive"](bad, None)
    assert finding.evidence["action"] == "billing cancel subscription" and not finding.suspected
    removed = page("<h1>Removed</h1>", "/cart/items/991/remove")
    assert kinds(ORACLES["unconfirmed_destructive"](removed, None)) == ["unconfirmed_destructive"]
    by_query = page("<h1>Done</h1>", "/index.php?title=Boot&action=delete")
    assert kinds(ORACLES["unconfirmed_destructive"](by_query, None)) == ["unconfirmed_destructive"]
    # a front controller's delete link names the verb as its key and the thing as its value
    by_key = page("<h1>Files</h1><p>The file was deleted.</p>", "/files.php?delete=docs:card.txt&tok=9f")
    assert kinds(ORACLES["unconfirmed_destructive"](by_key, None)) == ["unconfirmed_destructive"]
    listed = page(
        '<ul><li>card.txt <a href="/files.php?delete=docs:card.txt&tok=9f">Delete</a></li></ul>', "/files.php"
    )
    (suspected,) = ORACLES["unconfirmed_destructive"](listed, None)
    assert suspected.suspected and suspected.route == "/files.php?delete=docs:card.txt&tok=9f"
    assert re.search(DEFAULT_AVOID, "/files.php?delete=docs:card.txt&tok=9f")  # never clicked
    assert not re.search(DEFAULT_AVOID, "/files.php?deleted=1")  # a message after the fact


def test_confirmation_pages_and_harmless_routes_are_silent():
    confirm = page(
        '<h1>Delete project?</h1><form method="post"><button>Yes, delete</button></form>',
        "/projects/7/delete",
    )
    assert ORACLES["unconfirmed_destructive"](confirm, None) == []
    assert ORACLES["unconfirmed_destructive"](page("<h1>Shoes</h1>", "/shoes"), None) == []
    search = page('<form method="get"><input name="q" value="delete"></form>', "/search?q=delete+account")
    assert ORACLES["unconfirmed_destructive"](search, None) == []
    failed = page("<h1>Error</h1>", "/projects/7/delete", status=500)
    assert ORACLES["unconfirmed_destructive"](failed, None) == []


def test_a_delete_link_that_says_it_is_confirmed_is_no_suspicion():
    editor = page(
        '<h1>Edit project</h1><form method="post"><input name="name" value="Atlas"><button>Save</button></form>'
        '<a class="btn" href="/projects/7/delete?confirm=1&rev=12">Delete</a>'
        '<a href="/projects/8/delete/">Delete</a><a href="/projects/9/delete?confirm=0">Delete</a>',
        "/projects/7/edit",
    )
    findings = {f.evidence["target"]: f for f in ORACLES["unconfirmed_destructive"](editor, None)}
    assert not findings[ORIGIN + "/projects/7/delete?confirm=1&rev=12"].suspected
    # a plain link may lead to a confirmation page, and `confirm=0` asks: both stay suspected only
    assert findings[ORIGIN + "/projects/8/delete/"].suspected
    assert findings[ORIGIN + "/projects/9/delete?confirm=0"].suspected


# --- inspect_page -----------------------------------------------------------------------------


def test_inspect_page_dedups_and_never_fetches_another_origin():
    calls: list[str] = []

    def fetch(url: str) -> FetchedPage:
        calls.append(url)
        raise OSError("offline")

    other = page(
        '<form method="post"><input name="a" value="1"><input name="b">'
        '<a href="http://evil.test/x">Cancel</a></form>',
        "/edit",
    )
    assert inspect_page(other, fetch) == []
    assert calls == []  # the cross-origin link was never even requested


def test_non_html_pages_only_get_the_status_check():
    data = page("<script>x</script>", "/api/items", 500, "application/json")
    assert kinds(inspect_page(data)) == ["server_error"]


def test_a_failing_oracle_does_not_stop_the_others(monkeypatch):
    def broken(page, fetch):
        raise RuntimeError("oracle bug")

    monkeypatch.setitem(ORACLES, "count_mismatch", broken)
    assert kinds(inspect_page(page("<h1>x</h1>", "/x/delete"))) == ["unconfirmed_destructive"]


def test_findings_round_trip_and_reject_unknown_kinds():
    finding = ORACLES["server_error"](page("<h1>x</h1>", status=500), None)[0]
    assert Finding.from_dict(finding.to_dict()) == finding
    with pytest.raises(ValueError, match="unknown finding kind"):
        Finding("slow_page", "/", "slow")
