"""The records of a TensorBoard event file, read without TensorFlow and without
TensorBoard's Python file layer (which checks CRCs byte by byte in Python: about 20 s
for 400 000 points; this reader: see bench/importers.py).

Format (TFRecord): ``uint64 length, uint32 masked_crc32c(length), data[length],
uint32 masked_crc32c(data)``, little-endian; each ``data`` is an ``Event`` protobuf,
parsed with the ``tensorboard`` package's generated classes (the upb C parser).
A record cut short at the end of the file (a run killed mid-write) ends the file
quietly; a CRC mismatch anywhere else is a corrupt file.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path
from typing import Iterator

from ..errors import UserError

try:   # C implementation (the google-crc32c package, in the traindoc[tensorboard] extra)
    import google_crc32c

    def _crc(data: bytes) -> int:
        return google_crc32c.value(data)
except ImportError:   # tensorboard's own pure-Python one: correct, about 15x slower
    from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import crc32c as _crc


def masked_crc(data: bytes) -> int:
    c = _crc(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path: Path) -> Iterator[bytes]:
    """The data of each record, in order."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with fh:
        size = path.stat().st_size
        if size == 0:
            return
        buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            pos = 0
            while pos + 12 <= size:
                head = buf[pos:pos + 8]
                (length,) = struct.unpack("<Q", head)
                (head_crc,) = struct.unpack_from("<I", buf, pos + 8)
                if masked_crc(head) != head_crc:
                    what = "not a TensorBoard event file" if pos == 0 else f"corrupt record at byte {pos}"
                    raise UserError(f"{path}: {what}")
                end = pos + 12 + length
                if end + 4 > size:
                    return   # cut short: the writer was killed
                data = buf[pos + 12:end]
                (data_crc,) = struct.unpack_from("<I", buf, end)
                if masked_crc(data) != data_crc:
                    raise UserError(f"{path}: corrupt record at byte {pos} (CRC mismatch)")
                yield data
                pos = end + 4
        finally:
            buf.close()
