"""sbekit.capture: a CME MDP 3.0 capture built here (pcap, Ethernet, IPv4, UDP, the 12-byte
packet header, MsgSize-framed messages encoded by sbekit from the committed CME schema copy),
read back as tables and statistics; and the real captures of ../shared when present."""

from __future__ import annotations

import struct

import pytest

import sbekit
import sbekit.capture

from conftest import REPO, SHARED, need

CME = REPO / "crates" / "sbekit-feed" / "tests" / "schemas" / "Cme.Futures.Mdp3.Sbe.v1.12.xml"


def udp_frame(payload: bytes) -> bytes:
    eth = bytes([1, 0, 0x5E, 1, 1, 1, 2, 0, 0, 0, 0, 1]) + b"\x08\x00"
    ip = struct.pack(
        ">BBHHHBBH4s4s", 0x45, 0, 28 + len(payload), 0, 0x4000, 64, 17, 0,
        bytes([10, 0, 0, 1]), bytes([239, 1, 1, 1]),
    )
    udp = struct.pack(">HHHH", 30001, 20001, 8 + len(payload), 0)
    return eth + ip + udp + payload


def pcap(frames) -> bytes:
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for i, f in enumerate(frames):
        out += struct.pack("<IIII", 1_767_312_000 + i, 0, len(f), len(f)) + f
    return out


def packet(seq: int, messages) -> bytes:
    body = b"".join(struct.pack("<H", 2 + len(m)) + m for m in messages)
    return struct.pack("<IQ", seq, 1_767_312_000_000_000_000 + seq) + body


@pytest.fixture(scope="module")
def schema():
    return sbekit.Schema(str(CME))


def test_read_and_stats_of_a_built_capture(schema, tmp_path):
    login = schema.encode("AdminLogin15", {"HeartBtInt": 30})
    beat = schema.encode("AdminHeartbeat12", {})
    path = tmp_path / "cme.pcap"
    # Sequence 3 is missing: one gap.
    path.write_bytes(pcap([
        udp_frame(packet(1, [login, beat])),
        udp_frame(packet(2, [beat])),
        udp_frame(packet(4, [login])),
    ]))
    tables = sbekit.capture.read(path, schema=schema, profile="cme-mdp3")
    assert sorted(tables) == ["AdminHeartbeat12", "AdminLogin15"]
    pa = pytest.importorskip("pyarrow")
    logins = pa.table(tables["AdminLogin15"])
    assert logins.num_rows == 2
    assert logins.column("HeartBtInt").to_pylist() == [30, 30]
    assert logins.column("_seq").to_pylist() == [1, 4]
    assert logins.column("_msg_index").to_pylist() == [0, 0]
    assert logins.column("_channel").to_pylist() == ["239.1.1.1:20001"] * 2
    stats = sbekit.capture.stats(str(path), schema=str(CME), profile="cme-mdp3")
    assert stats["messages"] == 4
    assert stats["gaps"] == 1 and stats["missing"] == 1
    assert stats["bad_count"] == 0


def test_bad_packets_are_counted_not_raised(schema, tmp_path):
    beat = schema.encode("AdminHeartbeat12", {})
    bad = packet(2, [beat])[:-3] + struct.pack("<H", 500)  # a length that overruns
    path = tmp_path / "bad.pcap"
    path.write_bytes(pcap([udp_frame(packet(1, [beat])), udp_frame(bad)]))
    stats = sbekit.capture.stats(path, schema=schema, profile="cme-mdp3")
    assert stats["messages"] == 1
    assert stats["bad_count"] == 1
    assert stats["bad"][0]["packet"] == 1 and stats["bad"][0]["offset"] > 0
    with pytest.raises(ValueError):
        sbekit.capture.read(path, schema=schema, profile="no-such-profile")
    with pytest.raises(OSError):
        sbekit.capture.read(tmp_path / "missing.pcap", schema=schema, profile="cme-mdp3")


def test_real_coinbase_capture():
    cap = need(SHARED / "data/omi/Coinbase/MarketDataApi.v1.2/OrderSnapshotMessage.pcap", "capture")
    schema = need(SHARED / "schemas/omi/Coinbase.Derivatives.MarketDataApi.Sbe.v1.2.xml", "schema")
    tables = sbekit.capture.read(cap, schema=schema, profile="coinbase-derivatives")
    pa = pytest.importorskip("pyarrow")
    counts = {name: pa.table(t).num_rows for name, t in tables.items()}
    assert sum(counts.values()) == 6
