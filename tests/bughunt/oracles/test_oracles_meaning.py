"""The oracles judge what pages mean, not one app's markup: each rule on small hand-made pages of
imaginary apps in different markup styles — a Bootstrap-macro blog (« 1 » pager with disabled arrows,
posts without headings carrying "0 Comments" badges), a Django admin-style changelist, a forum of
plain ul/li comments, a settings form reached from a profile — firing on the bad page and silent on
the good one; and one root cause on sibling routes met from different parents is one bug."""

from __future__ import annotations

import pytest

from bughunt.explorer.inspection import same_root_cause
from bughunt.fingerprint import one_template
from bughunt.oracles import OracleConfig, inspect_page
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.lists import has_pagination, identities, list_items, other_pages
from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.oracles.server_error import check_server_error
from bughunt.page import FetchedPage
from tests.support.pages import Site, open_bug

ORIGIN = "http://app.test"


SITE = Site(ORIGIN, "<html><head><title>t</title></head><body>", "</body></html>")
page = SITE.page
Fetcher = SITE.fetcher


# --- a Bootstrap-macro blog: posts without headings, "0 Comments" badges, a « 1 » pager ----------


def post(n: int, author: str, body: str) -> str:
    # No heading: the longest link is the badge, the same on every post.
    return (
        f'<li class="post"><div class="post-thumbnail"><a href="/user/{author}"><img src="/a.png"></a></div>'
        f'<div class="post-content"><div class="post-date">2 days ago</div>'
        f'<div class="post-author"><a href="/user/{author}">{author}</a></div>'
        f'<div class="post-body">{body}</div><div class="post-footer">'
        f'<a href="/edit/{n}"><span class="label">Edit</span></a> '
        f'<a href="/post/{n}"><span class="label">Permalink</span></a> '
        f'<a href="/post/{n}#comments"><span class="label">0 Comments</span></a></div></div></li>'
    )


def bootstrap_pager(current: int, last: int) -> str:
    prev = (
        '<li class="disabled"><a href="#">&laquo;</a></li>'
        if current == 1
        else f'<li><a href="/?page={current - 1}">&laquo;</a></li>'
    )
    nxt = (
        '<li class="disabled"><a href="#">&raquo;</a></li>'
        if current == last
        else f'<li><a href="/?page={current + 1}">&raquo;</a></li>'
    )
    numbers = "".join(
        f'<li class="active"><a href="/?page={i}#posts">{i}</a></li>'
        if i == current
        else f'<li><a href="/?page={i}#posts">{i}</a></li>'
        for i in range(1, last + 1)
    )
    return f'<div class="pagination"><ul class="pagination">{prev}{numbers}{nxt}</ul></div>'


def blog(
    path: str, posts: list[tuple[int, str, str]], current: int, last: int, label: str = ""
) -> FetchedPage:
    heading = f"<h3>{label}</h3>" if label else ""
    return page(
        '<nav class="navbar"><ul class="nav"><li><a href="/">Home</a></li><li><a href="/user/ann">Profile</a></li></ul></nav>'
        f'<div class="container">{heading}<ul class="posts">'
        + "".join(post(*p) for p in posts)
        + "</ul>"
        + bootstrap_pager(current, last)
        + "</div>",
        path,
    )


PAGE_ONE = [(9, "ann", "Spring is here."), (8, "bob", "Shipping today."), (7, "ann", "New garden.")]


def test_a_pager_drawn_for_a_single_page_leads_nowhere_and_one_with_a_second_page_does() -> None:
    single = blog("/", PAGE_ONE, 1, 1)
    assert other_pages(single) == [] and not has_pagination(single)
    paged = blog("/", PAGE_ONE, 1, 2)
    assert other_pages(paged) == [ORIGIN + "/?page=2"] and has_pagination(paged)
    last = blog("/?page=2", PAGE_ONE, 2, 2)
    assert other_pages(last) == [ORIGIN + "/?page=1"]  # the active "2" and the disabled » are not
    scripted = page(
        '<ul class="pagination"><li class="active"><a href="#">1</a></li><li><a href="#" data-page="2">2</a></li></ul>'
    )
    assert other_pages(scripted) == [] and has_pagination(scripted)  # a script pages it: not complete
    in_tab = page(
        '<div class="tab-pane active"><div class="pages"><div class="pg"><a class="current" href="/?page=1">1</a>'
        '</div><div class="pg"><a href="/?page=2">2</a></div></div></div>'
    )
    assert other_pages(in_tab) == [ORIGIN + "/?page=2"]  # the active tab is not the active page


