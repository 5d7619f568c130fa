"""The webhook receiver: one URL per provider, plus status and replay endpoints for operators."""
from deliveries import BadSignature, DeliveryLog, verify
from vendor.miniroute import MethodNotAllowed, NotFound, Router


class WebhookApp:
    def __init__(self, handlers=None):
        self.log = DeliveryLog()
        self.handlers = dict(handlers or {})
        self.router = Router()
        self.router.add("/hooks/<slug:provider>", self.receive, methods=("POST", "GET"))
        self.router.add("/hooks/status", self.status, methods=("GET",))
        self.router.add("/hooks/<slug:provider>/deliveries/<int:delivery_id>", self.show, methods=("GET",))
        self.router.add("/hooks/<slug:provider>/deliveries/<int:delivery_id>/replay", self.replay, methods=("POST",))

    def handle(self, method, path, body=b"", headers=None):
        """(status code, JSON-able body)."""
        try:
            route, params = self.router.match(method, path)
        except NotFound:
            return 404, {"error": f"no route for {path}"}
        except MethodNotAllowed as exc:
            return 405, {"error": str(exc)}
        return route.handler(method=method, body=body, headers=headers or {}, **params)

    def receive(self, method, body, headers, provider):
        if method == "GET":
            return 200, {"provider": provider, "accepting": provider in self.handlers}
        if provider not in self.handlers:
            return 404, {"error": f"unknown provider {provider}"}
        try:
            verify(provider, body, headers.get("X-Signature"))
        except BadSignature as exc:
            return 401, {"error": str(exc)}
        delivery = self.log.add(provider, body)
        self._dispatch(delivery)
        return 202, {"delivery": delivery.delivery_id, "status": delivery.status}

    def _dispatch(self, delivery):
        try:
            self.handlers[delivery.provider](delivery.body)
        except Exception as exc:
            delivery.status = "failed"
            delivery.attempts.append(repr(exc))
        else:
            delivery.status = "processed"
            delivery.attempts.append("ok")

    def status(self, method, body, headers):
        return 200, {"providers": sorted(self.handlers), "deliveries": self.log.counts()}

    def show(self, method, body, headers, provider, delivery_id):
        delivery = self.log.by_id.get(delivery_id)
        if delivery is None or delivery.provider != provider:
            return 404, {"error": f"no delivery {delivery_id} for {provider}"}
        return 200, {"delivery": delivery_id, "status": delivery.status, "attempts": delivery.attempts}

    def replay(self, method, body, headers, provider, delivery_id):
        delivery = self.log.by_id.get(delivery_id)
        if delivery is None or delivery.provider != provider:
            return 404, {"error": f"no delivery {delivery_id} for {provider}"}
        self._dispatch(delivery)
        return 200, {"delivery": delivery_id, "status": delivery.status, "attempts": len(delivery.attempts)}

    def url_for(self, name, **params):
        return self.router.url_for(name, **params)
