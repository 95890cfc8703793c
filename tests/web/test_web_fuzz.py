"""Fuzzed HTTP input: whatever arrives, the answer is a 4xx with a reason, never a 5xx,
and a refused input changes nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import gw_header, make_host

from lawmaster.host.web import create_app
from lawmaster.host.web.app import MAX_BODY

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    host = make_host(tmp_path_factory.mktemp("fuzz"))
    host.new_game(gw_header(3, ["red", "green", "yellow"]))
    app = create_app(host)
    return host, app, app.test_client()


def _check(response, app) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.data[:300])
    body = response.get_json(silent=True)
    assert body is not None and body["ok"] is False and isinstance(body["error"], str)
    assert body["error"]
    assert app.extensions["lawmaster.unexpected"] == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)

known_acts = st.sampled_from(
    ["roll", "move", "pass", "reset", "destroy_evidence", "gw_roll", "gw_move", "trump", "inform"]
)
action_like = st.fixed_dictionaries(
    {"act": known_acts | st.text(max_size=10)},
    optional={
        "by": st.sampled_from(["red", "green", "yellow", "gw", "table", ""]) | json_values,
        "faces": st.lists(st.sampled_from(["1", "2", "3", "4", "arrow", "gw", "7"]), max_size=7)
        | json_values,
        "face": st.integers(-3, 9) | json_values,
        "die": st.sampled_from(["1", "2", "3", "4", "arrow"]) | json_values,
        "to": st.sampled_from(["A1", "J12", "Z9", "C6", "D6"]) | json_values,
        "direction": st.sampled_from(["up", "down", "left", "right", "north"]) | json_values,
        "path": st.lists(st.sampled_from(["J11", "I12", "J10", "A1"]), max_size=9) | json_values,
        "card": st.sampled_from(["helicopter", "informer", "blue-1", "nope"]) | json_values,
    },
)


@FUZZ
@given(body=st.binary(max_size=300))
def test_web_fuzz_garbage_bytes_as_json(world, body):
    host, app, client = world
    before = len(host.table.actions)
    token = host.table.token("red")
    response = client.post(
        f"/seat/{token}/action", data=body, headers={"Content-Type": "application/json"}
    )
    if response.status_code == 200:
        # Random bytes that happen to be a legal input are fine; anything else is refused.
        assert json.loads(body)["act"]
        return
    _check(response, app)
    assert len(host.table.actions) == before


@FUZZ
@given(value=json_values)
def test_web_fuzz_wrong_types_and_shapes(world, value):
    host, app, client = world
    before = len(host.table.actions)
    for seat in ("red", "gw"):
        token = host.table.token(seat)
        response = client.post(f"/seat/{token}/action", json=value)
        _check(response, app)
    assert len(host.table.actions) == before


@FUZZ
@given(action=action_like, seat=st.sampled_from(["red", "green", "yellow", "gw"]))
def test_web_fuzz_action_shaped_inputs_from_any_seat(world, action, seat):
    host, app, client = world
    table = host.table
    before = len(table.actions)
    token = table.token(seat)
    response = client.post(f"/seat/{token}/action", json=action)
    if response.status_code == 200:
        assert len(table.actions) >= before
        return
    _check(response, app)
    # A refused input (out of turn, illegal, malformed) leaves the game as it was.
    assert len(table.actions) == before


@FUZZ
@given(
    token=st.text(min_size=1, max_size=200).filter(lambda t: "/" not in t and "?" not in t)
    | st.sampled_from(["table", "..", "%00", "A" * 5000]),
    method=st.sampled_from(["GET", "POST"]),
    suffix=st.sampled_from(["", ".json", "/action", "/roll", "/undo", "/undo/confirm"]),
)
def test_web_fuzz_unknown_tokens(world, token, method, suffix):
    host, app, client = world
    known = {host.table.token(s) for s in host.table.seats()}
    if token in known:
        return
    path = f"/seat/{token}{suffix}" if suffix or method == "GET" else f"/events/{token}"
    response = client.open(path, method=method, json={"act": "roll"})
    _check(response, app)
    assert response.status_code in (403, 404, 405)


@FUZZ
@given(fields=st.dictionaries(st.text(max_size=12), st.text(max_size=40), max_size=6))
def test_web_fuzz_form_posts(world, fields):
    host, app, client = world
    before = len(host.table.actions)
    token = host.table.token("green")
    response = client.post(f"/seat/{token}/action", data=fields)
    if response.status_code == 303:
        return  # random fields that happen to be a legal input: accepted, then redirected
    assert 400 <= response.status_code < 500
    assert app.extensions["lawmaster.unexpected"] == []
    assert len(host.table.actions) == before


def test_web_fuzz_huge_body_is_413(world):
    host, app, client = world
    token = host.table.token("red")
    body = b'{"act": "roll", "pad": "' + b"x" * (MAX_BODY + 10) + b'"}'
    response = client.post(
        f"/seat/{token}/action", data=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    _check(response, app)
    form = client.post(f"/seat/{token}/action", data={"action": "x" * (MAX_BODY + 10)})
    assert form.status_code == 413


def test_web_fuzz_deep_nesting_and_odd_numbers(world):
    host, app, client = world
    token = host.table.token("red")
    for body in (
        "[" * 100_000 + "]" * 100_000,
        '{"act": "roll", "by": "red", "faces": NaN}',
        '{"act": "roll", "by": "red", "faces": Infinity}',
        '{"act": "roll", "by": "red", "faces": ' + "9" * 5000 + "}",
        '{"act": "gw_roll", "face": 1e999}',
        "\ufeff{}",
        '"roll"',
        "",
    ):
        response = client.post(
            f"/seat/{token}/action",
            data=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        _check(response, app)


@pytest.mark.parametrize(
    "method,path",
    [
        ("GET", "/nowhere"),
        ("DELETE", "/table"),
        ("PUT", "/setup"),
        ("GET", "/table/replay?step=-1"),
        ("POST", "/setup"),
        ("GET", "/calibration.json"),
        ("GET", "/enrollment.json"),
    ],
)
def test_web_fuzz_odd_routes_and_methods(world, method, path):
    host, app, client = world
    response = client.open(path, method=method, data=b"{bad json")
    if path.startswith("/table/replay"):
        assert response.status_code in (200, 404)  # clamped to the first input, or nothing yet
        return
    _check(response, app)


@FUZZ
@given(
    header=json_values
    | st.fixed_dictionaries(
        {"game": st.text(max_size=12)},
        optional={"criminals": json_values, "board": json_values, "two_player": json_values},
    )
)
def test_web_fuzz_setup_never_500(world, header):
    host, app, client = world
    table = host.table
    response = client.post("/setup", json={"header": header, "replace": False})
    _check(response, app)
    assert host.table is table  # a game in progress is never replaced without asking