def test_count_above_a_single_page_list_is_compared_and_above_a_paged_one_is_not() -> None:
    bad = blog("/user/ann", PAGE_ONE, 1, 1, label="Posts (4)")
    good = blog("/user/ann", PAGE_ONE, 1, 1, label="Posts (3)")
    paged = blog("/user/ann", PAGE_ONE, 1, 2, label="Posts (4)")
    [finding] = check_count_mismatch(bad)
    assert finding.evidence["shown"] == 4 and finding.evidence["listed"] == 3
    assert check_count_mismatch(good) == []
    assert check_count_mismatch(paged) == []  # 4 posts over two pages: page one shows three


@pytest.mark.parametrize(("second", "fires"), [(3, True), (2, False)])
def test_count_above_a_paged_list_is_compared_with_all_its_pages(second: int, fires: bool) -> None:
    rest = [(n, "cy", f"Note {n}.") for n in range(6, 6 - second, -1)]
    first = blog("/", PAGE_ONE, 1, 2, label="Posts (5)")
    fetch = Fetcher(blog("/?page=2", rest, 2, 2, label="Posts (5)"))
    findings = check_count_mismatch(first, fetch)
    assert [f.evidence["listed"] for f in findings] == ([3 + second] if fires else [])
    # the one other page, once; « and the active 1 are not (a post's own page is fetched for its card's
    # "0 Comments" when the list agrees with its label: `count_records`, at most two of them)
    assert [c for c in fetch.calls if "/post/" not in c] == [ORIGIN + "/?page=2"]
    assert len([c for c in fetch.calls if "/post/" in c]) <= 2
    assert check_count_mismatch(first) == []  # no fetch: the list cannot be walked, nothing compared
    unlabelled = Fetcher(blog("/?page=2", rest, 2, 2))  # page 2 shows no label: its list is not known
    assert check_count_mismatch(first, unlabelled) == []


def test_a_post_without_a_heading_is_identified_by_its_permalink_not_its_badge() -> None:
    doc = blog("/", PAGE_ONE, 1, 1).document
    items = next(i for n in doc.iter() if "posts" in n.classes and (i := list_items(n)))
    assert identities(items, ORIGIN + "/") == [{f"href:{ORIGIN}/post/{n}"} for n in (9, 8, 7)]


@pytest.mark.parametrize("two_items", [True, False])
def test_blog_second_page_repeating_a_post_fires_and_a_clean_one_is_silent(two_items: bool) -> None:
    first = blog("/?page=1", PAGE_ONE, 1, 2)  # what the pager's « on page 2 links to
    clean = [(6, "bob", "Rainy day."), (5, "cy", "Hello.")] + ([] if two_items else [(4, "ann", "Seeds.")])
    repeated = [(7, "ann", "New garden."), *clean[1:]]
    fetch = Fetcher(first)
    assert check_duplicate_pagination(blog("/?page=2", clean, 2, 2), fetch) == []
    [finding] = check_duplicate_pagination(blog("/?page=2", repeated, 2, 2), fetch)
    assert finding.evidence["previous_url"] == ORIGIN + "/?page=1"


# --- a flat loop: each post is a linked heading, its text and footer as siblings, no wrapper ------


def flat(path: str, posts: list[int], current: int) -> FetchedPage:
    body = "".join(
        f'<h3 class="title"><a href="/entry/{n}">Entry {n}</a></h3><p>Text of entry {n}.</p>'
        f'<small>Comments: <a href="/entry/{n}#comments">2</a> Topic: <a href="/topic/1">Walks</a></small><hr>'
        for n in posts
    )
    pager = "".join(
        f'<li class="page-item active"><a class="page-link" href="/topic/1?page={i}">{i}</a></li>'
        if i == current
        else f'<li class="page-item"><a class="page-link" href="/topic/1?page={i}">{i}</a></li>'
        for i in (1, 2)
    )
    return page(f'<div class="col"><h2>Walks</h2>{body}<ul class="pagination">{pager}</ul></div>', path)


