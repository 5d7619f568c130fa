from bounds import clamp


def test_value_inside_is_kept():
    assert clamp(5, 0, 10) == 5


def test_value_above_is_clamped():
    assert clamp(15, 0, 10) == 10


def test_value_below_is_clamped():
    assert clamp(-3, 0, 10) == 0
