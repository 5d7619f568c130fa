import threading
import unittest

from balance import best_swap, play_match, rating_gap
from lobby import Lobby, LobbyFull
from matchqueue import MatchQueue
from players import Player
from server import LobbyServer, MoveRefused


class Rendezvous:
    """An anti-cheat check slow enough that two moves are inside it at once."""

    def __init__(self, parties):
        self.barrier = threading.Barrier(parties, timeout=0.5)

    def __call__(self, player, source, target):
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            pass


def run_all(*calls, timeout=2.0):
    errors = []

    def wrap(fn):
        def target():
            try:
                fn()
            except Exception as exc:
                errors.append(repr(exc))
        return target

    threads = [threading.Thread(target=wrap(fn), daemon=True) for fn in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return [t for t in threads if t.is_alive()], errors


def server_with(check=None):
    server = LobbyServer(check_move=check)
    red = server.open_lobby(Lobby("red", capacity=4))
    blue = server.open_lobby(Lobby("blue", capacity=4))
    players = {h: Player(h, r) for h, r in [("ash", 1800), ("bea", 1400), ("cid", 1300), ("dot", 1100)]}
    red.join(players["ash"])
    red.join(players["bea"])
    blue.join(players["cid"])
    blue.join(players["dot"])
    return server, players


class MoveTest(unittest.TestCase):
    def test_transfer(self):
        server, p = server_with()
        server.transfer(p["ash"], "red", "blue")
        self.assertEqual(server.census(), {"blue": ["ash", "cid", "dot"], "red": ["bea"]})

    def test_refusals(self):
        server, p = server_with()
        p["bea"].banned = True
        with self.assertRaises(MoveRefused):
            server.transfer(p["bea"], "red", "blue")
        server.open_lobby(Lobby("na-1", region="na"))
        with self.assertRaises(MoveRefused):
            server.transfer(p["ash"], "red", "na-1")
        tiny = server.open_lobby(Lobby("tiny", capacity=1))
        tiny.join(Player("zed"))
        with self.assertRaises(LobbyFull):
            server.transfer(p["ash"], "red", "tiny")
        self.assertEqual(server.lobbies["red"].handles(), ["ash", "bea"])

    def test_swap_balances(self):
        server, p = server_with()
        self.assertEqual(rating_gap(server, "red", "blue"), 400)
        a, b = best_swap(server, "red", "blue")
        self.assertEqual((a.handle, b.handle), ("ash", "cid"))
        server.swap(a, "red", b, "blue")
        self.assertEqual(rating_gap(server, "red", "blue"), 100)


class ConcurrentMoveTest(unittest.TestCase):
    def test_opposite_transfers_both_finish(self):
        server, p = server_with(Rendezvous(2))
        stuck, errors = run_all(
            lambda: server.transfer(p["ash"], "red", "blue"),
            lambda: server.transfer(p["cid"], "blue", "red"),
        )
        self.assertEqual(stuck, [], "transfers in opposite directions never finished")
        self.assertEqual(errors, [])
        self.assertEqual(server.census(), {"blue": ["ash", "dot"], "red": ["bea", "cid"]})

    def test_swap_and_transfer_at_once(self):
        server, p = server_with(Rendezvous(2))
        stuck, errors = run_all(
            lambda: server.swap(p["dot"], "blue", p["bea"], "red"),
            lambda: server.transfer(p["ash"], "red", "blue"),
        )
        self.assertEqual(stuck, [], "swap and transfer deadlocked")
        self.assertEqual(sorted(h for hs in server.census().values() for h in hs), ["ash", "bea", "cid", "dot"])
        self.assertEqual(server.free_places(), 4)


class RatingTest(unittest.TestCase):
    def test_match_moves_points(self):
        server, _ = server_with()
        moved = play_match(server, "blue", "red")
        # cid (1300) beats ash (1800): 30 points; dot (1100) beats bea (1400): 27 points
        self.assertEqual(moved, 57)
        self.assertEqual(server.lobbies["red"].average_rating(), 1572)


class QueueTest(unittest.TestCase):
    def test_queue_forms_lobbies_within_the_rating_window(self):
        queue = MatchQueue(lobby_size=2, window=100, widen_per_tick=50)
        for handle, rating in [("a", 1000), ("b", 1400), ("c", 1080), ("d", 1290)]:
            queue.enqueue(Player(handle, rating))
        self.assertEqual(queue.tick(), [["a", "c"]])
        self.assertEqual(queue.waiting(), ["b", "d"])
        self.assertEqual(queue.tick(), [["d", "b"]])
        self.assertEqual(queue.waiting(), [])


if __name__ == "__main__":
    unittest.main()