def test_flat_loop_repeating_an_entry_on_its_second_page_fires_and_a_clean_one_is_silent() -> None:
    fetch = Fetcher(flat("/topic/1?page=1", [9, 8, 7], 1))
    assert check_duplicate_pagination(flat("/topic/1?page=2", [6, 5, 4], 2), fetch) == []
    [finding] = check_duplicate_pagination(flat("/topic/1?page=2", [7, 5, 4], 2), fetch)
    assert finding.evidence["repeated"] == "Entry 7"


# --- a Django admin-style changelist: rows led by a th scope=row link -----------------------------


def changelist(path: str, orders: list[int], page_no: int) -> FetchedPage:
    rows = "".join(
        f'<tr><td class="action-checkbox"><input type="checkbox" name="_selected_action" value="{o}"></td>'
        f'<th class="field-__str__"><a href="/admin/shop/order/{o}/change/">Order object ({o})</a></th>'
        f'<td class="field-status">Paid</td><td class="field-total">10.00</td></tr>'
        for o in orders
    )
    pager = "".join(
        f'<span class="this-page">{i}</span>' if i == page_no else f'<a href="?p={i}">{i}</a>' for i in (1, 2)
    )
    return page(
        '<div id="changelist"><table id="result_list"><thead><tr><th>Order</th><th>Status</th>'
        f"<th>Total</th></tr></thead><tbody>{rows}</tbody></table>"
        f'<p class="paginator">{pager} 6 orders</p></div>',
        path,
    )


def test_admin_changelist_repeating_a_row_on_its_second_page_fires_and_a_clean_one_is_silent() -> None:
    fetch = Fetcher(changelist("/admin/shop/order/?p=1", [6, 5, 4], 1))
    assert check_duplicate_pagination(changelist("/admin/shop/order/?p=2", [3, 2, 1], 2), fetch) == []
    [finding] = check_duplicate_pagination(changelist("/admin/shop/order/?p=2", [4, 2, 1], 2), fetch)
    assert "Order object (4)" in finding.evidence["repeated"]


# --- a forum of plain ul/li comments: no links but "Reply", no headings ---------------------------


def thread(path: str, comments: list[tuple[str, str]], prev: str = "") -> FetchedPage:
    items = "".join(
        f'<li><b>{who}</b> wrote: {text} <a href="/reply?to={i}">Reply</a> <span>0 Likes</span></li>'
        for i, (who, text) in enumerate(comments)
    )
    pager = f'<a rel="prev" href="{prev}">Older</a>' if prev else ""
    return page(f"<h1>Thread</h1><ul>{items}</ul>{pager}", path)


def test_comments_identified_by_their_text_not_their_shared_reply_link_or_like_count() -> None:
    first = thread("/t/lawn", [("ann", "Mow high."), ("bob", "Water early."), ("cy", "Feed in May.")])
    fetch = Fetcher(first)
    clean = thread("/t/lawn?page=2", [("dee", "Lime it."), ("eve", "Aerate.")], prev="/t/lawn")
    bad = thread("/t/lawn?page=2", [("bob", "Water early."), ("eve", "Aerate.")], prev="/t/lawn")
    assert check_duplicate_pagination(clean, fetch) == []
    [finding] = check_duplicate_pagination(bad, fetch)
    assert "water early" in finding.evidence["repeated"].lower()


def test_labels_that_repeat_count_or_act_are_never_identities() -> None:
    doc = page(
        "<ul><li><a href='#'>0 Comments</a></li><li><a href='#'>0 Comments</a></li>"
        "<li>Same</li><li>Same</li><li><a href='/x/like'>Like</a></li></ul>"
    ).document
    items = list_items(doc.find_all("ul")[0]) or []
    assert identities(items, ORIGIN + "/") == [set()] * 5


# --- a settings form with no identifier in its URL, reached from a profile ------------------------


