from .converters import compile_pattern


class NotFound(LookupError):
    pass


class MethodNotAllowed(LookupError):
    def __init__(self, path, allowed):
        super().__init__(f"{path}: allowed methods {', '.join(sorted(allowed))}")
        self.allowed = allowed


class Route:
    def __init__(self, pattern, handler, methods, name):
        self.pattern = pattern
        self.handler = handler
        self.methods = {m.upper() for m in methods}
        self.name = name
        self.regex, self.converters = compile_pattern(pattern)

    def match(self, path):
        m = self.regex.match(path)
        if m is None:
            return None
        return {name: self.converters[name].to_python(text) for name, text in m.groupdict().items()}

    def build(self, **params):
        path = self.pattern
        for name, conv in self.converters.items():
            if name not in params:
                raise KeyError(f"{self.name} needs {name}")
            path = path.replace(f"<{name}>", conv.to_url(params[name]))
            for kind in ("int", "slug", "path", "str"):
                path = path.replace(f"<{kind}:{name}>", conv.to_url(params[name]))
        return path


class Router:
    """The first route (in the order added) whose pattern matches the path and allows the method wins."""

    def __init__(self):
        self.routes = []

    def add(self, pattern, handler, methods=("GET",), name=None):
        route = Route(pattern, handler, methods, name or handler.__name__)
        if any(r.name == route.name for r in self.routes):
            raise ValueError(f"duplicate route name {route.name!r}")
        self.routes.append(route)
        return route

    def route(self, pattern, methods=("GET",), name=None):
        def decorator(fn):
            self.add(pattern, fn, methods, name)
            return fn

        return decorator

    def match(self, method, path):
        allowed = set()
        for route in self.routes:
            params = route.match(path)
            if params is None:
                continue
            if method.upper() in route.methods:
                return route, params
            allowed |= route.methods
        if allowed:
            raise MethodNotAllowed(path, allowed)
        raise NotFound(path)

    def url_for(self, name, **params):
        for route in self.routes:
            if route.name == name:
                return route.build(**params)
        raise KeyError(f"no route named {name!r}")
