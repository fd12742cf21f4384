"""A blog engine routed by its query string, as plain-PHP flat-file blogs are (issue 25, PluXml).

Every page is `index.php?<path>`: an article `?article2/server-move`, an author's list
`?author1/ann/page3`, the home's second page `?page2`. Its admin edits an article in a form whose title
is required, whose body is kept as HTML source, and whose optional meta fields end it empty. The
readings this site needed, each on what pages mean (made-up site, generic markup):
- another article is another record of one template though its path is the same (`query_twins`): the
  "Written by" every article shows is the template's, no value of an empty meta field;
- a required title left empty is dropped: the heading over the record's body (kept as markup) says what;
- `page<N>` as the last segment of such a query (or of a path, `/page2/`) is page N; page 1 is the
  list's address without it;
- "3 comments" as the whole text of a heading over a box of one `div.comment` counts one comment;
- a trace that prints the request under the error (referrer, address) is keyed by its error line;
- a handler calling a function the page's `<head>` declares is the page's own;
- a sidebar's `header` inside `main` is furniture.
"""

from __future__ import annotations

from bughunt.dom import parse_html
from bughunt.oracles.base import OracleConfig
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.form_pages import query_twins
from bughunt.oracles.form_values import shown_value
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.pagination import check_duplicate_pagination, page_number, previous_page_url
from bughunt.oracles.scripts import check_unescaped_script
from bughunt.oracles.server_error import check_server_error, error_summary
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://journal.test",
    '<html><head><title>Journal</title></head><body><header class="header"><h1><a href="/">Journal</a></h1>'
    '</header><main class="main">',
    '</main><footer><a href="/index.php?static1/about">About</a></footer></body></html>',
)


def article(number: int, slug: str, title: str, author: str = "ann") -> FetchedPage:
    return SITE.page(
        f'<article class="article" id="post-{number}"><header><h2>{title}</h2>'
        f'<div><small><span class="written-by">Written by <a href="/index.php?{author}">{author}</a></span>'
        f"</small></div></header><p>{title}: a short summary of post {number}.</p>"
        f"<p>Paragraph one of {title}, nothing more.</p></article>",
        f"/index.php?article{number}/{slug}",
    )


SERVER_MOVE = article(2, "server-move", "Server move")
HARBOUR = article(5, "harbour-walk", "Harbour walk", "bob")
KNOWN = OracleConfig(known_routes=lambda: ["/", "/index.php?article5/harbour-walk"])


def editor(title: str) -> FetchedPage:
    value = f' value="{title}"' if title else ""
    return SITE.page(
        '<form method="post" id="form_article"><input name="token" type="hidden" value="t0k">'
        '<input name="artId" type="hidden" value="0002"><label for="id_title">Title</label>'
        f'<input id="id_title" name="title" type="text" required{value}>'
        '<label for="id_chapo">Headline</label><textarea id="id_chapo" name="chapo">'
        "&lt;p&gt;Server move: a short summary of post 2.&lt;/p&gt;</textarea>"
        '<label for="id_content">Content</label><textarea id="id_content" name="content">'
        "&lt;p&gt;Paragraph one of Server move, nothing more.&lt;/p&gt;</textarea>"
        '<label for="id_url">Address</label><input id="id_url" name="url" type="text" value="server-move">'
        '<select id="id_template" name="template"><option value="article.php" selected>article.php</option>'
        '</select><label for="id_title_htmltag">Title tag (optional)</label>'
        '<input id="id_title_htmltag" name="title_htmltag" type="text">'
        '<label for="id_meta_description">Description (optional)</label>'
        '<input id="id_meta_description" name="meta_description" type="text">'
        '<input type="submit" name="update" value="Save"></form>'
        '<a href="http://journal.test/index.php?article2/server-move">View the article</a>',
        "/admin/article.php?a=0002",
    )


def test_another_article_at_the_same_script_is_a_twin_and_another_page_of_it_is_not() -> None:
    assert query_twins(SERVER_MOVE.url, HARBOUR.url)
    assert query_twins("http://b.test/?p=12", "http://b.test/?p=13")
    assert not query_twins(SERVER_MOVE.url, "http://journal.test/index.php?article2/server-move/page2")
    assert not query_twins(SERVER_MOVE.url, "http://journal.test/index.php?category3/recipes")
    assert not query_twins("http://b.test/post/3?x=1", "http://b.test/post/3?x=2")  # a path of its own


def test_the_templates_byline_is_no_value_of_the_empty_optional_fields() -> None:
    assert check_form_drops_value(editor("Server move"), SITE.fetcher(SERVER_MOVE, HARBOUR), KNOWN) == []


def test_a_required_title_left_empty_is_the_heading_over_the_records_body() -> None:
    [found] = check_form_drops_value(editor(""), SITE.fetcher(SERVER_MOVE, HARBOUR), KNOWN)
    assert (found.evidence["fields"], found.evidence["shown"]) == ("title", "Server move")


