"""Builds the upstream list for the load balancer from service names."""
from resolver import Resolver


def upstreams(resolver: Resolver, names, port: int, now: float) -> list:
    """``address:port`` for every name that resolves; unknown services are left out."""
    result = []
    for name in names:
        address = resolver.resolve(name, now)
        if address is not None:
            result.append(f"{address}:{port}")
    return result
