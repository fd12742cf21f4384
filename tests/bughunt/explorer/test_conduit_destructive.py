"""`--allow-destructive` on `explore`/`resume`, on the conduit-htmx site (its comment delete is a plain
GET that deletes and redirects back): off by default (suspected, never opened, the comment stays);
on, it is opened and confirmed by its effect (the comment is gone), and JSON, text and report say so;
resume does not take it over."""

from __future__ import annotations

import pytest

from bughunt.cli import main
from bughunt.explorer import destructive_mode
from bughunt.webapp.conduit import DEMO_PASSWORD, DEMO_USER, running_conduit
from tests.support.conduit_client import Client

ARTICLE = "/article/property-based-testing-v5w3"
DELETE = ARTICLE + "/comments/4/delete"
COMMENT = "Great intro, thanks."


@pytest.fixture
def site(monkeypatch):
    monkeypatch.setenv("BH_CONDUIT_PASSWORD", DEMO_PASSWORD)
    with running_conduit() as base:
        yield base


def _explore(site: str, store, *extra: str, command: str = "explore") -> list[str]:
    # Start on the article that lists the comment: the landing (budget 0) inspects it.
    login = ["--login-url", "/login", "--username", DEMO_USER, "--password-env", "BH_CONDUIT_PASSWORD"]
    return [command, "--url", site + ARTICLE, "--store", str(store), "--budget", "0", *login, *extra]


def _comment_exists(site: str) -> bool:
    client = Client(site)
    client.login(DEMO_USER, DEMO_PASSWORD)
    return COMMENT in client.fetch(site + ARTICLE).body


def _destructive(data: dict) -> list[dict]:
    return [b for b in data["bugs"] if b["kind"] == "unconfirmed_destructive"]


def test_without_the_flag_the_delete_is_suspected_and_never_opened(site, tmp_path, cli_json, capsys):
    data = cli_json(*_explore(site, tmp_path / "s", "--json"))
    assert [(b["route"], b["suspected"]) for b in _destructive(data)] == [(DELETE, True)]
    assert data["allow_destructive"] is False and data["destructive_sessions"] == []
    assert data["destructive_actions"].startswith("destructive actions were not opened")
    assert _comment_exists(site)
    assert main(["report", "--store", str(tmp_path / "s"), "--out", str(tmp_path / "r.html")]) == 0
    assert "Destructive actions were not opened" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_with_the_flag_it_is_opened_and_confirmed_by_its_effect(site, tmp_path, cli_json, capsys):
    store = tmp_path / "s"
    data = cli_json(*_explore(site, store, "--allow-destructive", "--json"))
    # Judged on the request (the delete route), not on the article the redirect lands on.
    assert [(b["route"], b["suspected"]) for b in _destructive(data)] == [(DELETE, False)]
    assert data["allow_destructive"] is True
    assert data["destructive_actions"] == "destructive actions were opened: disposable environment"
    assert data["destructive_sessions"] == [data["session"]]
    assert not _comment_exists(site)

    out = tmp_path / "r.html"
    assert main(["report", "--store", str(store), "--out", str(out)]) == 0
    capsys.readouterr()
    html = out.read_text(encoding="utf-8")
    assert "Destructive actions were opened: disposable environment" in html
    assert "gone from the page that listed it" in html  # the effect that confirmed it

    # Not a default for resume: without the flag again this session opens nothing.
    again = cli_json(*_explore(site, store, "--json", command="resume"))
    assert again["allow_destructive"] is False and again["destructive_sessions"] == [data["session"]]


def test_the_text_output_says_it_opened_destructive_actions(site, tmp_path, capsys):
    assert main(_explore(site, tmp_path / "s", "--allow-destructive")) == 0
    out = capsys.readouterr().out
    assert "destructive actions were opened: disposable environment (--allow-destructive)" in out
    assert main(_explore(site, tmp_path / "t")) == 0  # the comment is gone: nothing left to suspect
    assert "destructive actions were opened" not in capsys.readouterr().out


