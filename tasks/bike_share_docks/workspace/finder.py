from stations import distance_km


def nearest(stations, lat, lon, want="rent", electric=False, limit=3):
    def usable(s):
        return s.can_rent(electric) if want == "rent" else s.can_return()

    ranked = sorted(
        ((round(distance_km(lat, lon, s.lat, s.lon), 2), s.code) for s in stations if usable(s)),
    )
    return ranked[:limit]


def network_status(stations):
    online = [s for s in stations if s.online]
    return {
        "stations": len(stations),
        "online": len(online),
        "bikes": sum(s.bikes for s in online),
        "ebikes": sum(s.ebikes for s in online),
        "free_docks": sum(s.free_docks for s in online if s.accepts_returns),
    }


def rebalancing_needs(stations, low=0.15, high=0.9):
    needs = []
    for s in sorted(stations, key=lambda s: s.code):
        if not s.online:
            continue
        fill = (s.bikes + s.ebikes) / s.capacity
        if fill < low:
            needs.append((s.code, "deliver", round(s.capacity * 0.5) - s.bikes - s.ebikes))
        elif fill > high:
            needs.append((s.code, "collect", s.bikes + s.ebikes - round(s.capacity * 0.5)))
    return needs
