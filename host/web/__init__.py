"""The dashboard: the table screen, seat pages by token, live updates by SSE, setup.

``create_app(host)`` builds the Flask app for a ``TableHost``-like object;
``serve(app, host, port)`` runs it under waitress. Every seat's page, JSON and
pushed event is built from that seat's snapshot only; the table screen gets the
public snapshot only.
"""

from .app import create_app
from .serve import ServeError, make_server, serve, stop

__all__ = ["ServeError", "create_app", "make_server", "serve", "stop"]
