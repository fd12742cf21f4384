"""What a control says (`explorer/control_words.py`), the part of a refused write's lesson that tells a
Delete from a vote, and its place in the store (`click_actions.words`, schema version 4)."""

from __future__ import annotations

import sqlite3

from bughunt.explorer.control_words import control_words, said_shape, said_shapes
from bughunt.explorer.idle_controls import idle_test
from bughunt.explorer.store import SCHEMA_VERSION, ExplorerStore


def test_a_known_verb_leading_a_short_label_is_what_the_control_says():
    # the rest of such a label names the record, not what the control does
    assert control_words("Delete comment 7") == control_words("delete") == "delete"
    assert control_words("🗑 Remove item") == "remove"
    assert control_words("Like") == "like" and control_words("☆ Star") == "star"
    # a control and its counterpart: one control in two states
    assert control_words("★ Unstar") == "star" and control_words("Unfollow ann") == "follow"
    assert control_words("✘ Unread") == control_words("✔ Read")
    assert control_words("Follow ann") == control_words("Follow bob") == "follow"
    # a sentence that mentions a verb is words like any other
    assert control_words("How to delete your data safely") not in ("how", "delete")


def test_other_labels_say_their_words_digits_and_punctuation_left_out():
    assert control_words("Mark as read") == control_words("mark as READ (3)")
    assert control_words("Reply") != control_words("Edit")
    assert control_words("Reply") != "reply", "no page text is kept: a digest"
    # an icon says nothing; icons of one shape are one lesson
    assert control_words("▲") == control_words("") == control_words(" 12 ") == ""


def test_a_refused_write_s_lesson_holds_for_the_controls_of_its_shape_that_say_the_same():
    delete = said_shape("click #<id> > div > a", control_words("Delete"))
    table = {delete: "same_state"}
    assert said_shapes(list(table)) == {"click #<id> > div > a"}
    routes = {"/a#click-1": ("/a", "#r-1 > div > a:nth-of-type(2)"), "/b#click-2": ("/b", "#c-4 > div > a")}
    words = {"/a#click-1": control_words("Delete"), "/b#click-2": control_words("▲")}
    is_idle = idle_test(table, routes.get, lambda r: words.get(r, ""))
    assert is_idle("/a#click-1", "/a") and not is_idle("/b#click-2", "/b")
    # without what the controls say (an engine that keeps none) no worded lesson applies
    assert not idle_test(table, routes.get)("/a#click-1", "/a")


def test_a_store_of_version_3_gains_the_words_of_its_click_states(tmp_path):
    store = ExplorerStore(tmp_path / "s")
    store.link_table.add_click("/a#click-1", "/a", "div > button", "delete")
    assert store.link_table.words_of("/a#click-1") == "delete"
    store.close()
    db_path = tmp_path / "s" / "bughunt.sqlite"
    with sqlite3.connect(db_path) as db:  # as version 3 left it: no words
        db.execute("ALTER TABLE click_actions DROP COLUMN words")
        db.execute("PRAGMA user_version = 3")
    old = ExplorerStore(tmp_path / "s", create=False, lock=False)
    try:  # read-only: nothing is migrated, and nothing is known of what the controls say
        assert old.link_table.click_of("/a#click-1") == ("/a", "div > button")
        assert old.link_table.words_of("/a#click-1") == ""
    finally:
        old.close()
    store = ExplorerStore(tmp_path / "s")  # a writer brings it forward
    try:
        assert store.link_table.words_of("/a#click-1") == ""
        store.link_table.add_click("/b#click-2", "/b", "div > a", "like")
        assert store.link_table.words_of("/b#click-2") == "like"
    finally:
        store.close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
