from wordcount import count_words


def test_three_words():
    assert count_words("the quick fox") == 3


def test_extra_spaces():
    assert count_words("  two   words ") == 2


def test_empty_text_has_no_words():
    assert count_words("") == 0
