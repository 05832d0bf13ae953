"""Exact duplicates, label conflicts and train/validation leakage, from row hashes.

The hashes (128-bit feature hash, label hash, packed row id) sit in Parquet files, one
per unit; DuckDB groups or semi-joins them out of core (it spills to ``temp_directory``
under its ``memory_limit``), so data larger than memory works. Counts are exact up to
128-bit hash collisions; nothing is estimated with HLL or Theta sketches.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

EXAMPLES = 10  # groups reported with their rows


@dataclass
class ExactResult:
    rows: int = 0
    duplicate_rows: int = 0  # rows that repeat an earlier identical row (features + label)
    duplicate_groups: int = 0
    duplicate_examples: list[list[int]] = field(default_factory=list)  # packed row ids per group
    conflict_rows: int = 0  # rows in groups of equal features with more than one label
    conflict_groups: int = 0
    conflict_examples: list[list[int]] = field(default_factory=list)
    val_rows: int = 0
    leaked_rows: int = 0  # validation rows whose features occur in training
    leaked_examples: list[list[int]] = field(default_factory=list)  # [val row, train row]

    def to_json(self) -> dict:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, d: dict) -> "ExactResult":
        return cls(**d)


def _files_sql(files: list[str]) -> str:
    return "read_parquet([" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "])"


def exact_checks(train: list[str], val: list[str], has_label: bool, workdir: str,
                 threads: int | None = None, memory_limit: str = "1GB") -> ExactResult:
    import duckdb

    con = duckdb.connect(config={"temp_directory": os.path.join(workdir, "duckdb-tmp"),
                                 "memory_limit": memory_limit,
                                 "threads": threads or os.cpu_count() or 1,
                                 "preserve_insertion_order": False})
    try:
        con.execute("SET enable_progress_bar = false")  # it would draw on the user's terminal
        return _run(con, train, val, has_label)
    finally:
        con.close()


def _examples(con, src: str, groups: str, keys: str, n: int) -> list[list[int]]:
    """The first ``n`` row ids of each group in the (small) table ``groups``, by a join
    back to ``src`` (the training rows): list aggregates stay off the big GROUP BY,
    which must spill."""
    rows = con.execute(f"""SELECT list(t.rid ORDER BY t.rid)[1:{n}] FROM {src} t
        JOIN {groups} g USING ({keys}) GROUP BY {keys} ORDER BY min(t.rid)""").fetchall()
    return [list(map(int, r[0])) for r in rows]


# Up to this many training rows, the rows that can repeat are found in memory first
# (their h1 column, 8 bytes a row, sorted by NumPy) and DuckDB groups only those: a hash
# aggregate over millions of distinct rows was most of the exact checks' time. Beyond
# it, DuckDB groups everything (it spills to disk).
IN_MEMORY_ROWS = 20_000_000


def _candidates(con, train: list[str]) -> str:
    """The table to group: the training rows whose h1 occurs more than once (every row
    of a repeated (h1, h2) is one, so the groups are the same), or all of ``train``."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = sum(pq.ParquetFile(f).metadata.num_rows for f in train)
    if rows > IN_MEMORY_ROWS:
        return "train"
    h1 = [pq.read_table(f, columns=["h1"]).column(0).to_numpy() for f in train]
    s = np.sort(np.concatenate(h1)) if h1 else np.empty(0, np.uint64)
    eq = s[1:] == s[:-1]
    rep = np.unique(s[1:][eq])
    if int(eq.sum()) + len(rep) > IN_MEMORY_ROWS // 10:
        return "train"  # mostly repeated rows: they would be copied for nothing
    del s, eq
    parts = []
    # Rows whose h1 is repeated: a bitmap over h1's low 20 bits (h1 is well mixed) lets
    # through the repeated values and ~len(rep) / 2**20 of the others; a binary search
    # in the sorted repeated values then keeps the exact ones.
    bits = np.zeros(1 << 20, bool)
    low = np.uint64((1 << 20) - 1)
    bits[(rep & low).astype(np.int64)] = True
    for f, h in zip(train, h1):
        if not len(rep):
            break
        idx = np.flatnonzero(bits[(h & low).astype(np.int64)])
        at = np.minimum(np.searchsorted(rep, h[idx]), len(rep) - 1)
        idx = idx[rep[at] == h[idx]]
        if len(idx):
            parts.append(pq.read_table(f).take(pa.array(idx)))
    cand = pa.concat_tables(parts) if parts else pa.table(
        {k: pa.array([], pa.uint64()) for k in ("h1", "h2", "lh", "rid")})
    con.register("cand_rows", cand)
    con.execute("CREATE TEMP TABLE cand AS SELECT h1, h2, lh, rid FROM cand_rows")
    con.unregister("cand_rows")
    return "cand"


