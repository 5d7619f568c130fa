"""Orders a driver's delivery stops with a nearest-neighbour walk from the depot.

Stops are ``(latitude, longitude)`` pairs. Distances use a flat-earth approximation, which is plenty for one city.
"""
import math

Stop = tuple  # (lat, lon)


def distance_km(a: Stop, b: Stop) -> float:
    mean_lat = math.radians((a[0] + b[0]) / 2)
    dx = (b[1] - a[1]) * 111.32 * math.cos(mean_lat)
    dy = (b[0] - a[0]) * 110.57
    return math.hypot(dx, dy)


def order_stops(depot: Stop, stops) -> list:
    remaining = [tuple(s) for s in stops]
    ordered = []
    here = tuple(depot)
    while remaining:
        nearest = min(remaining, key=lambda s: (distance_km(here, s), s))
        remaining.remove(nearest)
        ordered.append(nearest)
        here = nearest
    return ordered


def route_length_km(depot: Stop, ordered) -> float:
    points = [tuple(depot), *ordered]
    return sum(distance_km(a, b) for a, b in zip(points, points[1:]))
