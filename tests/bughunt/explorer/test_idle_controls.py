"""Clicks that learn, over HTTP on loopback sites: a GET that toggles state is clicked once for its whole
shape and reported as an unsafe GET where its effect shows; a redirect back to the page teaches the
same; a hub whose links memory holds is not reloaded between two dead ends; `data-href` controls lead
to their target; `repeat_clicks` counts the clicks that found nothing new."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bughunt.cli import main
from bughunt.explorer.choose import Chooser, Whereabouts
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.hints import SessionHints
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.idle_controls import control_shape, placed_shape
from bughunt.explorer.loop import Explorer
from bughunt.explorer.policies import Choice as PolicyChoice
from bughunt.explorer.policies import Decision
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import ExplorationSummary
from bughunt.explorer.views import ContextIndex, build_view
from bughunt.sim.rng import mulberry32
from tests.support.loopback import QuietHandler, serving


def _html(body: str) -> str:
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


class _Social(QuietHandler):
    """Three profiles, each with a follower count and a Follow link that a plain GET toggles."""

    followed: set[str]
    followers: dict[str, int]
    requests: list[str]
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        cls = type(self)
        with cls.lock:
            cls.requests.append(self.path)
        names = ("ann", "bob", "cy")
        if self.path == "/":
            links = "".join(f'<li><a href="/people/{n}">{n}</a></li>' for n in names)
            return self.reply(200, _html(f'<nav><a href="/">home</a></nav><ul>{links}</ul>'))
        m = re.fullmatch(r"/people/(\w+)(/(follow|unfollow))?", self.path)
        if not m or m.group(1) not in names:
            return self.reply(404, _html("<p>no</p>"))
        name, verb = m.group(1), m.group(3)
        if verb is not None:
            with cls.lock:
                if verb == "follow" and name not in cls.followed:
                    cls.followed.add(name)
                    cls.followers[name] += 1
                elif verb == "unfollow" and name in cls.followed:
                    cls.followed.discard(name)
                    cls.followers[name] -= 1
            self.send_response(302)
            self.send_header("Location", f"/people/{name}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        toggle = (
            f'<a href="/people/{name}/unfollow">Unfollow</a>'
            if name in cls.followed
            else f'<a href="/people/{name}/follow">Follow</a>'
        )
        body = (
            f'<nav><a href="/">home</a></nav><h1>{name}</h1><p>Followers: {cls.followers[name]}</p>{toggle}'
        )
        return self.reply(200, _html(body))


@contextmanager
def _social() -> Iterator[tuple[str, type[_Social]]]:
    handler = type(
        "Social",
        (_Social,),
        {"followed": set(), "followers": {"ann": 3, "bob": 5, "cy": 0}, "requests": []},
    )
    with serving(handler) as url:
        yield url + "/", handler


def _explore(url: str, store_dir: Path, budget: int) -> ExplorerStore:
    store = ExplorerStore(store_dir)
    fetcher = HttpEngine(url, timeout=2.0, respect_robots=False)
    with make_policy("planner", store=store) as policy:
        Explorer(store, fetcher, policy, SessionConfig(budget=budget, retries=0)).run()
    return store


def test_a_get_that_toggles_state_is_clicked_once_per_shape_and_reported_as_unsafe(tmp_path):
    with _social() as (url, site):
        store = _explore(url, tmp_path / "s", budget=20)
        try:
            toggles = [p for p in site.requests if p.endswith(("/follow", "/unfollow"))]
            # One click shows what the control does; its counterpart and the other profiles' are skipped
            # by the walk. The one other toggle request is the oracle's: the undo it opens to see the
            # effect twice (`seen_twice`), which leaves the profile as it was.
            assert len(toggles) == 2 and toggles[1] == toggles[0].replace("/follow", "/unfollow"), (
                site.requests
            )
            bugs = [b for b in store.bug_table.live() if b.kind == "unsafe_get"]
            assert [b.route for b in bugs] == toggles[:1]
            assert not site.followed
            evidence = json.loads(bugs[0].evidence)
            assert evidence["request"] == f"GET {toggles[0]}"
            learned = ExplorationGraph(store).idle_controls()
            assert learned == {
                "get /people/<v>/follow": "round_trip",
                "get /people/<v>/unfollow": "round_trip",
            }
            # Every profile was still visited: only the toggles were left out.
            assert {"/people/ann", "/people/bob", "/people/cy"} <= set(store.visits.explored())
        finally:
            store.close()


def test_a_redirect_back_with_no_visible_effect_is_learned_but_no_bug(tmp_path):
    class Prefs(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802
            if self.path.startswith("/prefs?"):
                self.send_response(303)
                self.send_header("Location", "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            pages = {
                "/": '<a href="/prefs?theme=dark">dark</a> <a href="/prefs?theme=light">light</a>'
                ' <a href="/about">about</a>',
                "/about": '<a href="/">home</a>',
            }
            self.reply(200, _html(pages.get(self.path, "no")))

    with serving(Prefs) as url:
        store = _explore(url + "/", tmp_path / "s", budget=10)
        try:
            steps = [s.route for s in store.history.steps()]
            assert sum(r.startswith("/prefs") for r in steps) == 1, steps
            assert not store.bug_table.live()
            summary = ExplorationSummary.of(store)
            # The redirect landed on the start page again and found nothing: one repeat click.
            assert summary.repeat_clicks == 1 and summary.stop_reason == "done"
            assert summary.as_json()["repeat_clicks"] == 1
            assert "repeat clicks: 1" in "\n".join(summary.lines())
        finally:
            store.close()


def test_a_link_to_the_view_shown_teaches_nothing_of_the_other_views_links(tmp_path):
    """A sidebar's link to the list shown (`?kind=a`, completed by the site to `?kind=a&sort=name`)
    lands where it was clicked, as a toggle's redirect does; its shape (`?kind=<v>`) is the other
    lists' links too, and each of them is a list of its own."""

    class Lists(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802
            m = re.fullmatch(r"/list\?kind=(\w)", self.path)
            if self.path == "/" or m:
                self.send_response(302)
                self.send_header("Location", f"/list?kind={m.group(1) if m else 'a'}&sort=name")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            m = re.fullmatch(r"/list\?kind=(\w)&sort=name", self.path)
            if m and m.group(1) in "abc":
                nav = "".join(f'<li><a href="/list?kind={k}">{k}</a></li>' for k in "abc")
                rows = "".join(f"<li>{m.group(1)} item {i}</li>" for i in range(3))
                return self.reply(200, _html(f"<nav><ul>{nav}</ul></nav><ul>{rows}</ul>"))
            self.reply(404, _html("no"))

    with serving(Lists) as url:
        store = _explore(url + "/", tmp_path / "s", budget=10)
        try:
            explored = set(store.visits.explored())
            assert {f"/list?kind={k}&sort=name" for k in "abc"} <= explored, explored
            assert "get /list?kind=<v>" not in ExplorationGraph(store).idle_controls()
        finally:
            store.close()


def test_dead_ends_of_one_hub_are_visited_without_reloading_the_hub(tmp_path):
    class Hub(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802
            leaves = [f"/leaf/{i}" for i in range(1, 5)]
            if self.path == "/":
                self.reply(200, _html("".join(f'<p><a href="{r}">{r}</a></p>' for r in leaves)))
            elif self.path in leaves:
                self.reply(200, _html('<a href="/">home</a><p>a leaf</p>'))
            else:
                self.reply(404, _html("no"))

    with serving(Hub) as url:
        store = _explore(url + "/", tmp_path / "s", budget=10)
        try:
            steps = [s.route for s in store.history.steps()]
            assert steps[0] == "/" and sorted(steps[1:]) == [f"/leaf/{i}" for i in range(1, 5)], steps
            summary = ExplorationSummary.of(store)
            assert summary.clicks == 4 and summary.repeat_clicks == 0 and summary.repeat_visits == 0
        finally:
            store.close()


def test_the_http_engine_follows_a_data_href_control_to_its_target(tmp_path):
    class Buttons(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802
            pages = {
                "/": '<button data-href="/orders">Orders</button>'
                "<span onclick=\"location.href='/help'\">Help</span>",
                "/orders": "<p>orders</p>",
                "/help": "<p>help</p>",
            }
            self.reply(200 if self.path in pages else 404, _html(pages.get(self.path, "no")))

    with serving(Buttons) as url:
        store = _explore(url + "/", tmp_path / "s", budget=5)
        try:
            assert set(store.visits.explored()) == {"/", "/orders", "/help"}
            assert not any("#click-" in s.route for s in store.history.steps())
        finally:
            store.close()


def test_control_shapes():
    # A GET's shape keeps the words its page's route does not carry; a click's drops positions.
    assert control_shape("/people/ann/follow", "/people/ann") == "get /people/<v>/follow"
    assert control_shape("/people/ann/follow", "/") == "get /people/ann/follow"
    assert control_shape("/item/7?like=1", "/item/7") == "get /item/<n>?like=<v>"
    assert control_shape("/#/items/7", "/") == "get /#/items/<n>"
    assert (
        control_shape("/p#click-abc", "/p", "nav > li:nth-of-type(3) > a.toggle")
        == "click nav > li > a.toggle"
    )
    # An id holding a digit names a record (a table row): every row's button is one shape (its
    # column kept: another column's button is another control).
    row = "#tr-6d1a77e2-5e89 > td:nth-of-type(5) > button:nth-of-type(1)"
    assert control_shape("/p#click-abc", "/p", row) == "click #<id> > td:nth-of-type(5) > button"
    # A lesson that the control cannot be clicked is kept for its place (a disabled "Previous").
    assert placed_shape(row) == "click@ #<id> > td:nth-of-type(5) > button:nth-of-type(1)"
    assert control_shape("/p#click-abc", "/p", "#tab-users > a") == "click #tab-users > a"


def test_explore_json_has_repeat_clicks(tmp_path, capsys):
    store = tmp_path / "store"
    assert main(["explore", "--builtin-site", "--store", str(store), "--budget", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["repeat_clicks"] == 0 and data["repeat_visits"] == 0 and data["clicks"] == 5


def test_a_verb_named_get_that_re_renders_its_page_is_learned_but_a_verb_named_page_is_not(tmp_path):
    class Videos(QuietHandler):
        requests: list[str] = []

        def do_GET(self) -> None:  # noqa: N802
            type(self).requests.append(self.path)
            item = re.fullmatch(r"/items/(\d)(/like)?", self.path)
            if self.path == "/":
                links = "".join(f'<li><a href="/items/{i}">item {i}</a></li>' for i in (1, 2, 3))
                videos = "".join(f'<li><a href="/watch?v={i}">video {i}</a></li>' for i in (1, 2, 3))
                self.reply(200, _html(f"<ul>{links}</ul><ol>{videos}</ol>"))
            elif item:
                # The like is counted and the item page rendered at the like's address (no redirect).
                body = f'<a href="/">home</a><h1>Item {item.group(1)}</h1><a href="/items/{item.group(1)}/like">Like</a>'
                self.reply(200, _html(body))
            elif self.path.startswith("/watch?v="):
                self.reply(200, _html('<a href="/">home</a><video src="/v.mp4"></video><p>a video</p>'))
            else:
                self.reply(404, _html("no"))

    with serving(Videos) as url:
        store = _explore(url + "/", tmp_path / "s", budget=20)
        try:
            likes = [p for p in Videos.requests if p.endswith("/like")]
            assert len(likes) == 1, Videos.requests
            assert ExplorationGraph(store).idle_controls() == {"get /items/<n>/like": "state_change"}
            assert {"/watch?v=1", "/watch?v=2", "/watch?v=3"} <= set(store.visits.explored())
        finally:
            store.close()


def test_a_query_toggle_answered_in_place_is_learned_and_reported_as_unsafe(tmp_path):
    class Likes(QuietHandler):
        requests: list[str] = []
        likes = {"1": 4, "2": 0, "3": 9}
        liked: set[str] = set()

        def do_GET(self) -> None:  # noqa: N802
            cls = type(self)
            cls.requests.append(self.path)
            item = re.fullmatch(r"/item/(\d)(\?like=([01]))?", self.path)
            if self.path == "/":
                links = "".join(f'<li><a href="/item/{i}">item {i}</a></li>' for i in cls.likes)
                return self.reply(200, _html(f"<ul>{links}</ul>"))
            if not item or item.group(1) not in cls.likes:
                return self.reply(404, _html("no"))
            n, flip = item.group(1), item.group(3)
            if flip == "1" and n not in cls.liked:
                cls.liked.add(n)
                cls.likes[n] += 1
            elif flip == "0" and n in cls.liked:
                cls.liked.discard(n)
                cls.likes[n] -= 1
            control = (
                f'<a href="/item/{n}?like=0">Unlike</a>'
                if n in cls.liked
                else f'<a href="/item/{n}?like=1">Like</a>'
            )
            body = f'<a href="/">home</a><h1>Item {n}</h1><p>Liked by {cls.likes[n]}</p>{control}'
            self.reply(200, _html(body))

    with serving(Likes) as url:
        store = _explore(url + "/", tmp_path / "s", budget=20)
        try:
            flips = [p for p in Likes.requests if "like=" in p]
            # the walk's one click, and the undo the oracle opens to see the effect twice (`seen_twice`)
            assert len(flips) == 2 and flips[1] == flips[0].replace("like=1", "like=0"), Likes.requests
            assert not Likes.liked
            assert ExplorationGraph(store).idle_controls() == {"get /item/<n>?like=<v>": "toggle"}
            bugs = [(b.kind, b.route) for b in store.bug_table.live()]
            assert bugs == [("unsafe_get", flips[0])]
            assert {"/item/1", "/item/2", "/item/3"} <= set(store.visits.explored())
        finally:
            store.close()


class _LostPolicy:
    """A policy that sees nothing left (its view may be smaller than memory): the chooser travels."""

    name = "lost"
    uses_model = False
    reads_templates = False

    def choose(self, decision: Decision) -> PolicyChoice:
        return PolicyChoice(None)

    def archive(self, site_map: str, bug_lines: list[str]) -> None:
        pass


def test_travel_opens_a_goal_past_explored_hubs_instead_of_reloading_them(tmp_path):
    class Hub(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            items = "".join(f'<a href="/x{n}">x{n}</a> ' for n in range(1, 5))
            bodies = {"/": '<a href="/hub">hub</a>', "/hub": items}
            bodies.update({f"/x{n}": '<a href="/">home</a>' for n in range(1, 5)})
            if self.path not in bodies:
                return self.reply(404, _html("<p>no</p>"))
            return self.reply(200, _html(f"<h1>{self.path}</h1>{bodies[self.path]}"))

    with serving(Hub) as url:
        store = ExplorerStore(tmp_path / "s")
        engine = HttpEngine(url + "/", timeout=5, respect_robots=False)
        try:
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=2, retries=0)).run()
            graph = ExplorationGraph(store)
            position = store.history.last_step().route
            assert position.startswith("/x") and {"/", "/hub"} <= set(graph.explored())
            config = SessionConfig(budget=10)
            view = build_view(store, config.memory, mulberry32(1))
            context = ContextIndex(store, config.memory, lambda _: 0)
            chooser = Chooser(graph, engine, _LostPolicy(), config, SessionHints(), view, context)
            choice = chooser.choose(position, 2, Whereabouts())
            # The way is /x1 -> / -> /hub -> /x2: both pages on it are remembered, so /x2 is opened
            # as a link of /hub, not / reloaded (then /hub) to get there.
            assert choice.via == "/hub" and choice.target is not None and choice.target.startswith("/x")
            assert choice.target != position
        finally:
            engine.close()
            store.close()


def test_a_toggle_opened_by_a_jump_past_a_hub_is_judged_against_the_page_that_offered_it(tmp_path):
    """A jump (`Choice.via`) opens a link of a remembered page while the explorer stands elsewhere:
    when the GET redirects back to that page, the page as the session loaded it is the page before."""
    with _social() as (url, site):
        store = ExplorerStore(tmp_path / "s")
        engine = HttpEngine(url, timeout=2.0, respect_robots=False)
        try:
            with make_policy("planner", store=store) as policy:
                explorer = Explorer(store, engine, policy, SessionConfig(budget=0, retries=0))
                session = explorer.run().session_id
                # the explorer stands on / ; /people/bob is remembered (loaded), its Follow link known
                explorer._step(session, "/people/bob", "/", click=False)
                explorer._step(session, "/", "/people/bob", click=False)
                explorer._step(session, "/people/bob/follow", "/", via="/people/bob")
            # followed by the jump, unfollowed by the undo that confirms the effect (`seen_twice`)
            assert site.followers["bob"] == 5 and site.requests.count("/people/bob/unfollow") == 1
            bugs = [(b.kind, b.route) for b in store.bug_table.live()]
            assert bugs == [("unsafe_get", "/people/bob/follow")]
        finally:
            engine.close()
            store.close()
