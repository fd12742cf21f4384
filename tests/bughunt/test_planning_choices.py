"""The planner's choices that save clicks on real applications, on small sites written here: a first
page at a second address (`?page=1`), a page type seen less elsewhere, saturated and broken page
types, the most linked instance of a template, fragments that leave the explorer where it was, a
Back out of a dead end, and templates told by where their links sit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.templates import below_item, saturated_templates, template_function
from bughunt.planning import TEMPLATE_SAMPLE, planner_strategy
from bughunt.sim.memory import Memory
from bughunt.sim.planner import first_page_alias, kind_keys, route_shape
from bughunt.sim.rng import mulberry32
from tests.support.loopback import QuietHandler, serving
from tests.support.walks import planner_walk

SEEDS = range(1000, 1012)


def _choices(planner, cur, links, mem) -> set[str]:
    return {planner(cur, links, mem, mulberry32(s)) for s in SEEDS}


# -- the planner over a link table ------------------------------------------------------------------
def test_a_first_page_number_is_the_page_already_seen():
    assert first_page_alias("/list?page=1", ["/list?page=2"], ["/list"])
    assert first_page_alias("/?own=&page=1", ["/?own=&page=2"], ["/?own"])  # empty value = no value
    assert not first_page_alias("/list?page=2", ["/list?page=2"], ["/list"])
    assert not first_page_alias("/list?page=1", ["/list?page=0"], ["/list"]), "0 is the first page there"
    assert not first_page_alias("/list?page=1", [], ["/other"])
    mem = Memory()
    mem.write("/list", ("/list?page=1", "/list?page=2"))
    assert _choices(planner_strategy, "/list", ("/list?page=1", "/list?page=2"), mem) == {"/list?page=2"}


def test_the_same_parameters_in_another_order_are_the_page_already_seen():
    assert first_page_alias("/m?b=2&a=x", [], ["/m?a=x&b=2"])
    assert not first_page_alias("/m?b=3&a=x", [], ["/m?a=x&b=2"])
    mem = Memory()
    here = ("/m?a=x&b=2", "/m?b=2&a=x", "/other")
    mem.write("/", here)
    mem.write("/m?a=x&b=2", here)
    assert _choices(planner_strategy, "/m?a=x&b=2", here, mem) == {"/other"}


def test_when_every_link_here_is_one_more_instance_it_heads_for_a_page_type_not_seen():
    mem = Memory()
    items = [f"/item/{i}" for i in range(1, 6)]
    mem.write("/", (*items, "/about"))
    for visited in items[:TEMPLATE_SAMPLE]:
        mem.write(visited, ("/", items[TEMPLATE_SAMPLE]))
    # on an item page the only new link is a third item; /about (another page type) is one step away
    assert _choices(planner_strategy, items[0], ("/", items[TEMPLATE_SAMPLE]), mem) == {"/"}
    mem.write("/about", ("/",))
    assert _choices(planner_strategy, items[0], ("/", items[TEMPLATE_SAMPLE]), mem) == {
        items[TEMPLATE_SAMPLE]
    }


def test_a_saturated_page_type_waits_for_the_ones_whose_pages_differ():
    mem = Memory()
    edits, posts = [f"/edit/{i}" for i in range(1, 5)], [f"/post/{i}" for i in range(1, 5)]
    mem.write("/", (*edits, *posts))
    for visited in (*edits[:3], *posts[:3]):
        mem.write(visited, ("/",))
    planner = planner_strategy.with_templates(lambda r: r.rsplit("/", 1)[0] + "/<n>", saturated={"/edit/<n>"})
    assert _choices(planner, "/", ("/edit/4", "/post/4"), mem) == {"/post/4"}


def test_of_one_template_the_most_linked_instance_comes_first():
    mem = Memory()
    people = ("/people/ann", "/people/bob", "/people/cy")
    mem.write("/", people)

    def template(route: str) -> str:
        return "/people/<slug>" if route.startswith("/people/") else route

    plain = planner_strategy.with_templates(template)
    assert len(_choices(plain, "/", people, mem)) > 1, "without link counts: any of them"
    counted = planner_strategy.with_templates(template, popularity={"/people/bob": 3, "/people/ann": 1})
    assert _choices(counted, "/", people, mem) == {"/people/bob"}


def test_a_view_of_this_page_comes_before_a_rarer_link_elsewhere():
    mem = Memory()
    mem.write("/", ("/people/ann", "/post/1"))
    mem.write("/people/ann", ("/", "/people/ann/likes", "/people/ann/followers"))
    here = ("/", "/people/ann", "/people/ann/followers", "/post/9")
    mem.write("/people/ann/likes", here)
    # the followers tab is linked from two pages, /post/9 from this one only: the tab is still first
    assert _choices(planner_strategy, "/people/ann/likes", here, mem) == {"/people/ann/followers"}


def test_a_sub_page_of_a_sampled_type_waits_but_the_next_page_of_a_list_does_not():
    mem = Memory()
    mem.write("/", ("/people/ann", "/people/bob", "/about", "/list"))
    mem.write("/people/ann", ("/", "/people/ann/likes"))
    mem.write("/people/ann/likes", ("/",))
    mem.write("/list", ("/", "/list?page=2"))

    def template(route: str) -> str:
        return route.replace("/ann", "/<slug>").replace("/bob", "/<slug>").split("?")[0]

    planner = planner_strategy.with_templates(template, samples={"/people/<slug>/likes": 1, "/list": 1})
    # bob's likes is one more page of a type seen: /about (not seen) first, by way of the start page
    assert _choices(planner, "/people/bob", ("/", "/people/bob/likes"), mem) == {"/"}
    # the next page of this list, of a type seen too, is taken while here
    assert _choices(planner, "/list", ("/", "/list?page=2"), mem) == {"/list?page=2"}


def test_the_same_action_of_a_third_section_waits_for_the_kinds_of_page_not_seen():
    assert kind_keys("/feedings/add/") == ("/*/add/",)
    assert kind_keys("/a/<n>/edit") == ("/*/<n>/edit",)
    assert kind_keys(route_shape("/tummy-time/add/")) == ("/*/add/",), "a hyphenated section too"
    assert kind_keys("/a/<n>") == () and kind_keys("/feedings/") == (), "a record, a section: no kind"
    mem = Memory()
    sections = ("/feedings/", "/sleep/", "/notes/", "/pumping/")
    forms = tuple(f"{s}add/" for s in sections)
    mem.write("/", (*forms, *sections))
    mem.write(forms[0], ("/",))
    # one form of the kind seen: a second one samples it as a second instance would
    assert forms[1] in _choices(planner_strategy, "/", ("/", *forms[1:], *sections), mem)
    mem.write(forms[1], ("/",))
    # two seen: the other sections' forms wait for the sections' own pages, not yet seen
    assert _choices(planner_strategy, "/", ("/", *forms[2:], *sections), mem) <= set(sections)


def test_an_app_routed_by_its_query_string_alone_has_a_page_type_per_controller_and_action():
    def at(controller: str, action: str, n: int) -> str:
        return f"/?controller={controller}&action={action}&id={n}"

    assert route_shape(at("TaskController", "show", 3)) == "/?action=show&controller=TaskController&id=<n>"
    assert route_shape("/?page=Start") == "/?page=<slug>", "a record's name is a value"
    assert route_shape("/list?action=show") == "/list?action=<slug>", "a path of its own routes by its path"
    mem = Memory()
    tasks = [at("TaskController", "show", n) for n in range(1, 5)]
    comment = at("CommentController", "edit", 1)
    mem.write("/", (*tasks, comment))
    for task in tasks[:TEMPLATE_SAMPLE]:
        mem.write(task, ("/",))
    # two tasks shown: a comment's edit form (another page type at the same address) comes first
    assert _choices(planner_strategy, "/", ("/", *tasks[TEMPLATE_SAMPLE:], comment), mem) == {comment}


def test_an_action_key_on_a_directorys_address_names_its_page_type():
    # a plain PHP admin area served by its directory's index script (`/admin/` routes by `?action=`,
    # as corpus ho10_chyrp's does): its users page is a page type of its own, not a third
    # `?action=<slug>` after the posts and settings pages, waiting behind every post's edit form
    assert route_shape("/admin/?action=manage_users") == "/admin/?action=manage_users"
    assert route_shape("/admin/?action=edit_user&id=3") == "/admin/?action=edit_user&id=<n>"
    # a named script is the page's family: a handler's name is one view of it, a word a page type
    assert (
        route_shape("/search.php?action=show_user_posts&user_id=3") == "/search.php?action=<slug>&user_id=<n>"
    )
    assert route_shape("/search.php?action=recent") == "/search.php?action=recent"
    # a directory's index routes by its query as the root does (`front_controller`): a view key's word
    # is a page type there too, a handler's name only under an action key, any other key a value
    assert route_shape("/i/?c=feed&a=edit") == "/i/?a=edit&c=feed"
    assert route_shape("/items/?colour=red") == "/items/?colour=<slug>", (
        "a key that is no view key is a value"
    )
    assert route_shape("/items/?c=red_blue") == "/items/?c=<slug>", (
        "a handler's name only under an action key"
    )
    assert route_shape("/list?action=show") == "/list?action=<slug>", "a path of its own routes by its path"
    mem = Memory()
    edits = [f"/admin/?action=edit_post&id={n}" for n in range(1, 6)]
    here = ("/admin/?action=settings", *edits, "/admin/?action=manage_users")
    mem.write("/admin/?action=manage", here)
    mem.write("/admin/?action=settings", ("/admin/?action=manage",))
    for edit in edits[:TEMPLATE_SAMPLE]:
        mem.write(edit, ("/admin/?action=manage",))
    assert _choices(planner_strategy, "/admin/?action=manage", here, mem) == {"/admin/?action=manage_users"}


def test_a_version_hash_and_a_range_of_two_are_values_not_page_types():
    # a git-backed wiki's revision and compare pages: one page type each, not one per commit
    assert route_shape("/wiki/Hiring/d94c8a4") == route_shape("/wiki/Hiring/5e8a4e0") == "/wiki/Hiring/<id>"
    assert route_shape("/wiki/Notes/compare/2e09a6f..9b6bc80") == "/wiki/Notes/compare/<id>"
    assert route_shape("/p/facade") == "/p/facade", "a word of hex letters without a digit is a word"


# -- templates ----------------------------------------------------------------------------------------
def test_links_side_by_side_are_one_template_and_their_sub_pages_too():
    t = template_function({}, [["/profile/alice", "/profile/bob"], ["/editor", "/settings"]])
    assert t("/profile/alice") == t("/profile/zed") == "/profile/<slug>"
    assert t("/profile/alice/followers") == t("/profile/bob/followers") == "/profile/<slug>/followers"
    assert t("/editor") == "/editor" and t("/settings") == "/settings", "a nav bar is different page types"
    assert t.listed == {"/profile/<slug>"}
    assert template_function({}, [["/profile/alice"]])("/profile/alice") == "/profile/alice"


def test_a_template_is_saturated_after_three_pages_of_one_structure():
    t = template_function({})
    same = {"/edit/1": "h", "/edit/2": "h", "/edit/3": "h", "/post/1": "a", "/post/2": "b", "/post/3": "c"}
    assert saturated_templates(same, t) == {"/edit/<n>"}
    assert saturated_templates({"/edit/1": "h", "/edit/2": "h"}, t) == frozenset()


# -- sessions on small loopback sites -----------------------------------------------------------------
class _Site(QuietHandler):
    pages: dict[str, tuple[int, str]] = {}

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status, body = type(self).pages.get(self.path, (404, "<html><body>no</body></html>"))
        self.reply(status, body)


class _Redirecting(_Site):
    """`_Site`, where a page of status 302 answers a redirect to its body."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status, body = type(self).pages.get(self.path, (404, "<html><body>no</body></html>"))
        if status != 302:
            self.reply(status, body)
            return
        self.send_response(302)
        self.send_header("Location", body)
        self.send_header("Content-Length", "0")
        self.end_headers()