def _run(con, train: list[str], val: list[str], has_label: bool) -> ExactResult:
    # Only count/min/max aggregates on the full tables: DuckDB's hash aggregate spills
    # those to disk; list or DISTINCT aggregates over millions of groups run out of memory.
    r = ExactResult()
    if not train:
        return r
    con.execute(f"CREATE TEMP VIEW train AS SELECT * FROM {_files_sql(train)}")
    r.rows = con.execute("SELECT count(*) FROM train").fetchall()[0][0]  # read to the end: register() next
    src = _candidates(con, train)
    # One pass over the hashes: groups of equal features. Where every row of a group
    # has one label, its extra rows are duplicates; where labels differ it is a conflict,
    # and its duplicates (equal label too) come from a second, small grouping.
    con.execute(f"""CREATE TEMP TABLE g AS SELECT h1, h2, count(*) AS c, min(lh) AS lo,
        max(lh) AS hi, min(rid) AS first FROM {src} GROUP BY h1, h2 HAVING count(*) > 1""")
    con.execute(f"""CREATE TEMP TABLE dup AS
        SELECT h1, h2, lo AS lh, c, first FROM g WHERE lo = hi
        UNION ALL
        SELECT t.h1, t.h2, t.lh, count(*) AS c, min(t.rid) AS first FROM {src} t
            JOIN (SELECT h1, h2 FROM g WHERE lo <> hi) x USING (h1, h2)
            GROUP BY t.h1, t.h2, t.lh HAVING count(*) > 1""")
    n, groups = con.execute("SELECT coalesce(sum(c - 1), 0), count(*) FROM dup").fetchone()
    r.duplicate_rows, r.duplicate_groups = int(n), int(groups)
    if groups:
        con.execute(f"CREATE TEMP TABLE dupx AS SELECT h1, h2, lh FROM dup ORDER BY c DESC, first LIMIT {EXAMPLES}")
        r.duplicate_examples = _examples(con, src, "dupx", "h1, h2, lh", 3)
    if has_label:
        n, groups = con.execute("SELECT coalesce(sum(c), 0), count(*) FROM g WHERE lo <> hi").fetchone()
        r.conflict_rows, r.conflict_groups = int(n), int(groups)
        if groups:
            con.execute(f"CREATE TEMP TABLE confx AS SELECT h1, h2 FROM g WHERE lo <> hi ORDER BY first LIMIT {EXAMPLES}")
            r.conflict_examples = _examples(con, src, "confx", "h1, h2", 4)
    if val:
        con.execute(f"CREATE TEMP VIEW val AS SELECT * FROM {_files_sql(val)}")
        r.val_rows = con.execute("SELECT count(*) FROM val").fetchone()[0]
        # The join builds its hash table on the smaller side and probes the other.
        con.execute("""CREATE TEMP TABLE leak AS SELECT v.rid AS vrid, min(t.rid) AS trid
            FROM val v JOIN train t USING (h1, h2) GROUP BY v.rid""")
        r.leaked_rows = int(con.execute("SELECT count(*) FROM leak").fetchone()[0])
        r.leaked_examples = [[int(a), int(b)] for a, b in con.execute(
            f"SELECT vrid, trid FROM leak ORDER BY vrid LIMIT {EXAMPLES}").fetchall()]
    return r
