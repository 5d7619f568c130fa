"""The dock database: shipments waiting at the loading docks and the labels printed for them."""
import sqlite3

from vendor.connpool import Pool

TABLES = (
    """CREATE TABLE IF NOT EXISTS shipments (
        tracking TEXT PRIMARY KEY,
        dock INTEGER NOT NULL,
        weight_g INTEGER NOT NULL,
        carrier TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS labels (
        tracking TEXT PRIMARY KEY REFERENCES shipments (tracking),
        batch TEXT NOT NULL,
        zpl TEXT NOT NULL
    )""",
)


def open_pool(path, max_size=1):
    """One writer by default: SQLite serialises writes anyway, and the dock PCs share a network drive."""

    def connect():
        conn = sqlite3.connect(path, check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    pool = Pool(connect, max_size=max_size)
    with pool.connection() as conn:
        for statement in TABLES:
            conn.execute(statement)
        conn.commit()
    return pool
