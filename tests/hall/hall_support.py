"""A real Mosquitto for the hall's tests: on 127.0.0.1, a free port, a config file of its own.

:class:`Mosquitto` starts Debian's ``mosquitto`` from a config it writes under the
test's folder (anonymous, with a password file made by ``mosquitto_passwd``, or
TLS with a test CA made by ``openssl`` at test time), and can be killed and
started again on the same port (the fault test). :class:`Subscriber` is a plain
paho client that records every message under ``lawmaster/#``.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client
from paho.mqtt.enums import CallbackAPIVersion

WAIT = 30.0  # seconds; generous for a loaded CI machine, never asserted as a duration


def mosquitto_binary() -> str:
    """Debian's broker (in /usr/sbin, often off a user's PATH), or skip saying what is missing."""
    found = shutil.which("mosquitto") or (
        "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None
    )
    if found is None:
        pytest.skip("Debian's mosquitto is not installed (scripts/dev-setup installs it)")
    return found


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (scripts/dev-setup installs it)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(predicate: Callable[[], Any], timeout: float = WAIT, step: float = 0.02) -> Any:
    """Poll ``predicate`` until it gives something true; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {predicate}")
        time.sleep(step)


@dataclass
class Tls:
    """A test CA and a server certificate for 127.0.0.1 it signed."""

    ca: Path
    cert: Path
    key: Path

    @classmethod
    def make(cls, folder: Path) -> Tls:
        openssl = tool("openssl")
        folder.mkdir(parents=True, exist_ok=True)
        ca, ca_key = folder / "ca.pem", folder / "ca.key"
        cert, key, csr = folder / "server.pem", folder / "server.key", folder / "server.csr"
        ext = folder / "san.ext"
        ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")

        def run(*args: str) -> None:
            subprocess.run([openssl, *args], check=True, capture_output=True)

        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=Lawmaster test CA", "-keyout", str(ca_key), "-out", str(ca))  # fmt: skip
        run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", str(key), "-out", str(csr))  # fmt: skip
        run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key),
            "-CAcreateserial", "-days", "2", "-extfile", str(ext), "-out", str(cert))  # fmt: skip
        return cls(ca, cert, key)


@dataclass
class Mosquitto:
    """One broker process (see the module docstring)."""

    folder: Path
    port: int = 0
    users: dict[str, str] = field(default_factory=dict)
    tls: Tls | None = None
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Mosquitto:
        binary = mosquitto_binary()
        self.folder.mkdir(parents=True, exist_ok=True)
        if not self.port:
            self.port = free_port()
        lines = [f"listener {self.port} 127.0.0.1", "persistence false"]
        if os.geteuid() == 0:
            # Run as root it would drop to the "mosquitto" user, which cannot read our files.
            lines.append(f"user {getpass.getuser()}")
        if self.users:
            passwords = self.folder / "passwords"
            passwords.write_text("")
            for user, password in self.users.items():
                subprocess.run(
                    [tool("mosquitto_passwd"), "-b", str(passwords), user, password],
                    check=True,
                    capture_output=True,
                )
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if self.tls is not None:
            lines += [
                f"cafile {self.tls.ca}",
                f"certfile {self.tls.cert}",
                f"keyfile {self.tls.key}",
            ]
        config = self.folder / "mosquitto.conf"
        config.write_text("\n".join(lines) + "\n")
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 - the process keeps it
        self.process = subprocess.Popen([binary, "-c", str(config)], stdout=log, stderr=log)
        log.close()
        wait_until(self._listening, timeout=WAIT)
        return self

    def _listening(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            text = (self.folder / "mosquitto.log").read_text(errors="replace")
            raise AssertionError(f"mosquitto exited: {text[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 1):
            return True
        return False

    def kill(self) -> None:
        """Gone at once, as a crashed broker (SIGKILL: nothing said, retained state lost)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def toml(self, folder: Path, table: str = "", **more: Any) -> Path:
        """An ``[mqtt]`` section for this broker, as a file (``lawmaster demo --mqtt FILE``)."""
        section: dict[str, Any] = {"host": "127.0.0.1", "port": self.port, **more}
        if table:
            section["table"] = table
        if self.tls is not None:
            section.setdefault("tls", True)
            section.setdefault("ca_file", str(self.tls.ca))
        lines = ["[mqtt]"] + [f"{k} = {json.dumps(v)}" for k, v in section.items()]
        path = folder / f"mqtt-{table or 'hall'}-{len(list(folder.glob('mqtt-*')))}.toml"
        path.write_text("\n".join(lines) + "\n")
        return path


class Subscriber:
    """Every message under ``lawmaster/#`` as (topic, payload dict or None, retained)."""

    def __init__(self, broker: Mosquitto, *, username: str = "", password: str = "") -> None:
        self.messages: list[tuple[str, Any, bool]] = []
        self._lock = threading.Lock()
        self.subscribed = threading.Event()
        self.client = Client(CallbackAPIVersion.VERSION2)
        if username:
            self.client.username_pw_set(username, password)
        if broker.tls is not None:
            self.client.tls_set(ca_certs=str(broker.tls.ca))
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe("lawmaster/#", qos=1)
        self.client.on_subscribe = lambda *args: self.subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.subscribed.wait(WAIT), "the test's subscriber could not subscribe"

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        payload = json.loads(message.payload) if message.payload else None
        with self._lock:
            self.messages.append((message.topic, payload, bool(message.retain)))

    def on(self, topic: str) -> list[Any]:
        with self._lock:
            return [p for t, p, _ in self.messages if t == topic]

    def last(self, topic: str) -> Any:
        found = self.on(topic)
        return found[-1] if found else None

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