def settings(bio: str) -> FetchedPage:
    return page(
        '<nav><a href="/">Home</a><a href="/settings">Settings</a></nav>'
        '<form method="post"><input type="hidden" name="csrf" value="t0k3n">'
        '<label for="name">Name</label><input id="name" name="name" value="Ann Lee">'
        '<label for="email">E-mail</label><input id="email" name="email" value="ann@example.test">'
        f'<label for="bio">Bio</label><textarea id="bio" name="bio">{bio}</textarea>'
        "<button>Save</button></form>",
        "/settings",
    )


def profile(bio: str) -> FetchedPage:
    shown = f'<p class="bio">{bio}</p>' if bio else ""
    return page(
        '<nav><a href="/">Home</a><a href="/settings">Settings</a></nav>'
        f'<h1>Profile of Ann Lee</h1><p>Contact: ann@example.test</p>{shown}<a href="/settings">Edit your profile</a>',
        "/people/ann",
    )


HOME = page('<nav><a href="/">Home</a><a href="/settings">Settings</a></nav><h1>Welcome</h1>', "/")
HELP = page(
    '<h1>Your profile</h1><p>Change your name or bio on the <a href="/settings">settings page</a>.</p>',
    "/help/account/profile",
)


def test_settings_form_is_compared_with_the_linking_page_that_shows_its_record() -> None:
    linking = ["/", "/people/ann", "/help/account/profile"]  # the help page shows no record of Ann
    config = OracleConfig(linked_from=lambda route: linking if route == "/settings" else [])
    bad = Fetcher(HOME, HELP, profile("Gardener in Leeds."))
    [finding] = check_form_drops_value(settings(""), bad, config)
    assert finding.evidence["field"] == "bio" and finding.evidence["resource_url"] == ORIGIN + "/people/ann"
    assert check_form_drops_value(settings("Gardener in Leeds."), bad, config) == []
    good = Fetcher(HOME, HELP, profile(""))
    assert check_form_drops_value(settings(""), good, config) == []
    # Without memory's links there is nothing to compare with: silent, not guessing.
    assert check_form_drops_value(settings(""), bad, OracleConfig()) == []


def test_settings_met_before_the_profile_is_compared_through_its_own_link_to_it() -> None:
    # Memory knows only that the home page links the form; the form page's menu links the profile,
    # which memory has not loaded yet. A loaded page that does not link back is not tried again.
    form = page(
        '<nav><a href="/">Home</a><a href="/people/ann">Me</a><a href="/help/account/profile">Help</a></nav>'
        + settings("").body.split("</nav>", 1)[1].split("</body>")[0],
        "/settings",
    )
    loaded = {"/", "/help/account/profile"}
    config = OracleConfig(linked_from=lambda route: ["/"], loaded=loaded.__contains__)
    fetch = Fetcher(HOME, HELP, profile("Gardener in Leeds."))
    [finding] = check_form_drops_value(form, fetch, config)
    assert finding.evidence["resource_url"] == ORIGIN + "/people/ann"
    assert ORIGIN + "/help/account/profile" not in fetch.calls
    assert check_form_drops_value(form, Fetcher(HOME, HELP, profile("")), config) == []
    assert check_form_drops_value(form, fetch, OracleConfig(linked_from=lambda route: ["/"])) == []


# --- an edit form reached from a feed of records, each with its own "Edit" -------------------------


def journal(entries: list[tuple[int, str, str]]) -> FetchedPage:
    return page(
        '<nav><ul><li><a href="/">Journal</a></li><li><a href="/new">New</a></li></ul></nav><main>'
        + "".join(
            f'<article class="entry"><header><h2>{title}</h2><a href="/entries/{n}/amend">Edit</a></header>'
            f'<p class="text">{text}</p></article>'
            for n, title, text in entries
        )
        + "</main>",
        "/",
    )


def amend(n: int, title: str, text: str) -> FetchedPage:
    return page(
        f'<form method="post"><input name="title" value="{title}"><textarea name="text">{text}</textarea>'
        "<button>Save</button></form>",
        f"/entries/{n}/amend",
    )


