"""`python -m benchmarks.browser_overhead`: the explorer's figures per page with its start-up taken out —
the process wall's and the loop's (the session's span in its store) — and a before run from another
tree (`--against`) rendered beside the same bare loop."""

from __future__ import annotations

from benchmarks.browser_overhead import Ran, _side, render


def test_the_start_up_run_is_taken_out_of_each_figure_per_page() -> None:
    run, start = Ran(0, 10.0, 6.0, "", ""), Ran(0, 4.0, 2.0, "", "")
    side = _side(run, start, pages=20)
    assert side["wall_s_per_page"] == 0.3 and side["cpu_s_per_page"] == 0.2


def test_the_before_tree_is_rendered_beside_the_bare_loop() -> None:
    side = {"pages": 30, "wall_s_per_page": 0.2, "cpu_s_per_page": 0.15, "loop_s_per_page": 0.18}
    side |= {"start_wall_s": 4.0, "start_cpu_s": 3.0}
    median = {"explorer": side, "bare": side, "against": side | {"loop_s_per_page": 0.3}}
    median |= {"wall_ratio": 1.0, "cpu_ratio": 1.0, "loop_ratio": 1.0}
    median |= {"against_wall_ratio": 1.5, "against_cpu_ratio": 1.1, "against_loop_ratio": 1.67}
    result = {"budget": 30, "seed": 1000, "repeats": 1, "cpus": 2, "load_start": [1.0, 1.0, 1.0]}
    result |= {"load_end": [1.0, 1.0, 1.0], "against": "/old", "sites": {"builtin": {"median": median}}}
    text = render(result)
    assert "loop ms/page" in text
    assert "1.67x   (against / bare; against = /old)" in text
    assert "1.00x   (explorer / bare)" in text
