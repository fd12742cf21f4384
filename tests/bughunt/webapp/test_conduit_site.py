"""The conduit-htmx built-in site: the markup of a real server-rendered app, and its planted bugs.

The site's own behaviour (login with a CSRF token, Post/Redirect/Get, HTMX fragments, a GET delete)
is checked over HTTP; the oracles over every page a link-and-hx-get crawl reaches find exactly the
planted bugs (`bugs.PLANTED`), one fingerprint per root cause, and nothing else."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request

import pytest

from bughunt.oracles import OracleConfig, inspect_page
from bughunt.webapp import running_variant
from bughunt.webapp.conduit import (
    DEMO_PASSWORD,
    DEMO_USER,
    PLANTED,
    SECOND_PASSWORD,
    SECOND_USER,
    SIX_KINDS,
    planted_for,
    running_conduit,
    score,
)
from tests.support.conduit_client import Client, crawl, sweep

ARTICLE = "/article/property-based-testing-v5w3"
DELETE = ARTICLE + "/comments/4/delete"


@pytest.fixture
def site():
    with running_conduit() as base:
        yield base


def logged_in(base: str, user: str = DEMO_USER, password: str = DEMO_PASSWORD) -> Client:
    client = Client(base)
    home = client.login(user, password)
    assert home.route == "/" and f'href="/profile/{user}"' in home.body
    return client


# --- the site itself -----------------------------------------------------------------------------


def test_login_needs_the_csrf_token_and_the_password(site):
    client = Client(site)
    form = client.fetch(site + "/login")
    token = re.search(r'name="csrf_token" value="([0-9a-f]+)"', form.body).group(1)

    def post(**fields: str):
        return client.fetch(site + "/login", urllib.parse.urlencode(fields).encode())

    assert post(csrf_token="0" * 32, username=DEMO_USER, password=DEMO_PASSWORD).status == 403
    assert post(csrf_token=token, username=DEMO_USER, password="wrong").status == 422
    ok = post(csrf_token=token, username=DEMO_USER, password=DEMO_PASSWORD)
    assert ok.status == 200 and ok.redirects == (site + "/login",)  # Post/Redirect/Get
    assert any(c.name == "sessionid" for c in client.jar)


def test_two_users_log_in_and_see_their_own_edit_and_delete_links(site):
    a, b = logged_in(site), logged_in(site, SECOND_USER, SECOND_PASSWORD)
    assert Client(site).login(SECOND_USER, DEMO_PASSWORD).status == 422  # each has its own password
    a_pages, b_pages = crawl(a), crawl(b)
    a_only, b_only = set(a_pages) - set(b_pages), set(b_pages) - set(a_pages)
    assert "/editor/forms-that-keep-their-values-x6y4" in a_only
    assert "/editor/readable-type-on-the-web-h2j9" in b_only
    css = "/article/css-grid-in-ten-minutes-z7a5"
    assert 'comments/7/delete"' in b_pages[css][1].body and 'comments/7/delete"' not in a_pages[css][1].body
    assert (
        'comments/4/delete"' in a_pages[ARTICLE][1].body
        and 'comments/4/delete"' not in b_pages[ARTICLE][1].body
    )
    # User B cannot delete user A's comment by opening A's delete link.
    b.fetch(site + DELETE)
    assert "Great intro" in a.fetch(site + ARTICLE).body


def test_account_pages_redirect_to_login_when_logged_out(site):
    client = Client(site)
    for route in ("/settings", "/editor", "/editor/forms-that-keep-their-values-x6y4"):
        page = client.fetch(site + route)
        assert page.route.startswith("/login?next=") and 'type="password"' in page.body


def test_pagers_are_htmx_buttons_and_answer_fragments(site):
    client = Client(site)
    home = client.fetch(site + "/")
    assert 'hx-get="/?page=2"' in home.body and 'href="/?page=2"' not in home.body
    fragment = client.opener.open(urllib.request.Request(site + "/?page=2", headers={"HX-Request": "true"}))
    body = fragment.read().decode()
    assert "<html" not in body and body.count('class="article-preview"') == 3
    # The first link of every preview is its author, not the article.
    first = re.search(r'<div class="article-preview">.*?href="([^"]+)"', home.body).group(1)
    assert first.startswith("/profile/")


def test_comment_post_redirects_and_get_delete_deletes(site):
    client = logged_in(site)
    page = client.fetch(site + ARTICLE)
    token = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page.body).group(1)
    data = urllib.parse.urlencode({"csrf_token": token, "body": "Second thoughts"}).encode()
    after = client.fetch(site + ARTICLE + "/comments", data)
    assert after.route == ARTICLE and "Second thoughts" in after.body
    assert "Great intro" in after.body
    gone = client.fetch(site + DELETE)  # the planted bug: a plain GET deletes and redirects back
    assert gone.redirects == (site + DELETE,) and gone.route == ARTICLE and "Great intro" not in gone.body


def test_editor_tags_live_in_a_script_built_hidden_input(site):
    body = logged_in(site).fetch(site + "/editor/forms-that-keep-their-values-x6y4").body
    assert '<input type="hidden" name="tags" value="">' in body  # the planted bug
    assert "hidden.value.split(',')" in body and 'href="/article/' not in body  # no link back
    assert 'value="Forms that keep their values"' in body


def test_debug_error_page_links_only_to_itself_and_production_pages_say_less():
    with running_variant("conduit-htmx") as base:
        page = Client(base).fetch(base + "/profile/alice/favorites?page=2")
        assert page.status == 500 and re.findall(r'href="([^"]*)"', page.body) == ["#"]
        assert "IndexError" in page.body
    with running_conduit(debug=False) as base:
        page = Client(base).fetch(base + "/profile/alice/favorites?page=2")
        assert page.status == 500 and "IndexError" not in page.body and "Server Error (500)" in page.body


def test_related_section_is_rendered_only_by_script(site):
    client = Client(site)
    page = client.fetch(site + "/article/css-grid-in-ten-minutes-z7a5")
    assert (
        '<section id="related" data-slug="css-grid-in-ten-minutes-z7a5" aria-live="polite"></section>'
        in page.body
    )
    assert client.fetch(site + "/api/articles/css-grid-in-ten-minutes-z7a5/related").status == 500
    assert client.fetch(site + "/api/articles/pytest-fixtures-in-depth-k2p9/related").status == 200


def test_variants_and_unknown_variant():
    with pytest.raises(ValueError, match="unknown built-in site 'shop'"):
        with running_variant("shop"):
            pass


# --- the oracles on it ---------------------------------------------------------------------------


def _score(found):
    planted = {}
    false_positives = []
    for depth, finding in found:
        bug = planted_for(finding.kind, finding.route)
        if bug is None:
            false_positives.append(finding)
        else:
            planted.setdefault(bug.kind, set()).add(finding.fingerprint)
            assert depth <= bug.depth, (finding.route, depth)
    return planted, false_positives


def test_oracles_find_the_six_planted_bugs_logged_in_and_nothing_else(site):
    planted, false_positives = _score(sweep(logged_in(site)))
    assert false_positives == []
    assert set(planted) == {b.kind for b in SIX_KINDS}
    # One root cause, one fingerprint: two tags' page 2, two articles' editors.
    assert all(len(prints) == 1 for prints in planted.values())


def test_logged_out_finds_only_the_public_bugs(site):
    planted, false_positives = _score(sweep(Client(site)))
    assert false_positives == []
    assert set(planted) == {b.kind for b in SIX_KINDS if not b.login}


def test_the_destructive_link_is_suspected_and_never_opened_by_default(site):
    client = logged_in(site)
    found = [f for _, f in sweep(client) if f.kind == "unconfirmed_destructive"]
    assert [(f.route, f.suspected) for f in found] == [(DELETE, True)]
    assert "Great intro" in client.fetch(site + ARTICLE).body  # the comment is still there


def test_allow_destructive_opens_it_and_confirms_the_effect(site):
    client = logged_in(site)
    page = client.fetch(site + ARTICLE)
    (finding,) = [
        f
        for f in inspect_page(page, client.fetch, OracleConfig(allow_destructive=True))
        if f.kind == "unconfirmed_destructive"
    ]
    assert finding.route == DELETE and not finding.suspected
    assert finding.evidence["effect"] == "gone from the page that listed it"
    assert "Great intro" not in client.fetch(site + ARTICLE).body


def test_an_opened_destructive_get_is_judged_on_the_request_not_the_landing_page(site):
    client = logged_in(site)
    landed = client.fetch(site + DELETE)
    assert landed.route == ARTICLE  # the article page has POST forms: a "confirmation step" if judged there
    (finding,) = [f for f in inspect_page(landed) if f.kind == "unconfirmed_destructive"]
    assert finding.route == DELETE and finding.evidence["redirected"] is True


def test_the_same_500_has_one_fingerprint_with_debug_pages_on_or_off():
    prints = []
    for debug in (True, False):
        with running_conduit(debug=debug) as base:
            client = Client(base)
            (finding,) = inspect_page(client.fetch(base + "/profile/alice/favorites?page=2"), client.fetch)
            assert finding.message == "HTTP 500 Internal Server Error"
            prints.append(finding.fingerprint)
    assert prints[0] == prints[1]


def test_planted_data_is_consistent(site):
    # Each account reaches its own editors; every planted route is reached by one of the two users.
    views = [crawl(logged_in(site)), crawl(logged_in(site, SECOND_USER, SECOND_PASSWORD))]
    for bug in PLANTED:
        for route in bug.routes:
            if bug.kind == "unconfirmed_destructive":
                # never crawled: it is the destructive action itself; one user's page links to it
                assert any(f'href="{route}"' in p.body for v in views for _, p in v.values()), route
                continue
            depths = [v[route][0] for v in views if route in v]
            assert depths, route
            assert min(depths) <= bug.depth


def test_user_b_finds_the_login_bugs_on_its_own_content_and_nothing_else(site):
    planted, false_positives = _score(sweep(logged_in(site, SECOND_USER, SECOND_PASSWORD)))
    assert false_positives == []
    assert set(planted) == {b.kind for b in SIX_KINDS}


def test_http_explorer_finds_what_links_reach_with_no_false_positive(cli_json, tmp_path, site):
    """Today's HTTP explorer (no login, `<a href>` plus whatever actions the engine extracts)."""
    data = cli_json("explore", "--url", site, "--store", str(tmp_path / "s"), "--budget", "40", "--json")
    result = score((b["kind"], b["route"]) for b in data["bugs"])
    assert result.false_positives == [] and result.duplicates == 0, result.to_dict()
    reached_by_links = {b.kind for b in SIX_KINDS if b.reach == "a" and not b.login}
    assert reached_by_links <= {b.kind for b in result.found}


