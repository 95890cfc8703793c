"""The page's own script and stylesheet: compressed, cached, and named by their content.

Every page links ``/static/<name>?v=<hash of the file>``; such an address always
holds the same bytes, so a tablet keeps the file for a year and asks again only
when a new version of the package changes it (a new hash, a new address). An
address without the right hash is answered too, but must be checked again each
time (its ETag makes that a 304). A browser that takes gzip gets the file
compressed (computed once, kept in memory: the files are small and few).
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, request

from .compress import takes_gzip

#: How long a tablet may keep a file whose address names its content.
YEAR = 365 * 24 * 3600
_TYPES = {".css": "text/css", ".js": "text/javascript"}


@dataclass(frozen=True)
class StaticFile:
    raw: bytes
    packed: bytes
    tag: str
    mimetype: str


class StaticFiles:
    """The files of one static folder, each read, hashed and compressed once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._files: dict[str, StaticFile] = {}

    def get(self, name: str) -> StaticFile | None:
        with self._lock:
            found = self._files.get(name)
            if found is None:
                path = self.folder / name
                mimetype = _TYPES.get(path.suffix)
                if mimetype is None or "/" in name or not path.is_file():
                    return None
                raw = path.read_bytes()
                found = StaticFile(
                    raw=raw,
                    packed=gzip.compress(raw, compresslevel=9, mtime=0),
                    tag=hashlib.sha256(raw).hexdigest()[:16],
                    mimetype=mimetype,
                )
                self._files[name] = found
            return found

    def version(self, name: str) -> str:
        found = self.get(name)
        return found.tag if found is not None else "0"


def install(app: Flask) -> StaticFiles:
    """Serve ``app``'s static folder this way, and give templates ``static_url(name)``."""
    files = StaticFiles(Path(str(app.static_folder)))

    def serve(filename: str) -> Response:
        found = files.get(filename)
        if found is None:
            abort(404)
        if request.if_none_match.contains(found.tag):
            response = Response(status=304)
        else:
            packed = takes_gzip()
            body = found.packed if packed else found.raw
            response = Response(body, mimetype=found.mimetype)
            if packed:
                response.headers["Content-Encoding"] = "gzip"
        response.headers["Vary"] = "Accept-Encoding"
        response.set_etag(found.tag)
        if request.args.get("v") == found.tag:
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"
        return response

    app.view_functions["static"] = serve

    def static_url(name: str) -> str:
        return f"{app.static_url_path}/{name}?v={files.version(name)}"

    app.jinja_env.globals["static_url"] = static_url
    return files