def test_a_form_linked_from_a_feed_is_compared_with_its_own_entry_only() -> None:
    feed = journal([(2, "Second day", ""), (1, "First day", "Sunny and warm.")])
    config = OracleConfig(linked_from=lambda route: ["/"])
    fetch = Fetcher(feed)  # `/entries/2` answers 404: the feed is the page that shows entry 2
    # Entry 2 has no text: the text of entry 1 beside it on the feed is not entry 2's.
    assert check_form_drops_value(amend(2, "Second day", ""), fetch, config) == []
    [finding] = check_form_drops_value(amend(1, "First day", ""), fetch, config)
    assert finding.evidence["field"] == "text" and finding.evidence["shown"] == "Sunny and warm."
    assert check_form_drops_value(amend(1, "First day", "Sunny and warm."), fetch, config) == []


# --- one root cause on sibling routes reached from different parents ------------------------------


def test_one_template_merges_one_plain_word_below_the_collection_only() -> None:
    assert one_template("/user/john", "/user/susan") == "/user/<slug>"
    assert one_template("/user/john/posts", "/user/susan/posts") == "/user/<slug>/posts"
    assert one_template("/followers/john", "/following/john") is None  # the collection differs
    assert one_template("/comments/edit/<n>", "/comments/delete/<n>") is None  # two actions
    assert one_template("/user/john", "/user/john") is None
    assert one_template("/a/b/c", "/a/x/y") is None
    assert one_template("/user/john?tab=a", "/user/susan?tab=b") is None
    assert one_template("/export", "/export?pin=x") == "/export?<v>"  # one handler, other parameters
    assert one_template("/export?pin=x", "/export?pin=x") is None
    # a name that reads as a slug beside one that reads as a word: one variable (issue 25, a hub's
    # `/hub/spawn/<user>` for `alice` and `lena-jansen1`); a number beside a word is not
    assert one_template("/hub/spawn/alice", "/hub/spawn/<slug>") == "/hub/spawn/<slug>"
    assert one_template("/user/<slug>/posts", "/user/susan/posts") == "/user/<slug>/posts"
    assert one_template("/posts/new", "/posts/<n>") is None
    assert one_template("/followers/<slug>", "/following/<slug>") is None


def _crash(path: str, line: str) -> FetchedPage:
    return page(f"<h1>Internal Server Error</h1><pre>Traceback\n{line}</pre>", path, 500)


def test_the_same_exception_on_sibling_routes_is_one_bug_and_another_exception_is_another() -> None:
    [first] = check_server_error(_crash("/user/john", "KeyError: 'location'"))
    [again] = check_server_error(_crash("/user/susan", "KeyError: 'location'"))
    [other] = check_server_error(_crash("/user/susan", "ZeroDivisionError: division by zero"))
    [elsewhere] = check_server_error(_crash("/moderate", "KeyError: 'location'"))
    assert first.fingerprint != again.fingerprint  # alone, each page sees only its own route
    bugs = [open_bug(first)]
    [merged] = same_root_cause([again], bugs)
    assert merged.fingerprint == first.fingerprint and merged.route == "/user/susan"
    assert merged.shape == "/user/<slug>"
    assert same_root_cause([other, elsewhere], bugs) == [other, elsewhere]
    # Both already open as two bugs (a store from before): each stays its own, none is "fixed".
    assert same_root_cause([again], [open_bug(first), open_bug(again)]) == [again]


def test_the_same_exception_under_a_word_and_a_slug_of_one_variable_is_one_bug() -> None:
    # `/spawn/alice` and `/spawn/lena-jansen1`: the second name mixes in a digit, so it reads as a slug
    [first] = check_server_error(_crash("/spawn/alice", "AttributeError: 'NoneType' has no 'isoformat'"))
    [again] = check_server_error(
        _crash("/spawn/lena-jansen1", "AttributeError: 'NoneType' has no 'isoformat'")
    )
    [merged] = same_root_cause([again], [open_bug(first)])
    assert merged.fingerprint == first.fingerprint and merged.route == "/spawn/lena-jansen1"


def test_inspect_page_of_a_clean_blog_finds_nothing() -> None:
    fetch = Fetcher(blog("/", PAGE_ONE, 1, 2))
    assert inspect_page(blog("/?page=2", [(6, "bob", "Rain."), (5, "cy", "Hi.")], 2, 2), fetch) == []
