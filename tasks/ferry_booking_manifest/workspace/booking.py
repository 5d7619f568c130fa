from fares import PASSENGER_FARE, Quote, cabin_fare, vehicle_fare
from manifest import Manifest, Vehicle
from store import ManifestStore


class BookingRejected(Exception):
    pass


class BookingService:
    def __init__(self, vessel, store: ManifestStore):
        self.vessel = vessel
        self.store = store

    def _manifest(self, sailing):
        manifest = self.store.load(sailing, Manifest.from_dict)
        return manifest or Manifest(sailing, self.vessel.name)

    def book_vehicle(self, sailing, plate, length_m, height_m, lane=None):
        manifest = self._manifest(sailing)
        lanes = [self.vessel.lane(lane)] if lane is not None else list(self.vessel.lanes)
        for candidate in lanes:
            if height_m > candidate.max_height_m:
                continue
            if manifest.used_length(candidate.number) + length_m > candidate.length_m:
                continue
            manifest.lanes.setdefault(candidate.number, []).append(Vehicle(plate, length_m, height_m))
            self.store.save(manifest)
            return candidate.number
        raise BookingRejected(f"no lane fits {plate} on {sailing}")

    def book_cabin(self, sailing, reference, cabin):
        self.vessel.cabin(cabin)
        manifest = self._manifest(sailing)
        if not manifest.cabin_free(cabin):
            raise BookingRejected(f"cabin {cabin} already taken on {sailing}")
        manifest.cabins[cabin] = reference
        self.store.save(manifest)

    def add_passenger(self, sailing, name):
        manifest = self._manifest(sailing)
        manifest.passengers.append(name)
        self.store.save(manifest)
        return manifest.headcount()

    def quote(self, sailing):
        manifest = self._manifest(sailing)
        quote = Quote([])
        for lane_number, vehicles in sorted(manifest.lanes.items()):
            for v in vehicles:
                quote.add(f"vehicle {v.plate}", vehicle_fare(v.length_m, v.height_m))
        for cabin_number, ref in sorted(manifest.cabins.items()):
            quote.add(f"cabin {cabin_number} ({ref})", cabin_fare(self.vessel.cabin(cabin_number)))
        for name in manifest.passengers:
            quote.add(f"passenger {name}", PASSENGER_FARE)
        return quote

    def load_report(self, sailing):
        manifest = self._manifest(sailing)
        used = sum(manifest.used_length(l.number) for l in self.vessel.lanes)
        return {
            "vehicles": sum(len(vs) for vs in manifest.lanes.values()),
            "deck_used_pct": round(100 * used / self.vessel.deck_length_m, 1),
            "cabins_taken": len(manifest.cabins),
            "passengers": manifest.headcount(),
        }
