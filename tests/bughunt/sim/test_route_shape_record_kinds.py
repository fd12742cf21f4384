"""The kind of record a generic script's page shows is part of the page's type (issue 25, PostfixAdmin): a
mail admin's one edit script edits every table (`edit.php?table=mailbox&edit=<address>`, `?table=alias&…`,
`?table=domain&…`), and with the table's name read as a value they were one page type — sampled on domains
and aliases, so no mailbox's edit form was opened in 100 clicks, and its dropped display name went unseen.
So are an admin bundle's `?entity=product&id=3` and a blog engine's `edit.php?post_type=page`."""

from __future__ import annotations

from bughunt.sim.route_shapes import route_shape


def test_the_table_a_generic_script_edits_is_its_page_type() -> None:
    mailbox = route_shape("/edit.php?table=mailbox&edit=anna%40example.com")
    assert mailbox == route_shape("/edit.php?table=mailbox&edit=ben%40example.com")
    assert mailbox != route_shape("/edit.php?table=alias&edit=list0%40example.com")
    assert route_shape("/wp-admin/edit.php?post_type=page") != route_shape(
        "/wp-admin/edit.php?post_type=post"
    )
    assert route_shape("/admin/?entity=product&id=3") != route_shape("/admin/?entity=order&id=3")


def test_a_record_named_under_another_key_stays_a_value() -> None:
    assert route_shape("/edit.php?table=mailbox&edit=a%40x.org") == route_shape(
        "/edit.php?table=mailbox&edit=b%40y.org"
    )
    assert route_shape("/show.php?id=alpha") == route_shape("/show.php?id=beta")
