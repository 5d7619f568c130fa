import pytest

from lots import BidRefused, Lot
from snapshot import Sale, restore, save


def sale():
    s = Sale("Spring Interiors")
    s.register.add(11, "Ines", 50_000)
    s.register.add(12, "Oskar", 8_000)
    s.register.add(13, "Petra", 30_000)
    s.add_lot(Lot(1, "Walnut bureau", reserve=1_500, opening=800))
    s.add_lot(Lot(2, "Pair of Delft vases", reserve=4_000, opening=2_000))
    return s


def test_room_bidding_and_hammer():
    s = sale()
    lot = s.lots[1]
    lot.bid(s.register[11], 800)
    lot.bid(s.register[13], 850)
    with pytest.raises(BidRefused):
        lot.bid(s.register[11], 860)
    lot.bid(s.register[11], 1_600)
    assert lot.hammer().amount == 1_600
    assert s.register[11].won == [(1, 1_600)]


def test_absentee_bid_outbids_the_room():
    s = sale()
    lot = s.lots[2]
    lot.leave_proxy(s.register[13], 3_000)
    assert [(b.bidder.paddle, b.amount) for b in lot.bids] == [(13, 2_000)]
    lot.bid(s.register[12], 2_500)
    assert (lot.leading().bidder.paddle, lot.leading().amount) == (13, 2_600)


def test_restore_keeps_bidders_shared():
    s = sale()
    s.lots[1].bid(s.register[11], 800)
    s.lots[2].bid(s.register[11], 2_000)
    back = restore(save(s))
    assert back.lots[1].bids[0].bidder is back.lots[2].bids[0].bidder is back.register[11]


def test_restored_sale_keeps_absentee_bids_working():
    s = sale()
    s.lots[2].leave_proxy(s.register[13], 3_000)
    back = restore(save(s))
    back.lots[2].bid(back.register[12], 2_500)
    lead = back.lots[2].leading()
    assert (lead.bidder.paddle, lead.amount, lead.proxy) == (13, 2_600, True)


def test_sale_results_match_with_and_without_a_laptop_swap():
    def session(swap):
        s = sale()
        s.lots[1].leave_proxy(s.register[12], 1_200)
        s.lots[2].leave_proxy(s.register[11], 6_000)
        if swap:
            s = restore(save(s))
        s.lots[1].bid(s.register[13], 900)
        s.lots[2].bid(s.register[13], 5_000)
        for lot in s.lots.values():
            lot.hammer()
        return s.results(), s.register[11].committed()

    assert session(swap=True) == session(swap=False) == ({1: None, 2: (11, 5_500)}, 5_500)


def test_round_trip_is_byte_identical():
    s = sale()
    s.lots[2].leave_proxy(s.register[13], 3_000)
    once = save(s)
    assert save(restore(once)) == once
