from parity import evens


def test_mixed_numbers():
    assert evens([1, 2, 3, 4]) == [2, 4]


def test_no_even_numbers():
    assert evens([1, 3]) == []
