"""Request middleware: authenticate, bind the request context, call the handler, map errors to statuses."""
import context


class Unauthorized(Exception):
    pass


class Forbidden(Exception):
    pass


TOKENS = {"t-alice": ("alice", {"admin"}), "t-bob": ("bob", set()), "t-carol": ("carol", {"support"})}


def authenticate(headers):
    token = headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not token:
        return None, set()
    if token not in TOKENS:
        raise Unauthorized("unknown token")
    return TOKENS[token]


def handle(request, handler):
    """Run `handler(request)` inside the request's context and return (status, body)."""
    try:
        user, roles = authenticate(request.headers)
    except Unauthorized as exc:
        return 401, {"error": str(exc)}
    context.bind(request_id=request.request_id, user=user or "anonymous", roles=sorted(roles))
    acting_for = request.headers.get("X-On-Behalf-Of")
    if acting_for:
        if "support" not in roles:
            context.clear()
            return 403, {"error": "only support may act on behalf of others"}
        context.bind(on_behalf_of=acting_for)
    try:
        body = handler(request)
    except Forbidden as exc:
        return 403, {"error": str(exc)}
    except KeyError as exc:
        return 404, {"error": f"not found: {exc}"}
    except ValueError as exc:
        return 400, {"error": str(exc)}
    finally:
        context.clear()
    return 200, body
