"""A table's foot counting its rows by kind ("Files: 18 Folders: 2") states how many rows the table
lists: a sum that disagrees with the records is a count mismatch. The way up to the parent folder (a
row without the selection checkbox every record carries) is no record; a size in the foot is no count;
a foot of amounts ("Subtotal / Tax / Total") sums money, not rows; a paged list's foot counts more
than one page shows.

The site is a small file manager of our own: a folder's table of folders and files.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://files.test"
_page = Site(ORIGIN, "<html><body>", "</body></html>").page


def folder(files: int, folders: int, said_files: int, foot: str = "", pager: str = "") -> FetchedPage:
    up = '<tr><td></td><td><a href="?p=">..</a></td><td></td></tr>'
    rows = "".join(
        f'<tr><td><input type="checkbox" name="item[]" value="d{n}"></td>'
        f'<td><a href="?p=docs/d{n}">d{n}</a></td><td>folder</td></tr>'
        for n in range(folders)
    ) + "".join(
        f'<tr><td><input type="checkbox" name="item[]" value="f{n}.txt"></td>'
        f'<td><a href="?p=docs&amp;view=f{n}.txt">f{n}.txt</a></td><td>1 KB</td></tr>'
        for n in range(files)
    )
    foot = foot or (
        f'Full size: <span class="badge">{files}.5 KB</span> File: <span class="badge">{said_files}</span> '
        f'Folder: <span class="badge">{folders}</span>'
    )
    return _page(
        "<table><thead><tr><th></th><th>Name</th><th>Size</th></tr></thead>"
        f'{up}{rows}<tfoot><tr><td colspan="3">{foot}</td></tr></tfoot></table>{pager}',
        "/index.php?p=docs",
    )


def _kinds(page: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["count_mismatch"](page, None)]


def test_a_foot_counting_one_file_more_than_the_rows_is_a_mismatch():
    (found,) = ORACLES["count_mismatch"](folder(files=5, folders=2, said_files=6), None)
    assert found.kind == "count_mismatch"
    assert (found.evidence["shown"], found.evidence["listed"]) == (8, 7)


def test_a_foot_that_agrees_with_its_records_is_silent():
    # the way up (no selection checkbox) is no record: 5 + 2 rows, not 8
    assert _kinds(folder(files=5, folders=2, said_files=5)) == []
    # one file and the way up: the checkbox of the one record still tells records from furniture
    assert _kinds(folder(files=1, folders=0, said_files=1)) == []


def test_amounts_sizes_and_paged_lists_are_no_count_of_rows():
    money = "Subtotal: <b>100</b> Tax: <b>20</b> Total: <b>120</b>"
    assert _kinds(folder(files=3, folders=0, said_files=3, foot=money)) == []
    sizes = "Used: 12 KB Free: 40 KB"
    assert _kinds(folder(files=3, folders=0, said_files=3, foot=sizes)) == []
    pager = '<ul class="pagination"><li><a href="/index.php?p=docs&amp;page=2">2</a></li></ul>'
    assert _kinds(folder(files=3, folders=0, said_files=30, pager=pager)) == []