def _page(*hrefs: str, extra: str = "") -> tuple[int, str]:
    links = "".join(f'<li><a href="{h}">{h}</a></li>' for h in hrefs)
    return 200, f"<html><head><title>t</title></head><body><ul>{links}</ul>{extra}</body></html>"


@contextmanager
def _serving(pages: dict[str, tuple[int, str]]) -> Iterator[str]:
    handler = type("Handler", (_Redirecting,), {"pages": pages})
    with serving(handler) as url:
        yield url + "/"


def _walk(url: str, store_dir: Path, budget: int, seed: int = 1000) -> list[str]:
    return [route for route, _final in planner_walk(url, store_dir, budget, seed)]


def test_a_fragment_leaves_the_explorer_on_the_page_it_was_swapped_into(tmp_path):
    pages = {
        "/": _page("/list"),
        "/list": _page("/x", "/y", "/z", extra='<button hx-get="/frag">more</button>'),
        "/frag": (200, "<div class='more'><p>partial</p></div>"),
        **{f"/{k}": _page("/list") for k in "xyz"},
    }
    checked = 0
    with _serving(pages) as url:
        for seed in range(1000, 1006):
            walk = _walk(url, tmp_path / f"s{seed}", budget=12, seed=seed)
            at = walk.index("/frag")
            if not {"/x", "/y", "/z"} <= set(walk[:at]):
                checked += 1
                assert walk[at + 1] in ("/x", "/y", "/z"), f"straight on to another link of /list: {walk}"
    assert checked, "some walk met the fragment with links of /list left"


