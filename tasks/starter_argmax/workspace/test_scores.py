from scores import index_of_max


def test_max_in_middle():
    assert index_of_max([3, 9, 4]) == 1


def test_max_first():
    assert index_of_max([8, 1, 2]) == 0


def test_single_value():
    assert index_of_max([5]) == 0
