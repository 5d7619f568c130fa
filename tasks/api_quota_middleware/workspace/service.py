"""The API behind the middleware: a tiny geocoding endpoint and a usage report."""
from quota import QuotaMiddleware, Response

PLACES = {"lisbon": (38.72, -9.14), "porto": (41.15, -8.61), "faro": (37.02, -7.93)}


class GeoApp:
    def __init__(self):
        self.calls = {}

    def __call__(self, request, client):
        self.calls[client.client_id] = self.calls.get(client.client_id, 0) + 1
        if request.path.startswith("/geocode/"):
            name = request.path.rsplit("/", 1)[-1].lower()
            if name not in PLACES:
                return Response(404, {"error": f"no place {name}"})
            lat, lon = PLACES[name]
            return Response(200, {"place": name, "lat": lat, "lon": lon})
        if request.path == "/usage":
            return Response(200, {"client": client.client_id, "calls": self.calls[client.client_id]})
        return Response(404, {"error": "no such endpoint"})


def build(clock=None):
    app = GeoApp()
    return app, QuotaMiddleware(app, clock=clock)


def usage_report(app, middleware):
    clients = sorted(set(app.calls) | set(middleware.rejected))
    return [(c, app.calls.get(c, 0), middleware.rejected.get(c, 0)) for c in clients]
