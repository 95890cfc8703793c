"""The link's traffic figures of ``lawmaster bench sensing``, on a shorter game; which bench
groups run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import lawmaster.host
from lawmaster.firmware import protocol as p
from lawmaster.host import bench
from lawmaster.host.bench.sensing import largest_standard_map, link_traffic
from lawmaster.host.commands.bench import command as bench_command


def test_change_only_frames_cost_a_tenth_of_full_frames_and_fit_the_cdc_buffer() -> None:
    figures = link_traffic(rest_s=2.0, play_s=12.0, seed=3)
    assert figures["link_channels"] == largest_standard_map().channels == 122
    assert figures["link_bytes_per_s_changes"] <= figures["link_bytes_per_s_full"] / 10
    assert figures["link_bytes_per_s_changes_at_rest"] <= figures["link_bytes_per_s_changes"]
    assert figures["max_frame_bytes"] <= p.MAX_FRAME
    # The host's copy of every channel never strays from the sensor by more than 4 bands.
    assert 0 < figures["link_max_error_counts"] <= 4 * figures["link_deadband_counts"]


def test_a_group_this_machine_cannot_run_is_left_out_with_its_reason(monkeypatch) -> None:
    """``lawmaster bench`` with no group runs every group that can run here; one that cannot
    (``pico`` without Node or the MicroPython image) is left out, its reason in the JSON."""
    import lawmaster.host.bench.pico as pico_group

    monkeypatch.setattr(pico_group, "missing", lambda: "node is not on PATH")
    to_run, skipped = bench.plan(())
    assert "pico" not in to_run and set(to_run) | {"pico"} == set(bench.available_groups())
    assert skipped == {"pico": "it needs the emulated Pico: node is not on PATH"}
    with pytest.raises(bench.GroupUnavailable, match="pico cannot run here: it needs"):
        bench.plan(("sensing", "pico"))
    result = CliRunner().invoke(bench_command, ["--json", "pico"])
    assert result.exit_code == 1 and "node is not on PATH" in result.output
    monkeypatch.setattr(pico_group, "missing", lambda: None)
    assert bench.plan(("pico",)) == (["pico"], {})


def test_the_readme_names_every_bench_group() -> None:
    readme = (Path(lawmaster.host.__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    line = next(line for line in readme.split("\n- ") if line.startswith("`lawmaster bench"))
    named = re.findall(r"`([a-z]+)`", line.split("\n\n")[0].rsplit("groups:", 1)[1])
    assert named == bench.available_groups()
