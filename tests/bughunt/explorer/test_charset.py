"""The response charset kept per Content-Type is the one httpx reads from that header."""

import pytest

from bughunt.explorer import transport
from bughunt.explorer.httpx_client import httpx


@pytest.mark.parametrize(
    "content_type",
    ["text/html", "text/html; charset=UTF-8", 'text/html; charset="latin-1"', "text/html;charset=koi8-r;x=1",
     "text/html; CHARSET=utf-16", "", "text/html; charset=", "application/xhtml+xml; charset=iso-8859-2"],
)  # fmt: skip
def test_the_charset_kept_per_content_type_is_the_one_httpx_reads(content_type: str) -> None:
    expected = httpx.Response(200, headers={"content-type": content_type}).charset_encoding
    assert transport._charset(content_type) == expected
    assert transport._charset(content_type) == expected  # kept
    assert transport._charset(None) is None
