import math

import pytest

from bodies import Body, centre_of_mass, sun_earth_moon
from observe import angular_momentum, distance_au, orbit_angle, relative_energy_drift, track
from simulation import Simulation
from vendor.vecmath import AU_M, DAY_S, Vec3

HOUR = 3600.0


def new_sim():
    return Simulation(sun_earth_moon(), dt=HOUR)


def test_vectors():
    v = Vec3(1, 2, 2)
    assert v.norm() == 3.0
    w = v
    w += Vec3(1, 0, 0)
    assert v == Vec3(2, 2, 2) and (v + v) == Vec3(4, 4, 4) and v == Vec3(2, 2, 2)


def test_earth_stays_about_one_au_from_the_sun():
    sim = new_sim().run(24 * 30)
    assert 0.99 < distance_au(sim, "sun", "earth") < 1.01
    assert 0.0024 < distance_au(sim, "earth", "moon") < 0.0028


def test_energy_is_nearly_conserved():
    assert relative_energy_drift(new_sim(), 24 * 10) < 1e-6


def test_angular_momentum_and_orbit_angle():
    sim = new_sim()
    before = angular_momentum(sim)
    start = tuple(sim.body("earth").pos)
    sim.run(24 * 30)
    assert math.isclose(angular_momentum(sim).z, before.z, rel_tol=1e-9)
    # about 30 days of a 365-day orbit: 0.52 rad
    assert 0.50 < orbit_angle(sim, "earth", "sun", start) < 0.53


def test_centre_of_mass_is_near_the_sun():
    assert centre_of_mass(sun_earth_moon()).norm() < 0.01 * AU_M
    with pytest.raises(ValueError):
        Simulation([], dt=0)


def test_track_samples_positions():
    points = track(new_sim(), "earth", every=24, samples=3)
    assert len(points) == 3 and len(set(points)) == 3
    assert math.isclose(points[0][0], AU_M, rel_tol=1e-3)


def test_rewind_returns_to_the_checkpoint():
    sim = new_sim().run(24)
    saved = tuple(sim.body("earth").pos)
    cp = sim.checkpoint()
    sim.run(24 * 5)
    sim.rewind(cp)
    assert sim.t == DAY_S
    assert tuple(sim.body("earth").pos) == saved, "earth is not where it was at the checkpoint"


def test_what_if_runs_from_one_checkpoint_agree():
    sim = new_sim().run(24)
    cp = sim.checkpoint()
    sim.run(24)
    first = tuple(sim.body("moon").pos)
    sim.rewind(cp).run(24)
    second = tuple(sim.body("moon").pos)
    sim.rewind(cp).run(24)
    third = tuple(sim.body("moon").pos)
    assert first == second == third, f"three runs of one day from the same checkpoint: {first}, {second}, {third}"
