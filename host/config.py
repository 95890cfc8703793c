"""The table's TOML configuration: which ports, pins and readers, and which game.

``lawmaster run --config table.toml`` reads one of these (an example with every
key is ``deploy/table.toml``). Every key has a default except where real
hardware must be named; a wrong key or type is reported with its place in the
file rather than a traceback.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .serial_ports import primary_uart


class ConfigError(ValueError):
    """A configuration file that cannot be used, with the reason in words."""


@dataclass(frozen=True)
class ScannerConfig:
    """The Pico scanner on USB serial."""

    port: str = "/dev/lawmaster-scanner"
    baud: int = 115200


@dataclass(frozen=True)
class NfcReaderConfig:
    """One PN532 reader: on a serial port (``uart``) or the Pi's I2C bus (``i2c``)."""

    name: str
    interface: str = "uart"
    port: str = "/dev/ttyS0"
    baud: int = 115200
    address: int = 0x24
    #: The seat whose reader this is (a tap there is that seat's play); None: shared.
    seat: str | None = None
    #: Seconds one wait for a tag lasts; a tag is reported gone after a wait sees nothing.
    poll_timeout: float = 0.15
    #: BCM GPIO wired to the module's RSTPD_N (``wiring.md``); None: not wired.
    reset_pin: int | None = None


@dataclass(frozen=True)
class PanelConfig:
    """GPIO (BCM numbers) of the buttons, the RGB status LED and the buzzer."""

    pin_factory: str = ""
    buttons: Mapping[str, int] = field(
        default_factory=lambda: {"undo": 5, "confirm": 6, "end_turn": 13}
    )
    led: Mapping[str, int] = field(default_factory=lambda: {"red": 17, "green": 27, "blue": 22})
    #: True for a common-cathode RGB LED (a pin high lights it); False for common-anode.
    led_active_high: bool = True
    buzzer: int | None = 18


@dataclass(frozen=True)
class WebConfig:
    """Where the tablets reach the dashboard."""

    host: str = "0.0.0.0"
    port: int = 8080
    public_url: str = ""


#: What a table name may hold: it is a level of every topic (no ``/``, ``+`` or ``#``).
TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


@dataclass(frozen=True)
class MqttConfig:
    """The broker a table publishes its public game to (see ``docs/HALL.md``).

    Absent from the file: the table publishes nothing. The password may stay out of
    ``table.toml`` in a file of its own (``password_file``, first line).
    """

    host: str
    #: The topic level naming this table: ``lawmaster/<table>/...`` (the hall names none).
    table: str = ""
    port: int = 1883
    username: str = ""
    password: str = ""
    password_file: str = ""
    #: TLS to the broker; ``ca_file`` empty: the system's certificate authorities.
    tls: bool = False
    ca_file: str = ""
    #: A client certificate and its key, for a broker that asks for one.
    cert_file: str = ""
    key_file: str = ""
    #: The first topic level (several clubs on one broker each take their own).
    prefix: str = "lawmaster"
    #: Public events held while the broker is away; beyond it the oldest are dropped
    #: (and counted on the health panel): the referee never waits for the broker.
    queue: int = 500
    #: Seconds between MQTT keep-alives; the broker tells the hall a table died
    #: (its last will) after one and a half of them without a word.
    keepalive: int = 15

    def secret(self) -> str:
        """The password: ``password``, else the first line of ``password_file``."""
        if self.password or not self.password_file:
            return self.password
        try:
            with open(self.password_file, encoding="utf-8") as handle:
                return handle.readline().rstrip("\r\n")
        except OSError as exc:
            raise ConfigError(f"cannot read mqtt.password_file: {exc.strerror}") from None


