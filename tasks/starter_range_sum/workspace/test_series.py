from series import total_up_to


def test_up_to_four():
    assert total_up_to(4) == 10


def test_up_to_one():
    assert total_up_to(1) == 1


def test_below_one_is_zero():
    assert total_up_to(0) == 0
