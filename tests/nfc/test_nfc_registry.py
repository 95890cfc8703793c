"""The card registry in SQLite."""

from __future__ import annotations

import pytest

from lawmaster.host.nfc.cards import Card
from lawmaster.host.nfc.registry import CardRegistry, StickerInUse, normalize_uid

DEATH = Card("judge-death", "Judge Death", "perp")
FEAR = Card("judge-fear", "Judge Fear", "perp")


def test_nfc_registry_binds_and_survives_a_reopen(tmp_path):
    path = tmp_path / "cards.sqlite"
    with CardRegistry(path) as registry:
        assert registry.enroll("judge-dredd", DEATH, "04:a1:b2:c3:d4:e5:f6") is None
    with CardRegistry(path) as registry:
        assert registry.card_for("judge-dredd", bytes.fromhex("04A1B2C3D4E5F6")) == DEATH
        assert registry.uid_for("judge-dredd", "judge-death") == "04A1B2C3D4E5F6"
        assert registry.card_for("gw-brott", "04A1B2C3D4E5F6") is None  # per game


def test_nfc_registry_re_enrolment_forgets_the_old_sticker():
    with CardRegistry(":memory:") as registry:
        registry.enroll("judge-dredd", DEATH, "04000000000001")
        assert registry.enroll("judge-dredd", DEATH, "04000000000002") == "04000000000001"
        assert registry.card_for("judge-dredd", "04000000000001") is None
        assert registry.card_for("judge-dredd", "04000000000002") == DEATH
        assert registry.enrolled("judge-dredd") == {"judge-death": "04000000000002"}
        assert registry.enroll("judge-dredd", DEATH, "04000000000002") is None  # same again


def test_nfc_registry_refuses_a_sticker_that_is_another_card():
    with CardRegistry(":memory:") as registry:
        registry.enroll("judge-dredd", DEATH, "04000000000001")
        with pytest.raises(StickerInUse) as caught:
            registry.enroll("judge-dredd", FEAR, "04000000000001")
        assert caught.value.card == DEATH
        assert registry.uid_for("judge-dredd", "judge-fear") is None


def test_nfc_registry_forget():
    with CardRegistry(":memory:") as registry:
        registry.enroll("gw-brott", DEATH, "04000000000001")
        assert registry.forget("gw-brott", "judge-death") == "04000000000001"
        assert not registry.knows("gw-brott", "04000000000001")


def test_nfc_uid_normalisation_rejects_non_hex():
    assert normalize_uid("04 a1-b2") == "04A1B2"
    with pytest.raises(ValueError):
        normalize_uid("04zz")
