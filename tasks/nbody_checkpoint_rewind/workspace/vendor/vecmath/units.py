"""SI constants often needed with vectors of positions and velocities."""
G = 6.674_30e-11           # m^3 kg^-1 s^-2 (CODATA 2018)
AU_M = 1.495_978_707e11    # astronomical unit, m
DAY_S = 86_400.0
YEAR_S = 365.25 * DAY_S
