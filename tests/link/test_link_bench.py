"""The link's traffic figures of ``lawmaster bench sensing``, on a shorter game."""

from __future__ import annotations

from lawmaster.firmware import protocol as p
from lawmaster.host.bench.sensing import largest_standard_map, link_traffic


def test_change_only_frames_cost_a_tenth_of_full_frames_and_fit_the_cdc_buffer() -> None:
    figures = link_traffic(rest_s=2.0, play_s=12.0, seed=3)
    assert figures["link_channels"] == largest_standard_map().channels == 122
    assert figures["link_bytes_per_s_changes"] <= figures["link_bytes_per_s_full"] / 10
    assert figures["link_bytes_per_s_changes_at_rest"] <= figures["link_bytes_per_s_changes"]
    assert figures["max_frame_bytes"] <= p.MAX_FRAME
    # The host's copy of every channel never strays from the sensor by more than 4 bands.
    assert 0 < figures["link_max_error_counts"] <= 4 * figures["link_deadband_counts"]
