"""Settings forms on a tabbed page, sent to the record's own address (`form_tabs`, `record_address`).

A project's settings page renders every tab's panel and hides all but the selected one; each tab has
an address of its own (`/projects/garden/settings/info`, `…/settings/members`) answering the same page
with that tab selected. The project form (its first tab) posts to the project's own address with its
method overridden to PATCH (`_method=patch`): the project's overview at that address is the record's
page, though the settings URL names no record to edit. Its Homepage field left empty while the
overview shows the homepage is a dropped value, judged on the tab that shows the form and reported
there — not on the members tab, where the form is hidden. Made-up site, generic markup.
"""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://pm.test",
    '<html><head><title>Garden</title></head><body><div id="top"><a href="/">Home</a>'
    ' <a href="/projects">Projects</a></div><div id="menu"><ul><li><a href="/projects/garden">Overview</a></li>'
    '<li><a href="/projects/garden/issues">Issues</a></li><li><a href="/projects/garden/settings">Settings</a></li>'
    '</ul></div><div id="content">',
    "</div></body></html>",
)

OVERVIEW = SITE.page(
    '<h2>Overview</h2><div class="description"><p>Seeds, beds and the watering rota.</p></div>'
    '<ul><li><span class="label">Homepage:</span> <a href="https://garden.example.org">https://garden.example.org</a>'
    "</li></ul>",
    "/projects/garden",
)
TABS = ("info", "Project"), ("members", "Members")


def settings(selected: str, homepage: str) -> FetchedPage:
    tabs = "".join(
        f'<li><a id="tab-{t}" href="/projects/garden/settings/{t}" onclick="showTab(\'{t}\')">{label}</a></li>'
        for t, label in TABS
    )
    hidden = ' style="display:none"'
    return SITE.page(
        f'<h2>Settings</h2><div class="tabs"><ul>{tabs}</ul></div>'
        f'<div id="tab-content-info" class="tab-content"{"" if selected == "info" else hidden}>'
        '<form action="/projects/garden" method="post"><input type="hidden" name="_method" value="patch">'
        '<input type="hidden" name="authenticity_token" value="x1y2">'
        '<p><label for="project_name">Name</label><input type="text" id="project_name" name="project[name]"'
        ' value="Garden"></p><p><label for="project_description">Description</label>'
        '<textarea id="project_description" name="project[description]">Seeds, beds and the watering rota.'
        '</textarea></p><p><label for="project_homepage">Homepage</label><input type="text"'
        f' id="project_homepage" name="project[homepage]" value="{homepage}"></p><button>Save</button></form></div>'
        f'<div id="tab-content-members" class="tab-content"{"" if selected == "members" else hidden}>'
        "<table><tr><td>ann</td><td>Manager</td></tr></table></div>",
        f"/projects/garden/settings/{selected}",
    )


def _found(found: list) -> list[tuple[str, str, str]]:
    return [(f.route, f.evidence["fields"], f.evidence["shown"]) for f in found]


def test_the_form_posting_patch_to_the_project_is_compared_with_the_projects_page():
    found = check_form_drops_value(settings("info", ""), SITE.fetcher(OVERVIEW))
    assert _found(found) == [
        ("/projects/garden/settings/info", "project[homepage]", "https://garden.example.org")
    ]


def test_the_form_holding_the_homepage_is_silent():
    assert (
        check_form_drops_value(settings("info", "https://garden.example.org"), SITE.fetcher(OVERVIEW)) == []
    )


def test_a_form_in_a_hidden_panel_is_judged_and_reported_on_its_tabs_address():
    fetch = SITE.fetcher(OVERVIEW, settings("info", ""))
    found = check_form_drops_value(settings("members", ""), fetch)
    assert _found(found) == [
        ("/projects/garden/settings/info", "project[homepage]", "https://garden.example.org")
    ]
    assert "http://pm.test/projects/garden/settings/info" in fetch.calls