@dataclass(frozen=True)
class TableConfig:
    """The whole configuration of one table."""

    journal: str = "/var/lib/lawmaster/table.db"
    calibration: str = "/var/lib/lawmaster/calibration.json"
    cards: str = "/var/lib/lawmaster/cards.db"
    digital_dice: bool = False
    #: Digital dice from the operating system's randomness unless a seed is given
    #: (a seed makes every roll predictable: for tests and demonstrations only).
    seed: int | None = None
    board: bool = True
    scanner: ScannerConfig = field(default_factory=ScannerConfig)
    nfc: tuple[NfcReaderConfig, ...] = ()
    panel: PanelConfig = field(default_factory=PanelConfig)
    web: WebConfig = field(default_factory=WebConfig)
    #: The scenario header of the game to start when the journal has no open game.
    game: Mapping[str, Any] = field(default_factory=dict)
    #: ``[board] map``: a sensor map file (JSON) used instead of the shipped one.
    board_map: str = ""
    #: ``[mqtt]``: the broker this table publishes its public game to (``None``: none).
    mqtt: MqttConfig | None = None

    def settings(self) -> dict[str, Any]:
        """What the journal stores with each game (it shapes how inputs are read)."""
        return {"digital_dice": self.digital_dice, "seed": self.seed, "board": self.board}


