"""Hostile bytes, generated and shrunk by Hypothesis, on every reading function (issue 27).

Every malformed input raises ``sbekit.DecodeError`` (never a bare ``ValueError``,
``OverflowError``, ``RuntimeError`` or a pyo3 panic), and the Arrow path agrees with ``decode``:
the rows ``read_all`` gives equal the dicts ``decode_all`` gives, value for value, and both
accept or reject the same streams. Text that is not valid in its declared encoding (a UTF-8
sequence cut in half, bytes >= 0x80 in a US-ASCII field) comes out the same way on both paths.
"""

import math
import random
import struct
import warnings

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sbekit
from conftest import md_messages

# A schema of our own with every kind of text: a UTF-8 var data, a US-ASCII char array, an
# ISO-8859-1 char array, a single char, raw var data, plus an enum, a set, an optional int and
# a group.
XML = """<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="h" id="27" version="0"
                   byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <composite name="utf8Data">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="rawData">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0"/>
    </composite>
    <type name="Sym" primitiveType="char" length="4" characterEncoding="US-ASCII"/>
    <type name="Name" primitiveType="char" length="3" characterEncoding="ISO-8859-1"/>
    <enum name="Side" encodingType="uint8">
      <validValue name="Buy">0</validValue>
      <validValue name="Sell">1</validValue>
    </enum>
    <set name="Flags" encodingType="uint8">
      <choice name="a">0</choice>
      <choice name="b">3</choice>
    </set>
  </types>
  <sbe:message name="Order" id="1">
    <field name="qty" id="1" type="int32"/>
    <field name="opt" id="2" type="int16" presence="optional"/>
    <field name="sym" id="3" type="Sym"/>
    <field name="name" id="4" type="Name"/>
    <field name="c" id="5" type="char"/>
    <field name="side" id="6" type="Side"/>
    <field name="flags" id="7" type="Flags"/>
    <field name="px" id="8" type="double"/>
    <group name="legs" id="9" dimensionType="groupSizeEncoding">
      <field name="n" id="10" type="uint8"/>
      <field name="tag" id="11" type="Sym"/>
    </group>
    <data name="note" id="12" type="utf8Data"/>
    <data name="blob" id="13" type="rawData"/>
  </sbe:message>
</sbe:messageSchema>
"""
BLOCK = 4 + 2 + 4 + 3 + 1 + 1 + 1 + 8
HEADER_COLUMNS = {"_template_id", "_schema_id", "_acting_version", "_block_length", "_offset"}
FRAMINGS = ("sbe", "u16le", "u32le", "sofh")


@pytest.fixture(scope="module")
def schema():
    return sbekit.Schema.from_xml(XML, "hypothesis.xml")


def order(rng: random.Random, note: bytes) -> bytes:
    """One Order built by hand with struct, with `note` as its UTF-8 var data's bytes."""
    out = [struct.pack("<HHHH", BLOCK, 1, 27, 0)]
    out.append(struct.pack("<ih", rng.randint(-5, 5), rng.choice([-32768, 7])))
    out.append(bytes(rng.choice([0x41, 0xC3, 0xA9, 0x00, 0x7F]) for _ in range(4)))
    out.append(bytes(rng.randrange(256) for _ in range(3)))
    out.append(bytes([rng.choice([0x41, 0xE9, 0x00])]))
    out.append(bytes([rng.choice([0, 1, 5, 255]), rng.randrange(256)]))
    out.append(struct.pack("<d", rng.choice([1.5, -0.0, 1e300])))
    legs = rng.randint(0, 2)
    out.append(struct.pack("<HH", 5, legs))
    for _ in range(legs):
        out.append(bytes([rng.randrange(256)]) + bytes(rng.choice([0x41, 0xE2]) for _ in range(4)))
    out.append(struct.pack("<H", len(note)) + note)
    blob = bytes(rng.randrange(256) for _ in range(rng.randint(0, 3)))
    out.append(struct.pack("<H", len(blob)) + blob)
    return b"".join(out)


# Notes that are valid UTF-8, cut inside a sequence, or not UTF-8 at all.
NOTES = st.one_of(
    st.text(max_size=6).map(lambda s: s.encode()),
    st.sampled_from([b"\xe2\x82", b"\xac!", b"\xff", b"a\xc3", b"\xc3\xa9", b""]),
    st.binary(max_size=6),
)


