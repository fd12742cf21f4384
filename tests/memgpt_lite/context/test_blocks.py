"""Working-context blocks: rendering with usage; exact, all-or-nothing edits."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from memgpt_lite.context import Block, WorkingContext
from memgpt_lite.errors import ConfigError, ToolError


def wc() -> WorkingContext:
    return WorkingContext(
        [Block(name="persona", value="I am a tester.", limit=40), Block(name="human", limit=30)]
    )


def test_render_shows_usage():
    out = wc().render()
    assert '<persona chars="14/40">\nI am a tester.\n</persona>' in out
    assert '<human chars="0/30">' in out


def test_append_and_replace():
    w = wc()
    w.append("human", "Name: Ada")
    w.append("human", "Likes tea")
    assert w.get("human").value == "Name: Ada\nLikes tea"
    w.replace("human", "tea", "coffee")
    assert w.get("human").value == "Name: Ada\nLikes coffee"
    w.replace("human", "\nLikes coffee", "")
    assert w.get("human").value == "Name: Ada"
    assert 'chars="9/30"' in w.render()


@pytest.mark.parametrize(
    ("op", "match"),
    [
        (lambda w: w.append("human", "x" * 31), "over its limit"),
        (lambda w: w.append("nope", "x"), "no memory block named 'nope'"),
        (lambda w: w.append("human", ""), "empty"),
        (lambda w: w.replace("persona", "tester!", "x"), "not found"),
        (lambda w: w.replace("persona", "I am", "x" * 40), "over its limit"),
        (lambda w: w.replace("persona", "", "x"), "empty"),
    ],
)
def test_failed_edit_raises_tool_error_and_changes_nothing(op, match):
    w = wc()
    before, version = w.render(), w.version
    with pytest.raises(ToolError, match=match):
        op(w)
    assert w.render() == before and w.version == version


def test_ambiguous_replace_is_refused():
    w = WorkingContext([Block(name="notes", value="a b a", limit=100)])
    with pytest.raises(ToolError, match="occurs 2 times"):
        w.replace("notes", "a", "c")
    assert w.get("notes").value == "a b a"


def test_bad_blocks_are_clear_errors():
    with pytest.raises(ValidationError, match="over its limit"):
        Block(name="b", value="xx", limit=1)
    with pytest.raises(ValidationError, match="block name"):
        Block(name="bad name", value="")
    with pytest.raises(ConfigError, match="duplicate"):
        WorkingContext([Block(name="a"), Block(name="a")])
