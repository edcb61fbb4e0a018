"""A relay between the app and a PostgreSQL server that counts the app's round trips.

Every statement the app sends, and every BEGIN, ROLLBACK and ping around them, crosses
the network to the server and waits for its answer: on PostgreSQL that wait, not the
statement, is most of a small read's cost. The relay reads the frontend's messages as
the protocol frames them (a type byte and a length, after the untyped start-up
message) and counts each round trip: a simple query (``Q``) or an extended query's
``Sync`` (``S``); and the connections the app opens. Started on 127.0.0.1 for one
test; its threads end with the sockets.
"""
from __future__ import annotations

import socket
import struct
import threading
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy.engine import make_url

ROUND_TRIP_ENDS = (b"Q", b"S")


class Relay:
    def __init__(self, server: tuple[str, int]) -> None:
        self._server = server
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self.round_trips = 0
        self.connections = 0  # opened by the app, each a server process of its own
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database_url: str) -> str:
        """``database_url`` through the relay (no TLS: the relay reads the messages)."""
        url = make_url(database_url).set(host="127.0.0.1", port=self.port)
        return url.update_query_dict({"sslmode": "disable"}).render_as_string(
            hide_password=False)

    def close(self) -> None:
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                app_side, _ = self._listener.accept()
            except OSError:  # closed: the test is over
                return
            server_side = socket.create_connection(self._server)
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._frontend, args=(app_side, server_side),
                             daemon=True).start()
            threading.Thread(target=_copy, args=(server_side, app_side), daemon=True).start()

    def _frontend(self, app_side: socket.socket, server_side: socket.socket) -> None:
        """The app's messages, passed on whole and counted."""
        try:
            length = struct.unpack("!I", _read(app_side, 4))[0]  # the start-up message
            server_side.sendall(struct.pack("!I", length) + _read(app_side, length - 4))
            while True:
                kind = _read(app_side, 1)
                head = _read(app_side, 4)
                body = _read(app_side, struct.unpack("!I", head)[0] - 4)
                if kind in ROUND_TRIP_ENDS:
                    with self._lock:
                        self.round_trips += 1
                server_side.sendall(kind + head + body)
        except (OSError, EOFError):
            pass
        finally:
            app_side.close()
            server_side.close()


def _read(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        more = sock.recv(size - len(data))
        if not more:
            raise EOFError
        data += more
    return data


def _copy(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        source.close()
        target.close()


@contextmanager
def relayed(database_url: str) -> Iterator[tuple[Relay, str]]:
    """A relay to ``database_url``'s server, and the URL that goes through it."""
    url = make_url(database_url)
    relay = Relay((url.host or "127.0.0.1", url.port or 5432))
    try:
        yield relay, relay.url(database_url)
    finally:
        relay.close()