@st.composite
def streams(draw):
    """A few hand-built Orders back to back, then maybe mutated or truncated."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    buf = bytearray(b"".join(order(rng, draw(NOTES)) for _ in range(draw(st.integers(1, 3)))))
    for at, byte in draw(st.lists(st.tuples(st.integers(0, len(buf) - 1), st.integers(0, 255)),
                                  max_size=3)):
        buf[at] = byte
    cut = draw(st.one_of(st.none(), st.integers(0, len(buf))))
    return bytes(buf if cut is None else buf[:cut])


def framed(buf: bytes, framing: str) -> bytes:
    """`buf` as one frame of `framing` (the bytes as they are for back-to-back messages)."""
    if framing == "u16le":
        return struct.pack("<H", len(buf) % 65536) + buf
    if framing == "u32le":
        return struct.pack("<I", len(buf)) + buf
    if framing == "sofh":
        return struct.pack(">IH", len(buf) + 6, 0xEB50) + buf
    return buf


def only_sbekit(call):
    """Runs `call`; returns its result, or None if it raised DecodeError. Anything else fails."""
    try:
        return call()
    except sbekit.DecodeError as e:
        assert type(e) is sbekit.DecodeError
        assert isinstance(e.path, str)
        assert "panicked" not in str(e)
        return None


def same(a, b, where: str):
    """Decode's value `a` against the Arrow row's value `b`."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), where
        for k in a:
            same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and math.isnan(a):
        assert isinstance(b, float) and math.isnan(b), where
    elif b is None and where.endswith(".opt"):
        assert a == -32768, where  # an optional field's null value is a null in Arrow
    elif isinstance(a, int) and isinstance(b, str):
        assert str(a) == b, where  # an enum value the schema does not list
    else:
        assert a == b and type(a) is type(b), f"{where}: {a!r} != {b!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stream=streams())
def test_read_rows_equal_decode_values(schema, stream):
    dicts = only_sbekit(lambda: schema.decode_all(stream))
    tables = only_sbekit(lambda: schema.read_all(stream))
    # Both paths accept and reject the same streams.
    assert (dicts is None) == (tables is None)
    if dicts is None:
        return
    rows = pa.table(tables["Order"]).to_pylist()
    assert len(rows) == len(dicts)
    for i, (d, r) in enumerate(zip(dicts, rows)):
        # A message of an older version than the schema's says so in decode's dict; the table
        # has the acting version of every row.
        version = d.pop("$version", None)
        if version is None:
            assert r["_acting_version"] >= schema.version, f"message {i}"
        else:
            assert version == r["_acting_version"] < schema.version, f"message {i}"
        same(d, {k: v for k, v in r.items() if k not in HEADER_COLUMNS}, f"message {i}")
    table = only_sbekit(lambda: schema.read(stream))
    assert table is not None


@settings(max_examples=300, deadline=None)
@given(stream=st.one_of(streams(), st.binary(max_size=96)), framing=st.sampled_from(FRAMINGS),
       offset=st.integers(-(2**70), 2**70))
def test_every_reading_function_raises_only_decode_error(schema, md_schema, stream, framing,
                                                         offset):
    data = framed(stream, framing)
    for s in (schema, md_schema):
        only_sbekit(lambda: s.decode(stream))
        only_sbekit(lambda: s.decode(stream, offset=offset))
        only_sbekit(lambda: s.header(stream))
        only_sbekit(lambda: s.header(stream, offset=offset))
        only_sbekit(lambda: s.decode_all(data, framing=framing))
        only_sbekit(lambda: s.read_all(data, framing=framing))
        only_sbekit(lambda: s.read(data, framing=framing, template=1))
        only_sbekit(lambda: s.read(memoryview(data), framing=framing, template=1))


@settings(max_examples=100, deadline=None)
@given(cut=st.integers(0, 4000), edits=st.lists(st.tuples(st.integers(0, 3999),
                                                           st.integers(0, 255)), max_size=4))
def test_mutated_market_data_reads_raise_only_decode_error(md_schema, cut, edits):
    buf = bytearray(b"".join(md_messages(20, seed=27)))
    for at, b in edits:
        if at < len(buf):
            buf[at] = b
    buf = bytes(buf[:cut])
    dicts = only_sbekit(lambda: md_schema.decode_all(buf))
    tables = only_sbekit(lambda: md_schema.read_all(buf))
    assert (dicts is None) == (tables is None)


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=200), magic=st.sampled_from([
    b"", b"\xd4\xc3\xb2\xa1", b"\x0a\x0d\x0d\x0a", b"\x1f\x8b"]))
def test_iex_read_raises_only_decode_error(tmp_path_factory, data, magic):
    p = tmp_path_factory.mktemp("iex") / "capture.pcap"
    p.write_bytes(magic + data)
    with warnings.catch_warnings():
        # A capture that ends early warns and keeps its good rows; that is not an error.
        warnings.simplefilter("ignore", RuntimeWarning)
        only_sbekit(lambda: sbekit.iex.read(p))
        only_sbekit(lambda: sbekit.iex.stats(p))


def test_split_utf8_sequence_reads_as_latin1_on_both_paths(schema):
    # Issue 27: the first note ends inside "€", the second holds its last byte; together they
    # are valid UTF-8, apart they are not. Every message is read, as decode gives it.
    rng = random.Random(27)
    stream = order(rng, b"ok \xe2\x82") + order(rng, b"\xac") + order(rng, "€".encode())
    dicts = schema.decode_all(stream)
    assert [d["note"] for d in dicts] == ["ok \u00e2\u0082", "\u00ac", "€"]
    table = schema.read(stream)
    assert pa.table(table).column("note").to_pylist() == [d["note"] for d in dicts]


def test_offsets_outside_the_buffer_are_decode_errors(schema):
    buf = order(random.Random(1), b"x")
    for offset in (-1, 2**64, len(buf) + 1):
        with pytest.raises(sbekit.DecodeError):
            schema.decode(buf, offset=offset)
    with pytest.raises(TypeError):
        schema.decode(buf, offset="0")
