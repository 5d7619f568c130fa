"""Client-wide defaults for calls to partner storefront APIs."""

DEFAULT_HEADERS = {"User-Agent": "shopsync/2.1", "Accept": "application/json"}

# Partners throttle with 429; we back off by doubling the delay, up to max_delay_s.
DEFAULT_RETRY = {"attempts": 3, "delay_s": 0.5, "max_delay_s": 8.0}
