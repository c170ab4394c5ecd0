"""A TCP proxy in front of PostgreSQL that can stall or go down, to test the app against a
database that stops answering (a stuck server keeps its connections open and says nothing)."""

from __future__ import annotations

import select
import socket
import threading
from collections.abc import Iterator
from contextlib import suppress


class StallProxy:
    """Forwards 127.0.0.1:<port> to the target while `passing`; `stall()` keeps every socket
    open and forwards nothing; `down()` closes the listener and every connection."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.passing = threading.Event()
        self.passing.set()
        self.closed = threading.Event()
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def stall(self) -> None:
        self.passing.clear()

    def resume(self) -> None:
        self.passing.set()

    def down(self) -> None:
        self.closed.set()
        with suppress(OSError):
            self.listener.close()
        with self.lock:
            for sock in self.sockets:
                with suppress(OSError):
                    sock.close()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.passing.wait()  # a stalled server accepts (the kernel does) and says nothing
            if self.closed.is_set():
                client.close()
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        peers = {client: server, server: client}
        while not self.closed.is_set():
            if not self.passing.is_set():
                self.passing.wait(0.05)
                continue
            try:
                ready, _, _ = select.select(list(peers), [], [], 0.05)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        raise OSError("closed")
                    peers[sock].sendall(data)
            except OSError:
                break
        for sock in peers:
            with suppress(OSError):
                sock.close()


def proxy_to_test_database() -> Iterator[StallProxy]:
    """A StallProxy in front of the test database, taken down afterwards (a fixture's body)."""
    from django.db import connection

    s = connection.settings_dict
    running = StallProxy((s["HOST"] or "127.0.0.1", int(s["PORT"] or 5432)))
    yield running
    running.down()
