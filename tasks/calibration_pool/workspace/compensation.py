"""Environmental compensation applied per acquisition run."""
from calibration import Calibration
from pool import CalibrationPool

# Thermistor drift measured for the whole sensor family, in output units per
# degree away from the bench temperature.
DRIFT_PER_DEGREE = 0.02
BENCH_TEMPERATURE = 20.0
NOMINAL_SUPPLY = 5.0


def for_conditions(pool: CalibrationPool, sensor_id: str, ambient: float, supply: float = NOMINAL_SUPPLY) -> Calibration:
    """A calibration adjusted for the ambient temperature and supply voltage of one run."""
    working = pool.checkout(sensor_id)
    drift = (ambient - BENCH_TEMPERATURE) * DRIFT_PER_DEGREE
    if drift:
        working.shifted(-drift)
        working.notes.append(f"compensated for {ambient:.1f} C")
    if supply != NOMINAL_SUPPLY:
        working.scaled(NOMINAL_SUPPLY / supply)
        working.notes.append(f"scaled for {supply:.2f} V supply")
    return working


def convert_run(pool: CalibrationPool, sensor_id: str, raws: list[float], ambient: float, supply: float = NOMINAL_SUPPLY) -> list[float]:
    cal = for_conditions(pool, sensor_id, ambient, supply)
    return [round(cal.apply(r), 4) for r in raws]
