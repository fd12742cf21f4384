"""Which controls open a folded group (`bughunt.disclosures`), read on markup: the ARIA tree item, a
closed `<details>`' summary and an expander given its own listener inside a link are controls (none was
on main); an open group's, a menu's button, a container and a link's own text are not."""

from __future__ import annotations

from bughunt.actions import clickable
from bughunt.disclosures import closed_disclosure, nested_control, tree_leaf
from bughunt.dom import Node, parse_html
from bughunt.focus_controls import ACTS_MARK, LISTENER


def _first(html: str, tag: str) -> Node:
    return next(n for n in parse_html(html).iter() if n.tag == tag)


def test_a_closed_tree_item_and_a_closed_summary_are_clicked_an_open_one_is_not() -> None:
    closed = _first(
        '<ul role="tree"><li role="treeitem" aria-expanded="false" tabindex="-1">A</li></ul>', "li"
    )
    opened = _first(
        '<ul role="tree"><li role="treeitem" aria-expanded="true" tabindex="-1">A</li></ul>', "li"
    )
    assert closed_disclosure(closed) and clickable(closed)
    assert not closed_disclosure(opened) and not clickable(opened)
    summary = _first("<details><summary>More</summary><p>x</p></details>", "summary")
    shown = _first("<details open><summary>More</summary><p>x</p></details>", "summary")
    assert clickable(summary) and not clickable(shown)


def test_a_menu_button_a_container_and_a_field_are_no_group_openers() -> None:
    assert not closed_disclosure(_first('<div aria-haspopup="menu" aria-expanded="false">Menu</div>', "div"))
    assert not closed_disclosure(_first('<a data-bs-toggle="dropdown" aria-expanded="false">Menu</a>', "a"))
    assert not closed_disclosure(_first('<div role="combobox" aria-expanded="false">Pick</div>', "div"))
    assert not closed_disclosure(_first('<input aria-expanded="false">', "input"))


def test_a_listener_of_its_own_inside_a_link_is_a_control_the_links_text_is_not() -> None:
    link = f'<a href="/groups/4"><span {ACTS_MARK}="{LISTENER}">v</span><span>Group</span></a>'
    expander, text = [n for n in parse_html(link).iter() if n.tag == "span"]
    assert nested_control(expander) and clickable(expander)
    assert not nested_control(text) and not clickable(text)


def test_a_tree_s_leaf_is_clicked_a_leaf_holding_a_link_is_the_link_s() -> None:
    # Dijit's Tree: the label span is the item, its listener the tree's, focusable by arrow keys only
    tree = (
        '<div role="tree"><div role="treeitem" aria-expanded="true" tabindex="-1">Feeds'
        '<div role="group"><span role="treeitem" tabindex="-1">City Hall Notes</span>'
        '<span role="treeitem" tabindex="-1"><a href="/feed/4">World Desk</a></span></div></div></div>'
    )
    group, leaf, linked = [n for n in parse_html(tree).iter() if n.get("role") == "treeitem"]
    assert tree_leaf(leaf) and clickable(leaf)
    assert not tree_leaf(linked) and not clickable(linked)  # its link is followed instead
    assert not tree_leaf(group) and not clickable(group)  # an open group's item folds it
