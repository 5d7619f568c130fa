from vendor.flagwire import FlagClient

_clients = {}
_transports = {}


def configure(env, transport):
    _transports[env] = transport


def get_client(env, api_key):
    client = _clients.get((env, api_key))
    if client is None:
        client = FlagClient(api_key, _transports[env])
        _clients[(env, api_key)] = client
    return client


def shutdown(env):
    for (e, key), client in list(_clients.items()):
        if e == env:
            client.close()
            del _clients[(e, key)]


def release(env, api_key):
    client = _clients.pop((env, api_key), None)
    if client is not None:
        client.close()


def reset():
    for client in _clients.values():
        client.close()
    _clients.clear()
    _transports.clear()
