from bughunt.explorer.meta_refresh import replaced_at_once


def test_a_refresh_with_no_delay_replaces_the_page_in_any_attribute_order_and_case() -> None:
    assert replaced_at_once(
        '<!doctype html><title>R</title><meta http-equiv="refresh" content="0"><h1>x</h1>'
    )
    assert replaced_at_once('<html><head><meta content="0; url=/x" http-equiv="Refresh"></head></html>')
    assert replaced_at_once("<meta http-equiv=refresh content='0.5;url=/a'>")  # the integer part is the delay


def test_a_delayed_refresh_a_noscript_one_and_a_page_without_one_are_read_as_they_are() -> None:
    assert not replaced_at_once('<meta http-equiv="refresh" content="5">')
    assert not replaced_at_once(
        '<head><noscript><meta http-equiv="refresh" content="0; url=/nojs"></noscript></head>'
    )
    assert not replaced_at_once('<meta http-equiv="content-type" content="0"><p>refresh</p>')
    assert not replaced_at_once('<meta http-equiv="refresh" content="">')
