"""Encoding: reference vectors and our own messages come back byte for byte."""

import struct

import pytest

import sbekit
from conftest import md_expected, md_messages, reference
from test_decode import CASES


@pytest.mark.parametrize("vector,schema,golden", CASES)
def test_reference_vectors_round_trip(vector, schema, golden):
    s = sbekit.Schema(reference(f"derived/sbeir/{schema}.sbeir"))
    buf = reference(vector).read_bytes()
    h = s.header(buf)
    if h["version"] > s.version:
        pytest.skip(f"{vector} is written by a newer writer than {schema}")
    assert s.encode(h["name"], s.decode(buf), version=h["version"]) == buf


def test_own_schema_round_trip(md_schema):
    for m in md_messages(300, seed=12):
        assert md_schema.encode("MarketUpdates", md_schema.decode(m)) == m
        # The oracle's dicts (built with struct) encode to the same bytes, by name or id.
        assert md_schema.encode(1, md_expected(m)) == m
        assert md_schema.encode(None, md_expected(m)) == m


def test_encode_errors(md_schema):
    good = md_expected(md_messages(1, seed=2)[0])
    bad = dict(good, trades=[{"timestamp": 1, "symbol": "A", "price": 1, "size": 2**40,
                              "flags": 0}])
    with pytest.raises(sbekit.EncodeError) as e:
        md_schema.encode("MarketUpdates", bad)
    assert e.value.path == "MarketUpdates.trades[0].size"
    with pytest.raises(sbekit.EncodeError) as e:
        md_schema.encode("MarketUpdates", dict(good, sequenceNumber=object()))
    assert e.value.path.endswith("sequenceNumber")
    with pytest.raises(sbekit.EncodeError):
        md_schema.encode("Nope", good)
    with pytest.raises(sbekit.EncodeError):
        md_schema.encode("MarketUpdates", dict(good, sequenceNumber=2**64))
    # Deeply nested junk is refused, not a stack overflow.
    deep = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(sbekit.EncodeError):
        md_schema.encode("MarketUpdates", {"trades": deep})


def test_header(md_schema):
    m = md_messages(1)[0]
    assert md_schema.header(m) == {"block_length": 8, "template_id": 1, "schema_id": 42,
                                   "version": 0, "name": "MarketUpdates"}
    with pytest.raises(sbekit.DecodeError):
        md_schema.header(m[:5])
    assert struct.unpack_from("<H", m, 2)[0] == 1


@pytest.mark.parametrize("vector,schema,golden", CASES)
def test_reference_vectors_round_trip_without_a_version(vector, schema, golden):
    """A message of an older version than the schema's says so ("$version"); encode honours it."""
    s = sbekit.Schema(reference(f"derived/sbeir/{schema}.sbeir"))
    buf = reference(vector).read_bytes()
    h = s.header(buf)
    if h["version"] > s.version:
        pytest.skip(f"{vector} is written by a newer writer than {schema}")
    d = s.decode(buf)
    assert ("$version" in d) == (h["version"] < s.version)
    assert s.encode(h["name"], d) == buf


def test_versions_round_trip_without_flags():
    """Our own versioned schema: messages of every version, decoded and encoded with no version."""
    from conftest import REPO

    s = sbekit.Schema(REPO / "crates" / "sbekit-codegen-tests" / "schemas" / "orders-be.xml")
    assert s.version == 2
    for version in (0, 1, 2):
        value = {"orderId": 7 + version, "hints": [{}, {}]}
        if version >= 1:
            value["hints"] = [{"hint": 3}, {"hint": 4}]
        buf = s.encode("Cancel", value, version=version)
        d = s.decode(buf)
        if version == 2:
            assert "$version" not in d
        else:
            assert d["$version"] == version
        assert s.encode("Cancel", d) == buf
        assert s.encode(None, d) == buf
    with pytest.raises(sbekit.EncodeError):
        s.encode("Cancel", {"$version": "old", "orderId": 1, "hints": []})
