"""Pasted markup a text formatter passed through: markdown (or a rich-text editor's HTML) writes bare
`h2`/`p`/`ul` blocks and passes raw HTML through as a block of its own between them, so an `<img
onerror>` in a post's body sits beside paragraphs, not beside a text node
(`scripts._among_formatted_prose`). Reported inside a container of user content; a template's own
image with a fallback handler (it carries a class, as the template's elements do) is not."""

from __future__ import annotations

from bughunt.oracles.scripts import check_unescaped_script
from tests.support.pages import Site

_page = Site("http://blog.test", "<html><body><div class='page'>", "</div></body></html>").page

PAYLOAD = '<img src="x" onerror="document.title=\'owned\'">'


def test_a_handler_passed_through_between_a_bodys_paragraphs_is_reported():
    body = (
        '<div class="post-body"><div><h2>Compost</h2><p>Part three of a long series of notes.</p>'
        f"<ul><li>what worked</li></ul><p>Pasted from the old forum:</p>{PAYLOAD}</div></div>"
    )
    (found,) = check_unescaped_script(_page(body, "/posts/compost"))
    assert found.kind == "unescaped_script" and found.evidence["handler"] == "onerror"


def test_a_templates_avatar_fallback_beside_a_comments_paragraph_is_not():
    comment = (
        '<div class="comment"><img class="avatar" src="/a/ana.png" onerror="this.src=\'/a/default.png\'">'
        "<p>Tried this too, it worked well.</p></div>"
    )
    assert check_unescaped_script(_page(comment, "/posts/compost")) == []


def test_a_block_among_named_layout_blocks_is_not_in_running_text():
    layout = f'<div class="post-body"><p class="lead">Part three of a long series.</p>{PAYLOAD}<p class="foot">By ana</p></div>'
    assert check_unescaped_script(_page(layout, "/posts/compost")) == []