def test_a_dead_end_goes_on_to_the_links_of_the_page_before_when_it_has_more(tmp_path):
    pages = {
        "/": _page("/p"),
        "/p": _page("/p/boom", "/p/x", "/p/y"),
        "/p/boom": (500, "<html><body><h1>Server Error</h1><a href='#'>top</a></body></html>"),
        "/p/x": _page("/"),
        "/p/y": _page("/"),
    }
    checked = 0
    with _serving(pages) as url:
        for seed in range(1000, 1010):
            walk = _walk(url, tmp_path / f"s{seed}", budget=10, seed=seed)
            at = walk.index("/p/boom")
            if not {"/p/x", "/p/y"} <= set(walk[:at]):
                checked += 1
                # Back to /p, whose links memory holds, and on: straight to its next link, not by
                # the start page and without reloading /p.
                assert walk[at + 1] in ("/p/x", "/p/y"), f"on to the page before's links: {walk}"
    assert checked, "some walk met the dead end with links of /p left"


def test_a_page_type_that_answers_500_is_not_sampled_again_before_the_others(tmp_path):
    users = [f"/u/{i}" for i in range(1, 4)]
    pages = {"/": _page(*users)}
    for u in users:
        pages[u] = _page("/", f"{u}/fav", f"{u}/info")
        pages[f"{u}/fav"] = (500, "<html><body><h1>Server Error</h1></body></html>")
        pages[f"{u}/info"] = _page("/", u)
    with _serving(pages) as url:
        for seed in range(1000, 1004):
            walk = _walk(url, tmp_path / f"s{seed}", budget=20, seed=seed)
            favs = [i for i, r in enumerate(walk) if r.endswith("/fav")]
            infos = [i for i, r in enumerate(walk) if r.endswith("/info")]
            assert len(infos) == 3 and (len(favs) == 1 or favs[1] > max(infos)), walk


