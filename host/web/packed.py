"""A page's live stream, compressed: gzip, flushed at every event.

A stream is one long response; compressing it with one deflate context for its
whole life lets each push refer back to the ones before (a region's edit repeats
words and tags the stream has already sent), and a sync flush after every write
puts each event on the wire whole at once, as an uncompressed stream does. Browsers
undo ``Content-Encoding: gzip`` on an event stream as it arrives.

The stream's own ending (its ``close`` and the cleanup behind it) is passed on: the
wrapper closes the stream it wraps when it is closed itself.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from typing import Any

from werkzeug.wrappers import Response

from .compress import takes_gzip

#: Deflate's level for the stream: a push is small, the cost is per byte.
LEVEL = 6


def _packed(inner: Iterable[Any]) -> Iterator[bytes]:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    try:
        for piece in inner:
            data = piece.encode("utf-8") if isinstance(piece, str) else bytes(piece)
            out = packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)
            if out:
                yield out
        yield packer.flush(zlib.Z_FINISH)
    finally:
        close = getattr(inner, "close", None)
        if callable(close):
            close()


def pack_stream(response: Response) -> Response:
    """``response`` (an event stream) gzip-compressed, when the browser takes gzip."""
    if not takes_gzip():
        return response
    response.response = _packed(response.response)
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response