def _stale_list_site():
    """A list that keeps showing a deleted item's links (a stale cache); only the item's own page
    tells: it answers 404 once the plain-GET delete ran."""
    from bughunt.webapp.pages import Response
    from bughunt.webapp.server import SiteServer

    state = {"deleted": False}
    html = [("Content-Type", "text/html; charset=utf-8")]

    def app(request):
        path = request.target.split("?")[0]
        if path == "/":
            body = '<h1>Items</h1><ul><li><a href="/items/7">Item 7</a> <a href="/items/7/delete">Delete</a></li></ul>'
            return Response(200, f"<html><body>{body}</body></html>", tuple(html))
        if path == "/items/7":
            if state["deleted"]:
                return Response(404, "<html><body><h1>Not found</h1></body></html>", tuple(html))
            return Response(200, '<html><body><h1>Item 7</h1><a href="/">Back</a></body></html>', tuple(html))
        if path == "/items/7/delete":
            state["deleted"] = True
            return Response(302, "", (("Location", "/"),))
        return Response(404, "not found", (("Content-Type", "text/plain"),))

    return SiteServer(("127.0.0.1", 0), app), state


@pytest.mark.parametrize("allow", [False, True])
def test_the_session_confirms_by_the_resource_answering_404_when_the_list_is_stale(tmp_path, allow):
    """The item's page is fetched before and *again* after the delete within one step: the second
    fetch must be a fresh request, or the effect (200 -> 404) is never seen."""
    from bughunt.explorer.config import SessionConfig
    from bughunt.explorer.factory import make_policy
    from bughunt.explorer.http_engine import HttpEngine
    from bughunt.explorer.loop import Explorer
    from bughunt.explorer.store import ExplorerStore
    from bughunt.explorer.summary import summary
    from bughunt.webapp.server import serving

    server, state = _stale_list_site()
    with serving(server) as url:
        store = ExplorerStore(tmp_path / "s")
        try:
            with make_policy("frontier", store=store) as policy:
                config = SessionConfig(budget=0, allow_destructive=allow)
                result = Explorer(store, HttpEngine(url), policy, config).run()
            data = summary(store, result)
        finally:
            store.close()
    (bug,) = _destructive(data)
    assert bug["route"] == "/items/7/delete" and bug["suspected"] is not allow
    assert state["deleted"] is allow


def test_without_the_flag_a_suspected_delete_fails_no_gate(site, tmp_path, capsys):
    """Unopened, the link is a lead: the text says so, and `--fail-on open` passes a run whose only
    open bug it is."""
    assert main([*_explore(site, tmp_path / "s"), "--fail-on", "open"]) == 0
    out = capsys.readouterr().out
    assert "[open, suspected]" in out and destructive_mode.LEADS in out


def _list_site():
    """Items 1-3 on `/`, each with its page and a Delete link that deletes on GET and redirects back."""
    from bughunt.webapp.pages import Response
    from bughunt.webapp.server import SiteServer

    items = {1, 2, 3}
    deletes: list[str] = []
    html = [("Content-Type", "text/html; charset=utf-8")]

    def app(request):
        path = request.target.split("?")[0]
        if path == "/":
            rows = "".join(
                f'<li><a href="/items/{n}">Item {n}</a> <a href="/items/{n}/delete">Delete</a></li>'
                for n in sorted(items)
            )
            return Response(200, f"<html><body><h1>Items</h1><ul>{rows}</ul></body></html>", tuple(html))
        parts = path.strip("/").split("/")
        if len(parts) >= 2 and parts[0] == "items" and parts[1].isdigit() and int(parts[1]) in items:
            if parts[2:] == ["delete"]:
                deletes.append(path)
                items.discard(int(parts[1]))
                return Response(302, "", (("Location", "/"),))
            if not parts[2:]:
                return Response(200, f'<html><body><h1>Item {parts[1]}</h1><a href="/">Back</a></body></html>', tuple(html))  # fmt: skip
        return Response(404, "<html><body><h1>Not found</h1></body></html>", tuple(html))

    return SiteServer(("127.0.0.1", 0), app), items, deletes


def test_the_walk_explores_first_and_deletes_once_when_it_is_over(tmp_path):
    """With --allow-destructive the walk sees every item as it was; after it, the Delete template is
    opened once (not twice on the landing page, which left the walk two pages that answered 404)."""
    from bughunt.explorer.config import SessionConfig
    from bughunt.explorer.factory import make_policy
    from bughunt.explorer.http_engine import HttpEngine
    from bughunt.explorer.loop import Explorer
    from bughunt.explorer.store import ExplorerStore
    from bughunt.explorer.summary import summary
    from bughunt.webapp.server import serving

    server, items, deletes = _list_site()
    with serving(server) as url:
        store = ExplorerStore(tmp_path / "s")
        try:
            with make_policy("frontier", store=store) as policy:
                config = SessionConfig(budget=3, allow_destructive=True)
                result = Explorer(store, HttpEngine(url), policy, config).run()
            data = summary(store, result)
        finally:
            store.close()
    assert {"/items/1", "/items/2", "/items/3"} <= set(data["pages_visited"])
    assert len(deletes) == 1 and len(items) == 2 and data["clicks"] == 3
    (bug,) = _destructive(data)
    assert not bug["suspected"] and bug["route"] == deletes[0]


