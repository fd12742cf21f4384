"""Past a redirecting hub (`/` answering with the home page at `/home`), when the plan's look-ahead
reaches no unvisited link, the chooser opens an unvisited link of the page the hub *landed on*
rather than reload the hub (`Chooser.past_hubs`, session 24 `eaa0efc`: an admin's script pager drew
the look-ahead round its pages, 13 list reloads). Without that change only the landed page's click
states were looked at, and with none the hub was reloaded.
The site is a tiny one of our own, on loopback."""

from __future__ import annotations

from bughunt.explorer.choose import Chooser, Whereabouts
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.hints import SessionHints
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.policies import Choice as PolicyChoice
from bughunt.explorer.policies import Decision
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.views import ContextIndex, build_view
from bughunt.sim.rng import mulberry32
from tests.support.loopback import QuietHandler, serving


class _PlanGoesRound:
    """A policy whose look-ahead reaches nothing it would open (a plan that went round pages already
    seen, as a script pager's look-ahead did): the chooser's own fallback decides."""

    name = "round"
    uses_model = False
    reads_templates = False

    def choose(self, decision: Decision) -> PolicyChoice:
        return PolicyChoice(None)

    def archive(self, site_map: str, bug_lines: list[str]) -> None:
        pass


class _Hub(QuietHandler):
    """`/` redirects to `/home`, which links to three sections; each section links back home."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/":
            self.send_response(302)
            self.send_header("Location", "/home")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        sections = ("/a", "/b", "/c")
        if self.path == "/home":
            links = " ".join(f'<a href="{s}">{s}</a>' for s in sections)
            return self.reply(200, f"<html><body><h1>Home</h1>{links}</body></html>")
        if self.path in sections:
            return self.reply(200, f'<html><body><h1>{self.path}</h1><a href="/">home</a></body></html>')
        return self.reply(404, "<html><body>no</body></html>")


def test_past_a_redirecting_hub_its_landed_pages_unvisited_link_is_opened(tmp_path):
    with serving(_Hub) as url:
        store = ExplorerStore(tmp_path / "s")
        engine = HttpEngine(url + "/", timeout=5, respect_robots=False)
        try:
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=1, retries=0)).run()
            graph = ExplorationGraph(store)
            position = store.history.last_step().route
            assert graph.landing("/") == "/home" and position in ("/a", "/b", "/c")
            left = {"/a", "/b", "/c"} - {position}
            assert not any(graph.is_visited(r) for r in left)
            config = SessionConfig(budget=10)
            view = build_view(store, config.memory, mulberry32(1))
            context = ContextIndex(store, config.memory, lambda _: 0)
            chooser = Chooser(graph, engine, _PlanGoesRound(), config, SessionHints(), view, context)
            # The policy heads back to `/` (a section's only link): the hub is gone past as the page
            # it lands on, and that page's own unvisited section is opened as its link — not `/`
            # reloaded (a click that answers /home again, a repeat) to be asked again there.
            target, via = chooser.past_hubs(position, "/", 1, Whereabouts(), lambda route, page: False)
            assert (target in left, via) == (True, "/home")
        finally:
            engine.close()
            store.close()
