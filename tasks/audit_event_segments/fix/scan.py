"""Streaming reads over every segment, oldest first."""


def records(store, since=0):
    """Yield every record with offset >= `since`, segment by segment."""
    for name in store.segment_names():
        reader = store.open_segment(name)
        try:
            for record in reader:
                if record.offset >= since:
                    yield record
        finally:
            reader.close()


def first(store, kind):
    for record in records(store):
        if record.kind == kind:
            return record
    return None


def replay(store, handler, since=0):
    """Feed records to `handler` in order; return the offset after the last one handled."""
    position = since
    for record in records(store, since):
        handler(record)
        position = record.offset + 1
    return position
