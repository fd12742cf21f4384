"""Fingerprints and the HTML helpers the explorer uses on any site."""

from __future__ import annotations

from bughunt.actions import extract_links
from bughunt.dom import parse_html
from bughunt.fingerprint import fingerprint, fingerprint_parts, normalise_message, normalise_route
from bughunt.page import FetchedPage, is_html
from bughunt.urls import route_of


def test_volatile_parts_are_normalised_away():
    a = "IndexError: offset 10 out of range for 7 results at 2026-11-30T06:45:41Z (req 3f9a2b7c1d)"
    b = "IndexError: offset 20 out of range for 9 results at 2026-12-01 10:00:02 (req 0a1b2c3d4e)"
    assert normalise_message(a) == normalise_message(b)
    assert normalise_message(a) == "indexerror: offset <n> out of range for <n> results at <time> (req <hex>)"
    assert normalise_message("user 123e4567-e89b-12d3-a456-426614174000 gone") == "user <uuid> gone"
    assert fingerprint("/search/2", "server_error", a) == fingerprint("/search/2", "server_error", b)


def test_route_and_kind_and_words_keep_bugs_apart():
    base = fingerprint("/feed/3", "duplicate_pagination", "repeats items")
    assert base != fingerprint("/feed/2", "duplicate_pagination", "repeats items")
    assert base != fingerprint("/feed/3", "count_mismatch", "repeats items")
    assert base != fingerprint("/feed/3", "duplicate_pagination", "drops items")
    assert normalise_route("/orders/99812/items/5") == "/orders/<id>/items/5"
    assert normalise_route("/cart?sid=9f86d081884c7d65&page=2") == "/cart?sid=<id>&page=2"
    parts = fingerprint_parts("/a", "server_error", "HTTP 500 boom 42")
    assert parts.key == "/a|server_error|http <n> boom <n>" and len(parts.digest) == 16


def page(body: str, url: str = "http://a.test/dir/page", content_type: str = "text/html") -> FetchedPage:
    return FetchedPage(url, route_of(url), 200, {}, content_type, body, 0.0)


def test_links_are_absolute_same_origin_in_order_without_repeats():
    body = (
        '<a href="/x">x</a><a href="y#frag">y</a><a href="http://other.test/z">z</a>'
        '<a href="mailto:a@b">m</a><a href="/x">again</a><a href="javascript:void(0)">j</a>'
        '<a href="/dl.zip" download>d</a><a rel="nofollow" href="/nf">n</a>'
        '<form method="get" action="/find"></form><form method="post" action="/save"></form>'
    )
    assert extract_links(page(body)) == ["http://a.test/x", "http://a.test/dir/y", "http://a.test/nf"]
    assert extract_links(page(body), include_forms=True)[-1] == "http://a.test/find"
    assert extract_links(page('<base href="/root/"><a href="k">k</a>')) == ["http://a.test/root/k"]
    assert extract_links(page('<a href="/x">x</a>', content_type="application/pdf")) == []


def test_parser_tolerates_broken_html():
    doc = parse_html("<div><p>one<p>two</span><ul><li>a<li>b</ul><script>if (a < b) {}</script>")
    assert [p.text() for p in doc.find_all("p")] == ["one", "two"]
    assert [li.text() for li in doc.find_all("li")] == ["a", "b"]
    assert doc.find_all("script")[0].raw_text() == "if (a < b) {}"


def test_media_types():
    assert is_html("text/html; charset=utf-8") and is_html("application/xhtml+xml")
    assert not is_html("application/json") and not is_html("")
    assert route_of("http://a.test") == "/" and route_of("http://a.test/s?q=1") == "/s?q=1"


def test_fetch_survives_odd_servers():
    """Unknown charsets decode as UTF-8; a truncated body is an OSError, not a crash."""
    import socket
    import threading

    import pytest

    from bughunt.explorer.transport import fetch_page

    replies = [
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=x-klingon\r\nContent-Length: 9\r\n\r\n<p>ok</p>",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 500\r\n\r\n<p>cut",
    ]
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve():
        for reply in replies:
            conn, _ = server.accept()
            conn.recv(4096)
            conn.sendall(reply)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.getsockname()[1]}/"
    try:
        assert fetch_page(url, timeout=5).body == "<p>ok</p>"
        with pytest.raises(OSError):
            fetch_page(url, timeout=5)
    finally:
        thread.join(timeout=5)
        server.close()


def test_short_text_is_text_when_short_enough_and_none_otherwise():
    from bughunt.dom import parse_html

    for doc in (
        "<div> a  b\n c <span>dd</span>e<script>x y</script> f</div>",
        "<p></p><p>   </p>",
        "<p>" + "word " * 30 + "</p>",
        "<div><p>ab</p><p>cd</p></div>",
    ):
        for node in parse_html(doc).iter():
            text = node.text()
            for limit in (0, 1, 2, 3, 5, 10, 60, 200):
                assert node.short_text(limit) == (text if len(text) <= limit else None), (doc, limit)