def listing(path: str, titles: list[str], pager: str = "") -> FetchedPage:
    items = "".join(
        f'<article class="article"><header><h2><a href="/index.php?article{ord(t[0])}/{t.lower()}">{t}</a></h2>'
        f"</header><p>{t} summary.</p></article>"
        for t in titles
    )
    return SITE.page(f'<div class="article-loop">{items}</div><nav class="pagination">{pager}</nav>', path)


HOME = listing("/index.php", ["Alpha", "Bravo", "Charlie"], '<a href="/index.php?page2">next</a>')


def test_a_worded_page_segment_pages_the_list_and_page_one_is_its_address_without_it() -> None:
    assert page_number("http://journal.test/index.php?author1/ann/page3")[1:] == (3, True)
    assert previous_page_url(listing("/index.php?author1/ann/page3", ["X", "Y"])) == (
        "http://journal.test/index.php?author1/ann/page2"
    )
    assert previous_page_url(listing("/blog/page2/", ["X", "Y"])) == "http://journal.test/blog/"
    assert page_number("http://journal.test/index.php?category3/recipes") is None
    second = listing("/index.php?page2", ["Charlie", "Delta", "Echo"], '<a href="/">first</a>')
    [found] = check_duplicate_pagination(second, SITE.fetcher(HOME))
    assert found.evidence["previous_url"] == "http://journal.test/index.php"
    clean = listing("/index.php?page2", ["Delta", "Echo", "Foxtrot"], '<a href="/">first</a>')
    assert check_duplicate_pagination(clean, SITE.fetcher(HOME)) == []


def comments(count: str, inner_class: str = "comment level-0") -> FetchedPage:
    return SITE.page(
        f'<h2 id="comments"><span>{count}</span>&nbsp;<a class="rss" href="/feed.php?c"></a></h2>'
        f'<div id="comments-container"><div id="c1" class="{inner_class}"><small>Omar said :</small>'
        "<blockquote><p>Thanks, this was useful.</p></blockquote></div></div>",
        "/index.php?article38/pantry",
    )


def test_a_count_over_one_item_named_for_it_is_compared() -> None:
    [found] = check_count_mismatch(comments("3 comments"))
    assert (found.evidence["shown"], found.evidence["listed"]) == (3, 1)
    assert check_count_mismatch(comments("1 comment")) == []
    assert check_count_mismatch(comments("3 comments", "box")) == []  # a lone box is a wrapper


def fatal(path: str, referrer: str) -> FetchedPage:
    return SITE.page(
        "<pre><code>Fatal error :\ntype : 1 E_ERROR\nmessage : Uncaught Error: Call to a member function "
        "loop() on null in /srv/themes/comments.php:15\nStack trace:\n#0 /srv/article.php(39): include()\n"
        f"thrown\nline : 15\n---\nREQUEST_URI : {path}\nHTTP_REFERER : {referrer}</code></pre>",
        path,
        500,
    )


def test_the_error_line_is_the_traces_not_the_request_printed_under_it() -> None:
    one = fatal("/index.php?article5/harbour-walk", "/index.php?archives/2026/02")
    two = fatal("/index.php?article15/green-curry", "/index.php?category3/recipes")
    assert error_summary(one).startswith("message : Uncaught Error: Call to a member function loop()")
    assert (
        check_server_error(one)[0].evidence["error_key"] == check_server_error(two)[0].evidence["error_key"]
    )


def demo(handler: str) -> FetchedPage:
    page = (
        "<html><head><script>function toggleCodes(on) { document.body.className = on ? 'codes' : ''; }"
        "</script></head><body><div class='container header'><h1>icons <small>font demo</small></h1>"
        f"<label class='switch'><input type='checkbox' onclick=\"{handler}\">show codes</label></div></body></html>"
    )
    return FetchedPage(
        "http://journal.test/fonts/demo.html", "/fonts/demo.html", 200, {}, "text/html", page, 1.0
    )


def test_a_handler_calling_the_heads_own_function_is_the_pages() -> None:
    assert check_unescaped_script(demo("toggleCodes(this.checked)")) == []
    assert len(check_unescaped_script(demo("alert(1)"))) == 1
    assert len(check_unescaped_script(demo("toggleCodes(1); alert(1)"))) == 1


def test_a_sidebars_header_inside_main_is_furniture() -> None:
    doc = parse_html(
        '<html><body><main class="main"><aside class="aside"><header><a class="back-site" href="../">Home</a>'
        '<h1 class="site-name">Journal</h1></header></aside><section><table><tr><td class="site">&nbsp;</td>'
        "</tr></table></section></main></body></html>"
    )
    assert shown_value(doc, {"site"}) == ""
    own = parse_html(
        '<html><body><main><article><header><p class="site">example.org</p></header></article></main></body></html>'
    )
    assert shown_value(own, {"site"}) == "example.org"
