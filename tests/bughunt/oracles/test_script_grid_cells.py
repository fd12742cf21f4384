"""A payload stored as one record's name, drawn into a script-drawn grid: every row prints the name into
the same cell, wrapped in `div`s named for layout, so the payload stands beside no text, inside no
text-level element and no container named like user content (`scripts._suspicious`'s three signs). It
is the one cell of its column that holds markup where the other rows hold words (`script_cells`).
The grids below are shaped as a widget toolkit draws them (each row a table of its own, as ExtJS 3's
grid; a Dojo dgrid row is alike) and as a plain table a Knockout/AngularJS `foreach` fills."""

from __future__ import annotations

from bughunt.oracles.scripts import check_unescaped_script
from tests.support.pages import Site

_page = Site("http://grid.test", "<html><body><div id='app'>", "</div></body></html>").page

PAYLOAD = '<img src="x" onerror="alert(\'x\')">'


def _toolkit_row(name: str, size: str, alt: bool) -> str:
    cls = "grid-row grid-row-alt" if alt else "grid-row"
    cell = '<td class="grid-cell" tabindex="0"><div class="grid-cell-inner">{}</div></td>'
    return (
        f'<div class="{cls}"><table class="grid-row-table"><tbody><tr>'
        + cell.format(f'<div class="item-name">{name}</div>')
        + cell.format(size)
        + "</tr></tbody></table></div>"
    )


def _toolkit_grid(names: list[str]) -> str:
    rows = "".join(_toolkit_row(n, f"{i + 1}.0 KiB", i % 2 == 1) for i, n in enumerate(names))
    return f'<div class="grid-body">{rows}</div>'


def test_a_handler_in_one_rows_name_cell_of_a_toolkit_grid_is_reported():
    page = _page(_toolkit_grid(["Sintel", "Big Buck Bunny", PAYLOAD, "Charge"]), "/")
    (found,) = check_unescaped_script(page)
    assert found.kind == "unescaped_script" and found.evidence["handler"] == "onerror"


def test_a_handler_in_one_row_of_a_plain_table_is_reported():
    rows = "".join(f"<tr><td>{n}</td><td>{i}</td></tr>" for i, n in enumerate(["ana", "bo", PAYLOAD, "cy"]))
    (found,) = check_unescaped_script(_page(f"<table><tbody>{rows}</tbody></table>", "/users"))
    assert found.evidence["handler"] == "onerror"


def test_a_templates_handler_in_every_row_is_not():
    fallback = '<img src="/a/{0}.png" onerror="this.src=\'/a/none.png\'">'
    rows = "".join(f"<tr><td>{fallback.format(n)}</td><td>{n}</td></tr>" for n in ["ana", "bo", "cy"])
    assert check_unescaped_script(_page(f"<table><tbody>{rows}</tbody></table>", "/users")) == []


def test_a_templates_classed_image_in_one_row_is_not():
    icon = '<img class="flag" src="/f.png" onerror="this.hidden=true">'
    page = _page(_toolkit_grid(["Sintel", icon, "Charge", "Wing It"]), "/")
    assert check_unescaped_script(page) == []


def test_a_lone_table_row_says_nothing():
    page = _page(f"<table><tbody><tr><td>{PAYLOAD}</td><td>1</td></tr></tbody></table>", "/")
    assert check_unescaped_script(page) == []


def _list_row(name: str, state: str) -> str:
    return (
        f'<li class="torrent"><div class="torrent_name">{name}</div>'
        f'<div class="torrent_peer_details">{state}</div><div class="torrent_progress_bar"></div></li>'
    )


def test_a_handler_in_one_records_name_field_of_a_script_drawn_list_is_reported():
    # a jQuery client's list: each record an `li` whose fields are its children, the name field's class
    # naming its place in the layout (as a toolkit grid's cell wrapper does)
    names = ["alma-boot", "arch-linux", PAYLOAD, "debian-netinst"]
    page = _page('<ul id="torrent_list">' + "".join(_list_row(n, "Paused") for n in names) + "</ul>", "/")
    (found,) = check_unescaped_script(page)
    assert found.kind == "unescaped_script" and found.evidence["handler"] == "onerror"


def test_a_lists_template_handler_in_every_record_stays_silent():
    avatar = '<img src="a.png" onerror="this.src=\'b.png\'">'
    rows = "".join(_list_row(f"{avatar} {n}", "Paused") for n in ["ana", "bo", "cy", "di"])
    assert check_unescaped_script(_page(f"<ul>{rows}</ul>", "/")) == []
