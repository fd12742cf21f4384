"""Scripts the server itself drew are not stored XSS: one carrying the nonce the response's
Content-Security-Policy declares (a payload stored earlier cannot know it), and one the layout writes
beside its own name in the page's banner. A stored payload beside text in a table cell still fires,
and so does a script with a nonce the policy does not declare. Pages of our own."""

from __future__ import annotations

from bughunt.oracles.scripts import check_unescaped_script
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://shop.test"


def _page(body: str, headers: dict[str, str] | None = None, path: str = "/rows") -> FetchedPage:
    url = ORIGIN + path
    return FetchedPage(
        url, route_of(url), 200, headers or {}, "text/html", f"<html><body>{body}</body></html>", 1.0
    )


_CSP = {"Content-Security-Policy": "script-src 'self' 'nonce-Zm9vYmFy' 'strict-dynamic'; object-src 'none'"}
_CELL = "<table><tr><td>Export as <script nonce='{nonce}'>ajaxSetHtml('?script=db');</script> file</td></tr></table>"


def test_a_script_carrying_the_responses_csp_nonce_is_the_servers_own():
    assert check_unescaped_script(_page(_CELL.format(nonce="Zm9vYmFy"), _CSP)) == []


def test_a_nonce_the_policy_does_not_declare_proves_nothing():
    found = check_unescaped_script(_page(_CELL.format(nonce="c3RvbGVu"), _CSP))
    assert [f.kind for f in found] == ["unescaped_script"]
    assert [f.kind for f in check_unescaped_script(_page(_CELL.format(nonce="Zm9vYmFy")))] == [
        "unescaped_script"
    ]


_BANNER = '<header><nav><a href="/"><b>shop <script>document.write(location.pathname)</script></b></a></nav></header>'


def test_the_layouts_script_beside_its_name_in_the_banner_is_not_user_content():
    assert check_unescaped_script(_page(_BANNER + "<main><p>Rows</p></main>")) == []


def test_a_stored_script_in_a_cell_or_an_articles_own_header_still_fires():
    cell = "<main><table><tr><td>Great yields <script>alert(1)</script> on clay.</td></tr></table></main>"
    assert [f.kind for f in check_unescaped_script(_page(_BANNER + cell))] == ["unescaped_script"]
    article = (
        "<main><article><header><h2>Hello <script>alert(2)</script> world</h2></header></article></main>"
    )
    assert [f.kind for f in check_unescaped_script(_page(article))] == ["unescaped_script"]


# A form a script drew without a `<form>` element (pixl-webapp's edit pages, React/Knockout forms bound to
# their state): its label-and-value table puts a checkbox with its own handler in a record-like cell.
_EDIT_TABLE = (
    "<div class='main_content'><table>{rows}<tr><td class='table_label'>Time Machine:</td><td class='table_value'><table><tr><td>"
    "<input type='checkbox' id='fe_rc_on' onchange='$P().toggle_rc(this.checked)'></td><td>{label}</td>"
    "<td><input type='text' id='fe_rc_time' value='Dec 7' onfocus='this.blur()'></td></tr>"
    "</table></td></tr></table></div>"
)
_ROWS = "".join(
    f"<tr><td class='table_label'>{k}:</td><td class='table_value'><table><tr><td>{v}</td><td>more</td></tr>"
    "</table></td></tr>"
    for k, v in (("Title", "Nightly backup"), ("Category", "Backups"), ("Target", "All servers"))
)


def test_a_field_its_label_names_is_the_sites_own_outside_a_form():
    labelled = _EDIT_TABLE.format(rows=_ROWS, label="<label for='fe_rc_on'>Set Event Clock</label>")
    assert check_unescaped_script(_page(labelled)) == []
    # the same markup without the label naming it is still read as a record's value
    bare = _EDIT_TABLE.format(rows=_ROWS, label="Set Event Clock")
    assert check_unescaped_script(_page(bare)) != []
