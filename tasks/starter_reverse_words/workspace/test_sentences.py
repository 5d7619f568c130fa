from sentences import reverse_words


def test_three_words_reversed():
    assert reverse_words("one two three") == "three two one"


def test_single_word():
    assert reverse_words("solo") == "solo"
