import threading
import unittest

from board import GateBoard, NoGateAvailable
from dispatch import double_booked, run_desks
from flights import Flight, hhmm
from gates import Gate, Terminal
from schedule import ScheduleError, parse_schedule, split_between_desks, utilisation


def terminal():
    t = Terminal()
    t.add(Gate("A1", "C", "A"))
    t.add(Gate("A2", "C", "A", neighbours=("A3",)))
    t.add(Gate("A3", "E", "A", customs=True, neighbours=("A2",)))
    t.add(Gate("B1", "F", "B", customs=True))
    return t


def flight(number, aircraft, on, off, international=False):
    return Flight(number, aircraft, hhmm(on), hhmm(off), international)


class SlowStandCheck:
    """The stand service takes a while; both desks are inside it at the same time."""

    def __init__(self, parties):
        self.barrier = threading.Barrier(parties, timeout=0.5)
        self.calls = []

    def __call__(self, flight, gate):
        self.calls.append((flight.number, gate.name))
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            pass


MORNING = """
# flight type on-off
EZ101 A320 08:00-08:45
FR22  B738 08:05-09:00
W61   A321 08:10-08:50
EZ103 A320 09:30-10:00
"""


class GateBoardTest(unittest.TestCase):
    def test_smallest_fitting_gate_first(self):
        board = GateBoard(terminal())
        self.assertEqual(board.assign(flight("EZ101", "A320", "08:00", "08:45")), "A1")
        self.assertEqual(board.assign(flight("BA7", "B789", "08:10", "10:00", True)), "A3")

    def test_overlapping_flights_get_different_gates(self):
        board = GateBoard(terminal())
        board.assign(flight("EZ101", "A320", "08:00", "08:45"))
        self.assertEqual(board.assign(flight("FR22", "B738", "08:30", "09:10")), "A2")

    def test_wide_body_blocks_its_neighbour(self):
        board = GateBoard(terminal())
        board.assign(flight("EZ101", "A320", "08:00", "08:45"))
        board.assign(flight("QR3", "A332", "08:00", "11:00", True))
        self.assertEqual(board.assign(flight("FR22", "B738", "08:30", "09:10")), "B1")

    def test_no_gate_raises(self):
        board = GateBoard(terminal())
        board.assign(flight("EK1", "A388", "08:00", "12:00", True))
        with self.assertRaises(NoGateAvailable):
            board.assign(flight("EK3", "A388", "09:00", "11:00", True))

    def test_release_frees_the_gate(self):
        board = GateBoard(terminal())
        f = flight("EK1", "A388", "08:00", "12:00", True)
        board.assign(f)
        self.assertEqual(board.release(f), "B1")
        self.assertEqual(board.assign(flight("EK3", "A388", "09:00", "11:00", True)), "B1")


class ConcurrentDesksTest(unittest.TestCase):
    def test_two_desks_never_share_a_gate(self):
        check = SlowStandCheck(parties=2)
        board = GateBoard(terminal(), stand_check=check)
        desks, stuck = run_desks(board, [
            [flight("EZ101", "A320", "08:00", "08:45")],
            [flight("FR22", "B738", "08:05", "09:00")],
        ])
        self.assertEqual(stuck, [])
        self.assertEqual([d.errors for d in desks], [[], []])
        self.assertEqual(double_booked(board), [])
        self.assertEqual(sorted(board.by_gate()), ["A1", "A2"])

    def test_busy_morning_across_three_desks(self):
        check = SlowStandCheck(parties=3)
        board = GateBoard(terminal(), stand_check=check)
        flights = parse_schedule(MORNING)
        desks, stuck = run_desks(board, split_between_desks(flights, 3))
        self.assertEqual(stuck, [])
        self.assertEqual(double_booked(board), [])
        placed = sorted(n for d in desks for n in d.placed)
        self.assertEqual(placed, ["EZ101", "EZ103", "FR22", "W61"])
        self.assertEqual(sorted(board.by_gate()), ["A1", "A2", "A3"])
        self.assertRegex(desks[2].summary(), r"^desk 2: W61@A[123]$")


class ScheduleTest(unittest.TestCase):
    def test_parse_and_split(self):
        flights = parse_schedule(MORNING + "BA7 B789 10:00-12:00 INT\n")
        self.assertEqual([f.number for f in flights], ["EZ101", "FR22", "W61", "EZ103", "BA7"])
        self.assertTrue(flights[-1].international)
        lists = split_between_desks(flights, 2)
        self.assertEqual([[f.number for f in l] for l in lists], [["EZ101", "W61", "BA7"], ["FR22", "EZ103"]])
        with self.assertRaises(ScheduleError):
            parse_schedule("EZ101 A320 8:00-08:45")

    def test_utilisation(self):
        board = GateBoard(terminal())
        for f in parse_schedule(MORNING):
            board.assign(f)
        self.assertEqual(utilisation(board, hhmm("08:00"), hhmm("10:00")), {"A1": 62, "A2": 46, "A3": 33, "B1": 0})


if __name__ == "__main__":
    unittest.main()
