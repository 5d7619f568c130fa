from players import Player
from seeding import first_round
from tournament import Tournament


def club_night(capacity=4):
    t = Tournament("Club night", capacity)
    for name, rating in [("Ines", 1650), ("Omar", 2010), ("Pia", 1820), ("Li", 1500), ("Max", 2100)]:
        t.register(Player(name, rating))
    return t


def test_first_round_pairs_top_against_bottom():
    field = [Player("a", 1000), Player("b", 1400), Player("c", 1200), Player("d", 1100)]
    pairs = [(x.name, y.name) for x, y in first_round(field)]
    assert pairs == [("b", "a"), ("c", "d")]


def test_odd_field_gives_top_seed_a_bye():
    field = [Player("a", 1000), Player("b", 1400), Player("c", 1200)]
    assert [(x.name, y and y.name) for x, y in first_round(field)] == [("b", None), ("c", "a")]


def test_seeds_of_the_field():
    t = club_night()
    assert t.seeds() == ["Omar (2010)", "Pia (1820)", "Ines (1650)", "Li (1500)"]


def test_latest_registration_is_waitlisted():
    t = club_night()
    t.preview_pairings()
    assert [p.name for p in t.waitlist()] == ["Max"]


def test_check_in_sheet_keeps_registration_order():
    t = club_night(capacity=5)
    t.seeds()
    t.preview_pairings()
    assert t.check_in_sheet() == ["Ines", "Omar", "Pia", "Li", "Max"]


def test_duplicate_registration_refused():
    t = club_night()
    try:
        t.register(Player("Li", 1500))
    except ValueError:
        return
    raise AssertionError("second registration of Li was accepted")


def test_playing_the_bracket_to_a_champion():
    t = club_night()
    bracket = t.start()
    assert [(a.name, b.name) for a, b in bracket.current()] == [("Omar", "Li"), ("Pia", "Ines")]
    omar, ines = bracket.current()[0][0], bracket.current()[1][1]
    bracket.record(omar)
    bracket.record(ines)
    assert [(a.name, b.name) for a, b in bracket.advance()] == [("Omar", "Ines")]
    bracket.record(ines)
    assert bracket.champion() == ines
