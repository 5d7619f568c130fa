"""Just enough positional astronomy to plan a night: sidereal time and altitude, to about a degree."""
import math

J2000_JD = 2451545.0


def julian_day(year, month, day, hour_ut=0.0):
    if month <= 2:
        year, month = year - 1, month + 12
    a = year // 100
    b = 2 - a + a // 4
    return int(365.25 * (year + 4716)) + int(30.6001 * (month + 1)) + day + b - 1524.5 + hour_ut / 24


def local_sidereal_degrees(jd, longitude_deg):
    d = jd - J2000_JD
    return (280.46061837 + 360.98564736629 * d + longitude_deg) % 360


def altitude_deg(ra_deg, dec_deg, latitude_deg, lst_deg):
    ha = math.radians((lst_deg - ra_deg) % 360)
    dec, lat = math.radians(dec_deg), math.radians(latitude_deg)
    s = math.sin(dec) * math.sin(lat) + math.cos(dec) * math.cos(lat) * math.cos(ha)
    return math.degrees(math.asin(max(-1.0, min(1.0, s))))


def airmass(alt_deg):
    """Plane-parallel approximation; fine above 20 degrees."""
    if alt_deg <= 0:
        return float("inf")
    return 1 / math.sin(math.radians(alt_deg))