def test_a_link_that_redirected_onto_a_page_seen_is_not_followed_again_before_new_pages(tmp_path):
    # Each item's "go" link does something and sends the browser back to the list: a click onto a
    # page already visited, and so is every other item's.
    items = [f"/item/{i}" for i in range(1, 6)]
    pages = {"/": _page(*items, "/about", "/help")}
    for item, tag in zip(items, ("p", "table", "form", "section", "nav"), strict=True):
        # the items' data differs (so does their markup): their pages are worth visiting
        pages[item] = _page("/", f"{item}/go", f"{item}/notes", extra=f"<{tag}>x</{tag}>")
        pages[f"{item}/go"] = (302, "/")
        pages[f"{item}/notes"] = _page(item, extra=f"<{tag}>x</{tag}>")
    pages["/about"] = pages["/help"] = _page("/")
    with _serving(pages) as url:
        for seed in range(1000, 1004):
            walk = _walk(url, tmp_path / f"s{seed}", budget=16, seed=seed)
            goes = [i for i, r in enumerate(walk) if r.endswith("/go")]
            new = [i for i, r in enumerate(walk) if not r.endswith("/go") and r not in walk[:i]]
            assert len(goes) == 1 or goes[1] > new[-1], f"a second bounce before the pages not seen: {walk}"


def test_a_root_that_redirects_to_the_home_page_is_gone_past_not_clicked_again(tmp_path):
    # Every page's logo links the root, which answers with a redirect to the home page: a trip back
    # by the logo is the home page again, a repeat click; the links memory holds for it are enough.
    sections = ("/a", "/b", "/c", "/d")
    pages = {"/": (302, "/home"), "/home": _page(*sections)}
    for s in sections:
        pages[s] = _page("/", f"{s}/x")
        pages[f"{s}/x"] = _page("/")
    with _serving(pages) as url:
        for seed in range(1000, 1004):
            walk = _walk(url, tmp_path / f"s{seed}", budget=10, seed=seed)
            assert walk.count("/") == 1 and len(walk) == len(set(walk)), walk