def test_score_counts_found_missed_false_positives_and_duplicates():
    result = score(
        [
            ("duplicate_pagination", "/tag/python?page=2"),
            ("duplicate_pagination", "/tag/webdev?page=2"),
            ("count_mismatch", "/profile/bob/followers"),
        ]
    )
    assert [b.kind for b in result.found] == ["duplicate_pagination"] and result.duplicates == 1
    assert result.false_positives == [("count_mismatch", "/profile/bob/followers")]
    assert len(result.missed) == len(PLANTED) - 1


def test_serve_site_variant_command(capsys):
    import json
    import subprocess
    import sys

    from bughunt.cli import main

    assert main(["serve-site", "--variant", "conduit-htmx", "--account", "logged-out"]) == 2
    assert "only go with the 24-page site" in capsys.readouterr().err
    assert main(["serve-site", "--production-errors"]) == 2
    cmd = [
        sys.executable,
        "-m",
        "bughunt",
        "serve-site",
        "--variant",
        "conduit-htmx",
        "--port",
        "0",
        "--json",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        info = json.loads(proc.stdout.readline())
        assert info["variant"] == "conduit-htmx" and info["username"] == DEMO_USER
        client = Client(info["url"])
        assert client.login(info["username"], info["password"]).route == "/"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()


def test_a_garbled_content_length_does_not_hang_the_server(site):
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(site)
    for length in ("-5", "abc"):
        with socket.create_connection((parts.hostname, parts.port), timeout=5) as conn:
            conn.sendall(f"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode())
            assert conn.recv(64).startswith(b"HTTP/1.1 403")  # answered (no CSRF token), not stuck


def test_the_untagged_articles_editor_drops_only_its_unlabelled_description(site, monkeypatch):
    from bughunt.oracles import forms

    client = logged_in(site)
    known = OracleConfig(
        known_routes=lambda: ["/article/templates-typed-by-hand-n4h2", "/article/reading-stack-traces-d9e7"]
    )
    editor = client.fetch(site + "/editor/templates-typed-by-hand-n4h2")
    assert '<input type="hidden" name="tags" value="">' in editor.body  # no tags stored: nothing dropped
    (finding,) = [f for f in inspect_page(editor, client.fetch, known) if f.kind == "form_drops_value"]
    assert finding.evidence["fields"] == "description"
    assert finding.evidence["shown"] == "Every attribute written out, one forgotten."
    assert planted_for(finding.kind, finding.route) is not None
    tagged = client.fetch(site + "/editor/reading-stack-traces-d9e7")
    (both,) = [f for f in inspect_page(tagged, client.fetch, known) if f.kind == "form_drops_value"]
    assert set(both.evidence["fields"].split("\n")) == {"tags", "description"}
    assert both.fingerprint == finding.fingerprint  # one editor template, one bug
    # The article page names the description nowhere: without the position rule it is missed.
    monkeypatch.setattr(forms, "dropped_by_position", lambda *args: [])
    assert [f for f in inspect_page(editor, client.fetch, known) if f.kind == "form_drops_value"] == []
