"""Pages and JSON answers gzip-compressed for a browser that takes it.

A seat's page is some tens of kilobytes of HTML and SVG that compress five to ten
times; a tablet on a busy hall's Wi-Fi loads it in a fraction. The table runs on
plain HTTP on its own network, where compression tells an onlooker nothing the
plain bytes would not. Event streams are compressed apart (:mod:`.packed`); the
static files are stored compressed (:mod:`.static_files`).
"""

from __future__ import annotations

import gzip

from flask import Flask, request
from werkzeug.wrappers import Response

#: Smaller answers gain too little to pay for the work.
SMALLEST = 1024
_TYPES = ("text/html", "application/json")


def takes_gzip() -> bool:
    """Whether the browser asking takes gzip."""
    return request.accept_encodings.quality("gzip") > 0


def install(app: Flask) -> None:
    @app.after_request
    def _gzip(response: Response) -> Response:
        if (
            response.direct_passthrough
            or response.is_streamed
            or response.status_code != 200
            or response.mimetype not in _TYPES
            or "Content-Encoding" in response.headers
            or not takes_gzip()
        ):
            return response
        body = response.get_data()
        if len(body) < SMALLEST:
            return response
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        response.headers.add("Vary", "Accept-Encoding")
        return response
