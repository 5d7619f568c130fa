"""Serve tiles by URL path, as the map front end requests them: /<zoom>/<x>/<y>.png"""


class TileServer:
    def __init__(self, archive):
        self._archive = archive

    def get(self, url_path):
        """Return (status, body)."""
        parts = url_path.strip("/").removesuffix(".png").split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            return 400, b"expected /<zoom>/<x>/<y>.png"
        zoom, x, y = map(int, parts)
        try:
            return 200, self._archive.read_tile(zoom, x, y)
        except KeyError:
            return 404, b""

    def coverage(self, zooms):
        """How many tiles each zoom level has, for the status page."""
        return {zoom: self._archive.view(zoom).count() for zoom in zooms}
