"""Layout of a run folder and of each rank's SQLite file.

A run folder holds ``traindoc-run.json`` (a marker) and ``rank{R}.sqlite`` per rank. SQLite
in WAL mode lets readers open the file while the writer appends, and a process killed
with ``kill -9`` loses only the transaction that was open (at most one flush interval).

SQLite cannot store a NaN (it binds as NULL), so a NULL ``value`` in ``points`` means
NaN; infinities are stored as they are.
"""

MARKER = "traindoc-run.json"
FORMAT = 1

DDL = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS series(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS points(series INTEGER NOT NULL, step INTEGER NOT NULL, value REAL);
CREATE TABLE IF NOT EXISTS events(step INTEGER, wall REAL, kind TEXT NOT NULL, message TEXT, data TEXT);
CREATE TABLE IF NOT EXISTS batches(step INTEGER NOT NULL, indices BLOB NOT NULL);
"""


def rank_file(rank: int) -> str:
    return f"rank{rank}.sqlite"