def _refusing_site():
    """`/` links its own Delete page, which refuses with a 200 page and no form (a root page that
    cannot be deleted): opening it changes nothing."""
    from bughunt.webapp.pages import Response
    from bughunt.webapp.server import SiteServer

    html = (("Content-Type", "text/html; charset=utf-8"),)
    pages = {
        "/": '<h1>Home</h1><a href="/about/">About</a> <a href="/_delete/">Delete page</a>',
        "/about/": '<h1>About</h1><a href="/">Home</a>',
        "/_delete/": '<h1>Delete "Home"</h1><p>You cannot delete the home page.</p><a href="/">Go back</a>',
    }

    def app(request):
        body = pages.get(request.target.split("?")[0])
        if body is None:
            return Response(404, "<html><body>Not found</body></html>", html)
        return Response(200, f"<html><body>{body}</body></html>", html)

    return SiteServer(("127.0.0.1", 0), app)


def test_with_the_flag_the_walk_leaves_destructive_addresses_to_the_oracle(site, tmp_path, cli_json):
    """A walk that clicked `/_delete/` judged the refusal page (2xx, no form) an unconfirmed delete;
    with --allow-destructive the walk does not click it, and opening it shows no effect: a lead."""
    from bughunt.webapp.server import serving

    with serving(_refusing_site()) as url:
        data = cli_json("explore", "--url", url, "--store", str(tmp_path / "s"), "--budget", "3", "--allow-destructive", "--json")  # fmt: skip
    assert "/_delete/" not in data["pages_visited"]
    assert [(b["route"], b["suspected"]) for b in _destructive(data)] == [("/_delete/", True)]


def _two_templates_site():
    """`/` lists items with a Trash link each (`/trash/<n>`); each item's page has a Delete link. Both
    act on GET and redirect: trashing item 1 (the first template opened after the walk) leaves `/items/1` a 404."""
    from bughunt.webapp.pages import Response
    from bughunt.webapp.server import SiteServer

    items = {1, 2, 3}
    html = (("Content-Type", "text/html; charset=utf-8"),)

    def app(request):
        path = request.target.split("?")[0]
        if path == "/":
            rows = "".join(
                f'<li><a href="/items/{n}">Item {n}</a> <a href="/trash/{n}">Trash</a></li>'
                for n in sorted(items)
            )
            return Response(200, f"<html><body><h1>Items</h1><ul>{rows}</ul></body></html>", html)
        parts = path.strip("/").split("/")
        if parts[0] == "trash":
            parts = ["items", parts[-1], "delete"]
        if len(parts) >= 2 and parts[0] == "items" and parts[1].isdigit() and int(parts[1]) in items:
            if parts[2:] == ["delete"]:
                items.discard(int(parts[1]))
                return Response(302, "", (("Location", "/"),))
            if not parts[2:]:
                body = f'<h1>Item {parts[1]}</h1><a href="/">Back</a> <a class="danger" href="{path}/delete">Delete</a>'
                return Response(200, f"<html><body>{body}</body></html>", html)
        return Response(404, "<html><body><h1>Not found</h1></body></html>", html)

    return SiteServer(("127.0.0.1", 0), app)


def test_a_template_whose_first_page_is_gone_after_the_walk_is_opened_on_the_next(tmp_path, cli_json):
    """Trash (seen first, on `/`) deletes item 1; the Delete link was first seen on `/items/1`, a 404
    by then: it is opened on the next item's page the walk saw, not dropped."""
    from bughunt.webapp.server import serving

    with serving(_two_templates_site()) as url:
        data = cli_json("explore", "--url", url, "--store", str(tmp_path / "s"), "--budget", "3", "--allow-destructive", "--json")  # fmt: skip
    found = {
        (b["route"].strip("/").split("/")[-1 if "/items/" in b["route"] else 0], b["suspected"])
        for b in _destructive(data)
    }
    assert found == {("trash", False), ("delete", False)}
