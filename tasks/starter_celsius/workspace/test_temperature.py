from temperature import to_celsius


def test_boiling_point():
    assert to_celsius(212) == 100.0


def test_freezing_point():
    assert to_celsius(32) == 0.0


def test_body_temperature():
    assert to_celsius(98.6) == 37.0