def load(path: str | Path) -> TableConfig:
    """Read and check a configuration file."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    return parse(data)


def parse(data: Mapping[str, Any]) -> TableConfig:
    """Build a :class:`TableConfig` from parsed TOML."""
    table = _section(
        data, "table", {"journal", "calibration", "cards", "digital_dice", "seed", "board"}
    )
    _known(data, "", {"table", "scanner", "nfc", "panel", "web", "game", "board", "mqtt"})
    board = _section(data, "board", {"map"})
    scanner = _section(data, "scanner", {"port", "baud"})
    panel = _section(data, "panel", {"pin_factory", "buttons", "led", "led_active_high", "buzzer"})
    web = _section(data, "web", {"host", "port", "public_url"})
    readers = data.get("nfc", [])
    if not isinstance(readers, list):
        raise ConfigError("[[nfc]] must be a list of readers (one [[nfc]] block each)")
    game = data.get("game", {})
    if not isinstance(game, Mapping):
        raise ConfigError("[game] must be a table (the scenario header of a new game)")
    return TableConfig(
        journal=_get(table, "table.journal", str, TableConfig.journal),
        calibration=_get(table, "table.calibration", str, TableConfig.calibration),
        cards=_get(table, "table.cards", str, TableConfig.cards),
        digital_dice=_get(table, "table.digital_dice", bool, False),
        seed=_get(table, "table.seed", int, None),
        board=_get(table, "table.board", bool, True),
        scanner=ScannerConfig(
            port=_get(scanner, "scanner.port", str, ScannerConfig.port),
            baud=_get(scanner, "scanner.baud", int, ScannerConfig.baud),
        ),
        nfc=_coexisting(tuple(_reader(r, i) for i, r in enumerate(readers)), panel),
        panel=PanelConfig(
            pin_factory=_get(panel, "panel.pin_factory", str, ""),
            buttons=_pins(panel.get("buttons", PanelConfig().buttons), "panel.buttons"),
            led=_pins(panel.get("led", PanelConfig().led), "panel.led"),
            led_active_high=_get(panel, "panel.led_active_high", bool, True),
            buzzer=_get(panel, "panel.buzzer", int, PanelConfig.buzzer),
        ),
        web=WebConfig(
            host=_get(web, "web.host", str, WebConfig.host),
            port=_get(web, "web.port", int, WebConfig.port),
            public_url=_get(web, "web.public_url", str, ""),
        ),
        game=dict(game),
        board_map=_get(board, "board.map", str, ""),
        mqtt=parse_mqtt(data["mqtt"]) if "mqtt" in data else None,
    )


_MQTT_KEYS = {
    "host", "port", "table", "username", "password", "password_file", "tls", "ca_file",
    "cert_file", "key_file", "prefix", "queue", "keepalive",
}  # fmt: skip


def parse_mqtt(section: Any, *, table_named: bool = True) -> MqttConfig:
    """The ``[mqtt]`` section (also ``lawmaster demo --mqtt FILE``'s, and the hall's, which
    names no table: ``table_named=False``)."""
    if not isinstance(section, Mapping):
        raise ConfigError("[mqtt] must be a table")
    _known(section, "mqtt", _MQTT_KEYS)
    host = _get(section, "mqtt.host", str, "")
    if not host:
        raise ConfigError("mqtt.host must name the broker (omit [mqtt] to publish nothing)")
    table = _get(section, "mqtt.table", str, "")
    prefix = _get(section, "mqtt.prefix", str, MqttConfig.prefix)
    for where, name in (("mqtt.table", table), ("mqtt.prefix", prefix)):
        if where == "mqtt.table" and not table_named and not name:
            continue
        if not TABLE_NAME.match(name):
            raise ConfigError(
                f"{where} must be 1-40 letters, digits, - or _ (it is a topic level),"
                f" not {name!r}"
            )
    tls = _get(section, "mqtt.tls", bool, False)
    port = _get(section, "mqtt.port", int, 8883 if tls else 1883)
    if not 0 < port < 65536:
        raise ConfigError(f"mqtt.port must be a port number, not {port}")
    queue = _get(section, "mqtt.queue", int, MqttConfig.queue)
    keepalive = _get(section, "mqtt.keepalive", int, MqttConfig.keepalive)
    if queue < 1 or keepalive < 5:
        raise ConfigError("mqtt.queue must be at least 1 and mqtt.keepalive at least 5 seconds")
    return MqttConfig(
        host=host,
        table=table,
        port=port,
        username=_get(section, "mqtt.username", str, ""),
        password=_get(section, "mqtt.password", str, ""),
        password_file=_get(section, "mqtt.password_file", str, ""),
        tls=tls,
        ca_file=_get(section, "mqtt.ca_file", str, ""),
        cert_file=_get(section, "mqtt.cert_file", str, ""),
        key_file=_get(section, "mqtt.key_file", str, ""),
        prefix=prefix,
        queue=queue,
        keepalive=keepalive,
    )


def _reader(data: Any, index: int) -> NfcReaderConfig:
    where = f"nfc[{index}]"
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where} must be a table")
    _known(
        data,
        where,
        {"name", "interface", "port", "baud", "address", "seat", "poll_timeout", "reset_pin"},
    )
    interface = _get(data, f"{where}.interface", str, "uart")
    if interface not in ("uart", "i2c"):
        raise ConfigError(f'{where}.interface must be "uart" or "i2c", not {interface!r}')
    return NfcReaderConfig(
        name=_get(data, f"{where}.name", str, f"reader{index}"),
        interface=interface,
        port=_port(_get(data, f"{where}.port", str, "auto")),
        baud=_get(data, f"{where}.baud", int, NfcReaderConfig.baud),
        address=_get(data, f"{where}.address", int, NfcReaderConfig.address),
        seat=_get(data, f"{where}.seat", str, None),
        poll_timeout=_seconds(data, f"{where}.poll_timeout", NfcReaderConfig.poll_timeout),
        reset_pin=_get(data, f"{where}.reset_pin", int, None),
    )


#: The Pi's I2C pins (bus 1), which an I2C reader's reset line cannot use.
I2C_PINS = (2, 3)


def _coexisting(
    readers: tuple[NfcReaderConfig, ...], panel: Mapping[str, Any]
) -> tuple[NfcReaderConfig, ...]:
    """Refuse readers that cannot work side by side, naming both.

    A PN532's I2C address is fixed (0x24), and the Pi has one I2C bus on its
    header: two I2C readers at one address would answer each other's frames. Two
    readers cannot share one serial port, nor one reset line, and a reset line
    cannot be a pin the panel already uses.
    """
    i2c: dict[int, int] = {}
    ports: dict[str, int] = {}
    resets: dict[int, str] = {}
    defaults = PanelConfig()
    for pin_name, pin in _panel_pins(panel, defaults).items():
        resets[pin] = f"the panel's {pin_name}"
    for i, reader in enumerate(readers):
        where = f"nfc[{i}]"
        if reader.interface == "i2c":
            if reader.address in i2c:
                raise ConfigError(
                    f"{where} and nfc[{i2c[reader.address]}] are both I2C PN532s at address"
                    f" {reader.address:#04x} on the Pi's one I2C bus: a PN532's address is"
                    " fixed, so put the second reader on a UART (a USB-serial adapter)"
                )
            i2c[reader.address] = i
        elif reader.port in ports:
            raise ConfigError(
                f"{where} and nfc[{ports[reader.port]}] are both on port {reader.port}:"
                " one serial port carries one reader"
            )
        else:
            ports[reader.port] = i
        if reader.reset_pin is not None:
            taken = resets.get(reader.reset_pin)
            if taken is None and i2c and reader.reset_pin in I2C_PINS:
                taken = "the I2C bus"
            if taken is not None:
                raise ConfigError(
                    f"{where}.reset_pin GPIO{reader.reset_pin} is already {taken}'s pin"
                )
            resets[reader.reset_pin] = f"nfc[{i}]"
    return readers


def _panel_pins(panel: Mapping[str, Any], defaults: PanelConfig) -> dict[str, int]:
    """The GPIOs the panel section (or its defaults) takes, by name."""
    pins: dict[str, int] = {}
    buttons = panel.get("buttons", defaults.buttons)
    led = panel.get("led", defaults.led)
    for group in (buttons, led):
        if isinstance(group, Mapping):
            pins.update({k: v for k, v in group.items() if isinstance(v, int)})
    buzzer = panel.get("buzzer", defaults.buzzer)
    if isinstance(buzzer, int) and not isinstance(buzzer, bool):
        pins["buzzer"] = buzzer
    return pins


def _port(port: str) -> str:
    """``"auto"``: the Pi's primary UART, named as this Pi model names it."""
    if port != "auto":
        return port
    return primary_uart()