def test_the_busiest_author_is_visited_first(tmp_path):
    previews = "".join(
        f'<div class="preview"><a class="author" href="/people/{who}">{who}</a><a href="/post/{n}">post</a></div>'
        for n, who in enumerate(["cy", "ann", "bob", "ann", "ann"])
    )
    pages = {
        "/": (200, f"<html><body><main>{previews}</main></body></html>"),
        **{f"/people/{who}": _page("/") for who in ("ann", "bob", "cy")},
        **{f"/post/{n}": _page("/") for n in range(5)},
    }
    with _serving(pages) as url:
        for seed in range(1000, 1006):
            walk = _walk(url, tmp_path / f"s{seed}", budget=10, seed=seed)
            assert [r for r in walk if r.startswith("/people/")][0] == "/people/ann", walk


def test_a_pages_list_items_come_before_its_navigation(tmp_path):
    # The navigation is on every page and can wait; the items are this page's own data.
    nav = '<nav><a href="/about">About</a><a href="/help">Help</a><a href="/login">Log in</a></nav>'
    previews = "".join(
        f'<div class="preview"><a href="/people/{who}">{who}</a><a href="/post/{n}">post {n}</a></div>'
        for n, who in enumerate(["ann", "bob", "cy"])
    )
    pages = {
        "/": (200, f"<html><body>{nav}<main>{previews}</main></body></html>"),
        **{r: (200, f"<html><body>{nav}<p>{r}</p></body></html>") for r in ("/about", "/help", "/login")},
        **{f"/people/{who}": _page("/") for who in ("ann", "bob", "cy")},
        **{f"/post/{n}": _page("/") for n in range(3)},
    }
    with _serving(pages) as url:
        for seed in range(1000, 1008):
            walk = _walk(url, tmp_path / f"s{seed}", budget=1, seed=seed)
            assert walk[1].startswith(("/people/", "/post/")), walk


def test_one_items_sub_page_covers_that_view_of_every_item(tmp_path):
    # /people/<slug>/likes is one page type per person: after one person's likes the others' wait
    # until the other page types (the posts, two of them) are sampled.
    people = ("ann", "bob", "cy")
    previews = "".join(
        f'<div class="preview"><a href="/people/{who}">{who}</a><a href="/post/{n}">post {n}</a></div>'
        for n, who in enumerate(people)
    )
    pages = {
        "/": (200, f"<html><body><main>{previews}</main></body></html>"),
        **{f"/people/{who}": _page("/", f"/people/{who}/likes") for who in people},
        **{f"/people/{who}/likes": _page("/") for who in people},
        **{f"/post/{n}": _page("/") for n in range(3)},
    }
    assert below_item("/people/<slug>/likes", "/people/<slug>")
    assert below_item("/people/<n>/?tab=likes", "/people/<n>/")
    assert not below_item("/people/<slug>", "/people/<slug>") and not below_item("/peoples", "/people/<slug>")
    with _serving(pages) as url:
        for seed in range(1000, 1006):
            walk = _walk(url, tmp_path / f"s{seed}", budget=14, seed=seed)
            likes = [i for i, r in enumerate(walk) if r.endswith("/likes")]
            posts = [i for i, r in enumerate(walk) if r.startswith("/post/")]
            assert len(posts) >= 2 and (len(likes) < 2 or likes[1] > posts[1]), walk


def _people_site() -> dict[str, tuple[int, str]]:
    """Previews of posts by ann, bob, cy and me; a person's page shows their posts (me has one: not a
    list) and a link to their likes. Only `me` (the account logged in) has a settings button."""
    people = ("ann", "bob", "cy", "me")
    posts = [f"/post/{who}-{i}" for who in people for i in range(1 if who == "me" else 2)]
    previews = "".join(
        f'<div class="preview"><a href="/people/{p[6:].split("-")[0]}">by</a><a href="{p}">post</a></div>'
        for p in posts
    )
    pages = {"/": (200, f"<html><body><main>{previews}</main></body></html>")}
    for who in people:
        mine = "".join(
            f'<div class="preview"><a href="{p}">post</a><p>a summary</p></div>'
            for p in posts
            if f"/{who}-" in p
        )
        extra = '<form><button type="button">Edit your settings</button></form>' if who == "me" else ""
        likes = f"<a href='/people/{who}/likes'>likes</a>"
        pages[f"/people/{who}"] = (
            200, f"<html><body><header><a href='/'>home</a>{extra}</header><main>{mine}</main>{likes}</body></html>"
        )  # fmt: skip
        pages[f"/people/{who}/likes"] = _page("/")
    pages.update((p, _page("/")) for p in posts)
    return pages


