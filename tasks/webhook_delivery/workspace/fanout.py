"""Sends one event to every subscription that wants it, each body signed with that subscription's secret."""
import json

from signing import sign
from subscriptions import matching


def encode_event(event_type, event_id, data):
    return json.dumps({"id": event_id, "type": event_type, "data": data}, sort_keys=True, separators=(",", ":")).encode("utf-8")


def fan_out(dispatcher, subscriptions, event_type, event_id, data, now):
    """{sub_id: DeliveryReport}. The transport takes only a URL and a body, so the signature rides in the query."""
    body = encode_event(event_type, event_id, data)
    reports = {}
    for sub in matching(subscriptions, event_type):
        signature = sign(sub.secret, body, now)
        reports[sub.sub_id] = dispatcher.deliver(f"{sub.url}?sig={signature}", body)
    return reports