def _section(data: Mapping[str, Any], name: str, keys: set[str]) -> Mapping[str, Any]:
    section = data.get(name, {})
    if not isinstance(section, Mapping):
        raise ConfigError(f"[{name}] must be a table")
    _known(section, name, keys)
    return section


def _known(section: Mapping[str, Any], where: str, keys: set[str]) -> None:
    unknown = sorted(set(section) - keys)
    if unknown:
        place = f"[{where}]" if where else "the top level"
        raise ConfigError(f"unknown key(s) {', '.join(unknown)} in {place}")


def _get(section: Mapping[str, Any], where: str, kind: type, default: Any) -> Any:
    key = where.rsplit(".", 1)[-1]
    value = section.get(key, default)
    if value is None and default is None:
        return None
    # TOML booleans are not whole numbers, whatever Python thinks.
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
        raise ConfigError(f"{where} must be {kind.__name__}, not {value!r}")
    return value


def _seconds(section: Mapping[str, Any], where: str, default: float) -> float:
    """A positive number of seconds (TOML writes ``1`` and ``1.0`` differently)."""
    value = section.get(where.rsplit(".", 1)[-1], default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ConfigError(f"{where} must be a positive number of seconds, not {value!r}")
    return float(value)


def _pins(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, Mapping) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value.values()
    ):
        raise ConfigError(f"{where} must map names to GPIO numbers")
    return dict(value)


def mqtt_from(spec: str, table: str = "", *, table_named: bool = True) -> MqttConfig:
    """A broker as a command line names it: ``host[:port]`` (anonymous, no TLS), or a TOML
    file with an ``[mqtt]`` section (a login, TLS: kept off the command line). ``table``,
    when given, names the table whatever the file says."""
    if spec.endswith(".toml") or Path(spec).is_file():
        try:
            with open(spec, "rb") as handle:
                data = tomllib.load(handle)
        except OSError as exc:
            raise ConfigError(f"cannot read {spec}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{spec} is not valid TOML: {exc}") from None
        section = data.get("mqtt")
        if section is None:
            raise ConfigError(f"{spec} has no [mqtt] section")
    else:
        host, _, port = spec.rpartition(":") if ":" in spec else (spec, "", "")
        if not host or (port and not port.isdigit()):
            raise ConfigError(f"name the broker as host:port or a TOML file, not {spec!r}")
        section = {"host": host, **({"port": int(port)} if port else {})}
    if isinstance(section, Mapping) and table:
        section = {**section, "table": table}
    return parse_mqtt(section, table_named=table_named)