class _Recording:
    """The planner, keeping every decision it was asked to make."""

    name, uses_model, reads_templates = "planner", False, True

    def __init__(self, inner) -> None:
        self.inner, self.decisions = inner, []

    def choose(self, decision):
        self.decisions.append(decision)
        return self.inner.choose(decision)

    def archive(self, site_map, bug_lines) -> None:
        pass


def test_the_items_of_a_page_that_breaks_its_templates_structure_are_its_variants(tmp_path):
    # /people/me differs from the other people's pages (a settings button): its own link to a page
    # type already loaded (its post: no other person's page links there) is its variant until it is
    # opened — not its likes (a sub-page of its own) nor home (every person's page links there); the
    # pages that share the structure have none.
    store = ExplorerStore(tmp_path / "s")
    with _serving(_people_site()) as url, make_policy("planner", store=store) as inner:
        policy = _Recording(inner)
        fetcher = HttpEngine(url, timeout=2.0, respect_robots=False)
        Explorer(store, fetcher, policy, SessionConfig(budget=24, retries=0)).run()
    store.close()
    people = [d.position for d in policy.decisions if d.position.count("/") == 2 and "/people/" in d.position]
    at: dict[str, object] = {}
    for d in policy.decisions:  # the first decision at a page is made standing there (later ones may
        if d.position in people:  # be the chooser asking what the plan does past it: `past_hubs`)
            at.setdefault(d.position, d)
    assert set(at) == {"/people/ann", "/people/bob", "/people/cy", "/people/me"}, people
    assert people.index("/people/me") >= 2, people  # two pages of the shared structure seen first
    assert at["/people/me"].planner.variants == {"/post/me-0"}
    assert all(not at[p].planner.variants for p in ("/people/ann", "/people/bob", "/people/cy"))


def test_a_variant_item_is_wanted_like_an_instance_of_an_unsampled_template():
    mem = Memory()
    posts = [f"/post/{i}" for i in range(1, 6)]
    mem.write("/", (*posts[:3], "/people/me", "/about"))
    for visited in posts[:3]:
        mem.write(visited, ("/",))
    mem.write("/people/me", ("/", *posts[3:]))
    planner = planner_strategy.with_templates(lambda r: r.rsplit("/", 1)[0] + "/<n>")
    # the posts are sampled, /about (a type not seen) is one step away: go there ...
    assert _choices(planner, "/people/me", ("/", *posts[3:]), mem) == {"/"}
    # ... unless this page's posts are its variants
    with_variants = planner_strategy.with_templates(
        lambda r: r.rsplit("/", 1)[0] + "/<n>", variants=posts[3:]
    )
    assert _choices(with_variants, "/people/me", ("/", *posts[3:]), mem) <= set(posts[3:])


def test_only_the_choice_made_standing_on_a_page_weighs_the_working_context(tmp_path):
    # After each step the chooser asks the policy standing on the page (its tokens are what the
    # step reports), then, past a remembered hub, what it would choose further on (`past_hubs`):
    # those look-aheads drop their tokens, so no working context is weighed for them.
    store = ExplorerStore(tmp_path / "s")
    per_step: list[list[int]] = [[]]
    with _serving(_people_site()) as url, make_policy("planner", store=store) as inner:
        policy = _Recording(inner)
        fetcher = HttpEngine(url, timeout=2.0, respect_robots=False)

        def stepped(_outcome) -> None:
            per_step[-1] = [d.context_tokens for d in policy.decisions]
            policy.decisions = []
            per_step.append([])

        Explorer(store, fetcher, policy, SessionConfig(budget=24, retries=0), on_step=stepped).run()
    store.close()
    choices = [tokens for tokens in per_step if tokens]
    assert all(tokens[0] > 0 for tokens in choices), choices
    assert all(t == 0 for tokens in choices for t in tokens[1:]), choices
    assert any(len(tokens) > 1 for tokens in choices), choices  # the walk went past hubs
