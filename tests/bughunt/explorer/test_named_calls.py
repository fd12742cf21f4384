"""POSTs that name a read (`named_calls`), judged by the gate without a browser; an oracle's fetch of a
script's view address (`BrowserEngine.fetch_page`); a glued lower-case view name in a query
(`request_action`). See `test_named_calls_browser.py` for the walk."""

from __future__ import annotations

import pytest

from bughunt.explorer.browser import BrowserEngine
from bughunt.explorer.gate import WRITE_REFUSED, Gate
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.named_calls import keeps_session, named_read, reads_by_name
from bughunt.oracles.destructive_words import deferred_action
from bughunt.page import FetchedPage

HOME = "http://127.0.0.1:8000"
TEXT = {"content-type": "text/plain;charset=UTF-8"}
FORM = {"content-type": "application/x-www-form-urlencoded; charset=UTF-8"}


@pytest.mark.parametrize(
    "name",
    ["get_history", "get_job_details", "GetOrder", "ListUsers", "list_folder", "sanityCheck", "getfeedtree"],
)
def test_a_call_named_by_a_read_reads(name: str) -> None:
    assert reads_by_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "update_event",
        "delete_api_key",
        "MakeHat",
        "get_and_delete",
        "getandremove",
        "catchupFeed",
        "setpref",
        "card",
    ],
)
def test_a_call_that_writes_or_says_nothing_does_not(name: str) -> None:
    assert not reads_by_name(name)


def test_a_session_kept_alive_is_no_write_and_ending_it_is() -> None:
    assert (
        keeps_session("resume_session") and keeps_session("refresh-token") and keeps_session("sessionCheck")
    )
    assert (
        not keeps_session("logout") and not keeps_session("destroy_session") and not keeps_session("session")
    )


def test_the_gate_admits_named_reads_and_refuses_the_rest() -> None:
    gate = Gate(HOME, secret="pw-1")
    body = b'{"offset":0,"session_id":"s1"}'
    assert gate.judge("POST", HOME + "/api/app/get_history", TEXT, body) is None
    assert gate.judge("POST", HOME + "/api/user/resume_session", TEXT, body) is None
    assert (
        gate.judge("POST", HOME + "/twirp/shop.Orders/GetOrder", {"content-type": "application/json"}, b"{}")
        is None
    )
    assert gate.judge("POST", HOME + "/backend.php", FORM, b"op=RPC&method=sanityCheck&csrf_token=x") is None
    assert gate.judge("POST", HOME + "/backend.php", FORM, b"op=Feeds&method=view&feed=-3") is None
    for url, headers, sent in (
        (HOME + "/api/app/update_event", TEXT, body),
        (HOME + "/api/app/delete_api_key", TEXT, body),
        (HOME + "/api/search", TEXT, body),  # one word: a page's name, not a call's
        (HOME + "/backend.php", FORM, b"op=RPC&method=setpref&key=x"),
        (HOME + "/backend.php", FORM, b"op=RPC&method=catchupFeed&feed_id=3"),
        (HOME + "/backend.php", FORM, b"op=Pref_Filters&method=savefilterorder"),
        (HOME + "/pay", FORM, b"method=card&amount=3"),
        (HOME + "/login.php", FORM, b"method=view&password=pw-1"),  # carries the password
    ):
        assert gate.judge("POST", url, headers, sent) == WRITE_REFUSED, (url, sent)
    # another origin stays refused whatever it names
    assert gate.judge("POST", "http://127.0.0.1:9/api/app/get_history", TEXT, body) == "another origin"


def test_a_json_rpc_body_is_judged_by_its_method_not_by_its_route() -> None:
    assert not named_read(
        HOME + "/api/get_items", {"content-type": "json"}, b'{"method": "item-remove", "id": 1}'
    )


def test_a_glued_view_name_is_no_action_on_a_record() -> None:
    assert deferred_action(HOME + "/backend.php?op=Pref_Feeds&method=getfeedtree&mode=2") is None
    assert deferred_action(HOME + "/forum.php?mode=showtopic&t=3") is None
    assert deferred_action(HOME + "/x.php?action=getandremove&id=3") is not None
    assert deferred_action(HOME + "/x.php?action=retire&id=3") is not None


def _shell(body: str) -> FetchedPage:
    return FetchedPage(HOME + "/", "/", 200, {}, "text/html", body, 10.0)


def test_an_oracles_fetch_of_a_scripts_view_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    shell = _shell('<html><body><div id="page_Home"><h2 id="comments">Comments</h2></div></body></html>')
    monkeypatch.setattr(HttpEngine, "fetch_page", lambda self, url, referer=None: shell)
    engine = BrowserEngine(HOME + "/")
    # the load of `/#History?sub=event_history&id=3` shows the start view: not the page the link names
    with pytest.raises(OSError, match="view"):
        engine.fetch_page(HOME + "/#History?sub=event_history&id=3")
    with pytest.raises(OSError, match="view"):
        engine.fetch_page(HOME + "/#inbox/3")
    # an anchor of the loaded document is the same page
    assert engine.fetch_page(HOME + "/#comments") is shell
    assert engine.fetch_page(HOME + "/") is shell
    # nor is the start view kept under the document's route taken for it
    monkeypatch.setattr(HttpEngine, "reuse_page", lambda self, url, version: shell)
    with pytest.raises(OSError, match="view"):
        engine.reuse_page(HOME + "/#History?sub=event_history&id=3", None)
    assert engine.reuse_page(HOME + "/#comments", None) is shell
