"""Three false reports on a static documentation site nobody here wrote (CPython 3.11's Sphinx HTML, served
as files, no planted bug), each on what a page means, not on Sphinx's markup:

- computer code quoted in a page (`<code>a_tuple[0]</code>`, `x.f(1)`) is an index or a call, not a
  label "a_tuple (0)" over the list after it;
- a link whose label names code (`purge()`, `__delete__() (object method)`, an index of functions) says
  no destructive verb to the person who clicks;
- a search page that says in words it needs scripts (`<noscript>`) draws its box by script: the empty
  `value` of its markup is not a dropped query.

The pages are small ones of our own, drawn the way documentation generators draw them.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.destructive_words import destructive_label
from bughunt.page import FetchedPage
from tests.support.pages import Site

_page = Site("http://docs.test", "<html><body>", "</body></html>").page


def kinds(oracle: str, page: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES[oracle](page)]


def _section(quoted: str) -> FetchedPage:
    body = (
        '<div class="section"><h3>Methods</h3><p>When <code class="literal"><span class="pre">x</span></code> is'
        f" an instance, calling {quoted} is fine.</p><ul><li><p>one thing</p></li><li><p>other thing</p></li></ul></div>"
    )
    return _page(body, "/reference/methods.html")


def test_code_quoted_in_a_page_is_no_count_label():
    assert (
        kinds("count_mismatch", _section('<code class="literal"><span class="pre">x.f(1)</span></code>'))
        == []
    )
    assert kinds("count_mismatch", _section("<kbd>argv[1]</kbd>")) == []
    # the same words as a label of the page's own still count
    assert kinds("count_mismatch", _section("<span>Things (1)</span>")) == ["count_mismatch"]


def test_a_label_naming_code_is_no_destructive_verb():
    assert not destructive_label("purge()")
    assert not destructive_label("__delete__() (object method)")
    assert not destructive_label("os.remove")
    assert destructive_label("Delete") and destructive_label(
        "delete_forever"
    )  # an icon ligature draws a verb
    index = (
        '<ul><li><a href="/library/re.html#re.purge"><code><span class="pre">purge()</span></code></a></li>'
        '<li><a href="/reference/datamodel.html#object.__delete__">__delete__() (object method)</a></li></ul>'
    )
    assert kinds("unconfirmed_destructive", _page(index, "/genindex.html")) == []
    # an index entry that is a plain word, to a place in a page, is a reference, not an action
    entry = '<ul><li><a href="/library/ast.html#ast.Delete">Delete (class in ast)</a></li></ul>'
    assert kinds("unconfirmed_destructive", _page(entry, "/genindex-D.html")) == []
    row = '<ul><li><a href="/files/3">notes.txt</a> <a href="/trash/3">Delete</a></li></ul>'
    assert kinds("unconfirmed_destructive", _page(row, "/files")) == ["unconfirmed_destructive"]


def _search(extra: str) -> FetchedPage:
    form = '<form action="" method="get"><input type="text" name="q" value=""><input type="submit" value="search"></form>'
    return _page(f"<h1>Search</h1>{extra}{form}<div id=search-results></div>", "/search.html?q=test")


def test_a_search_page_that_needs_scripts_fills_its_box_by_script():
    assert (
        kinds(
            "form_drops_value", _search("<noscript><p>Please activate JavaScript to search.</p></noscript>")
        )
        == []
    )
    # a page that says nothing of scripts, or only carries a tracking frame, is judged
    assert kinds("form_drops_value", _search("")) == ["form_drops_value"]
    assert kinds("form_drops_value", _search('<noscript><iframe src="/pixel"></iframe></noscript>')) == [
        "form_drops_value"
    ]
