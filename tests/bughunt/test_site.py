from bughunt import site


def test_link_order_follows_seed_rule():
    # Home: nav without itself, then locals not in nav.
    assert site.LINKS[0] == (4, 3, 5, 1, 2, 8, 10, 11, 12, 14, 22)
    assert site.LINKS[3] == (0, 4, 5, 20)
    assert site.LINKS[21] == (0, 4, 3, 5)  # its only local link (Settings) is a nav link


def test_site_shape():
    assert site.N_PAGES == 24
    assert sorted(site.BUG_PAGES) == [7, 9, 13, 15, 21, 23]
    assert len(site.bugs_in_version("1.2")) == 6
    assert [b.page for b in site.bugs_in_version("1.3")] == [7, 9, 13, 15, 21]
