"""`python -m benchmarks.links` at tiny sizes: the table, the JSON and the plot (figures not asserted)."""

from __future__ import annotations

import json

from benchmarks.links import links_page, main


def test_the_links_benchmark_times_the_first_step_beside_the_bare_parse(tmp_path, capsys):
    png = tmp_path / "links.png"
    assert main(["--sizes", "20,40", "--json", "--plot", str(png)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["links"] for r in data["rows"]] == [20, 40]
    assert all(
        r["hrefs_seen"] == r["links"] and r["first_step_s"] > 0 and r["bare_s"] > 0 for r in data["rows"]
    )
    assert png.read_bytes().startswith(b"\x89PNG")
    assert links_page(3).count(b"<a href=") == 3
