"""An edit form whose "Cancel" leads back to the list of records is compared with its record's row.

Generic markup, no application's templates: `/bills/edit/<n>` has a form (date, description, payer,
amount, type, an optional `type=url` receipt link) and a Cancel link to `/bills/`, whose table shows a
row per bill: date, description, amount, an "edit" link and, for a bill with a receipt, a "show" link
to the receipt's address on another site. Read whole, the list's other rows (the description
after another row's payer of the same name) was taken for the value a reimbursement's empty receipt field dropped; the row alone
shows none. A bill whose row links to its receipt while its form's receipt field is empty dropped it.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://bills.test"
# newest first, as the list shows them: (payer, description, owers, receipt)
BILLS = {
    4: ("Omar", "Pays back Noor", "Noor", ""),
    3: ("Lena", "Pays back Omar", "Omar", ""),
    2: ("Noor", "Bakery", "Noor, Lena, Omar", "https://receipts.example.org/r/2"),
    1: ("Lena", "Groceries", "Noor, Lena, Omar", "https://receipts.example.org/r/1"),
}


def _page(path: str, body: str) -> FetchedPage:
    url = ORIGIN + path
    html = f"<!doctype html><html><head><title>Bills</title></head><body><main>{body}</main></body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def listing() -> FetchedPage:
    rows = "".join(
        f"<tr><td>2025-03-0{n}</td><td>{payer}</td><td>{what}</td><td>{owers}</td><td>{n * 10}.00</td><td>"
        f'<a class="edit" href="/bills/edit/{n}">edit</a>'
        + (f' <a class="show" href="{link}" target="_blank">show</a>' if link else "")
        + "</td></tr>"
        for n, (payer, what, owers, link) in BILLS.items()
    )
    return _page("/bills/", f'<table class="table"><tbody>{rows}</tbody></table>')


def edit(n: int, keeps_link: bool) -> FetchedPage:
    _payer, what, _owers, link = BILLS[n]
    kind = "Reimbursement" if not link else "Expense"
    form = (
        '<form method="post">'
        f'<label for="date">When?</label><input id="date" name="date" type="date" value="2025-03-0{n}">'
        f'<label for="what">What?</label><input id="what" name="what" type="text" value="{what}">'
        f'<label for="amount">How much?</label><input id="amount" name="amount" type="text" value="{n * 10}.0">'
        f'<label for="kind">Type</label><select id="kind" name="kind"><option selected>{kind}</option></select>'
        '<label for="external_link">External link</label>'
        f'<input id="external_link" name="external_link" type="url" value="{link if keeps_link else ""}">'
        '<input type="submit" value="Submit"> <a href="/bills/">Cancel</a></form>'
    )
    return _page(f"/bills/edit/{n}", form)


def findings(n: int, keeps_link: bool) -> list[tuple[str, str]]:
    page = edit(n, keeps_link)
    found = ORACLES["form_drops_value"](page, Recorder(listing()))
    return [(f.evidence["fields"], f.evidence["shown"]) for f in found]


def test_a_record_without_an_address_is_compared_with_its_own_row_not_the_next():
    assert findings(3, keeps_link=False) == []
    assert findings(4, keeps_link=False) == []


def test_an_empty_address_field_whose_row_links_off_site_dropped_that_address():
    assert findings(2, keeps_link=False) == [("external_link", "https://receipts.example.org/r/2")]
    assert findings(2, keeps_link=True) == []
