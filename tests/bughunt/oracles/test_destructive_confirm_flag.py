"""A bare confirming flag (`?confirm`, no value) is set for the apps that test a key's presence (PHP's
`isset`, a C CGI's `P("confirm")`): a record page's "Delete" to its own `?confirm` deletes at once (a
version-control web UI's attachment page). The walk never follows it, and unopened it is reported
confirmed on its words, like `?confirm=1` (`destructive.confirms_itself`)."""

from __future__ import annotations

import re

from bughunt.explorer.http_engine import DEFAULT_AVOID
from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.destructive import confirms_itself, destructive_actions
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://scm.test"


def _artifact(link: str, label: str = "Delete") -> FetchedPage:
    url = ORIGIN + "/artifact/a1"
    html = f'<html><body><main><h1>Attachment a1</h1><a href="{link}">{label}</a></main></body></html>'
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_a_bare_confirming_flag_is_never_walked() -> None:
    assert re.search(DEFAULT_AVOID, "/artifact/a1?confirm")
    assert re.search(DEFAULT_AVOID, "/artifact/a1?confirm&from=list")
    assert not re.search(DEFAULT_AVOID, "/artifact/a1?confirmed_at=2024")
    assert not re.search(DEFAULT_AVOID, "/artifact/a1?confirmation_sent")


def test_a_bare_confirming_flag_confirms() -> None:
    assert confirms_itself(ORIGIN + "/artifact/a1?confirm") == "confirm"
    assert confirms_itself(ORIGIN + "/artifact/a1?del") is None
    assert confirms_itself(ORIGIN + "/artifact/a1?confirm=0") is None


def test_a_record_pages_delete_to_its_own_confirm_is_reported_on_its_words() -> None:
    (finding,) = ORACLES["unconfirmed_destructive"](_artifact("/artifact/a1?confirm"), None, OracleConfig())
    assert not finding.suspected and "confirm" in finding.evidence["effect"]
    # the same label to its own address asking first (`?del`: a confirmation form) is navigation
    assert destructive_actions(_artifact("/artifact/a1?del")) == []
    # and "Remove filter" back to the same list stays navigation
    assert destructive_actions(_artifact("/artifact/a1?tag=", "Remove filter")) == []
