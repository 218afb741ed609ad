"""Decoding to dicts: the reference goldens (../shared) and our own schema (struct oracle)."""

import json
import math
import struct

import pytest

import sbekit
from conftest import md_expected, md_messages, reference

# (vector, schema IR, golden), as crates/sbekit-otf/tests/golden_json.rs pairs them.
CASES = [
    ("rust/car_example_baseline_data.sbe", "example-schema",
     "car_example_baseline_data.example-schema.json"),
    ("rust/car_example_baseline_data.sbe", "example-extension-schema",
     "car_example_baseline_data.example-extension-schema.json"),
    ("rust/car_example_extension_data.sbe", "example-extension-schema",
     "car_example_extension_data.example-extension-schema.json"),
    ("derived/vectors/car_example_extension_v1_data.sbe", "example-extension-schema",
     "car_example_extension_v1_data.example-extension-schema.json"),
    ("derived/vectors/car_example_extension_v1_data.sbe", "example-schema",
     "car_example_extension_v1_data.example-schema.json"),
]


def jsonable(v):
    """The value as the JSON printer writes it: NaN as null, bytes one code point per byte."""
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [jsonable(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return v


@pytest.mark.parametrize("vector,schema,golden", CASES)
def test_reference_goldens(vector, schema, golden):
    s = sbekit.Schema(reference(f"derived/sbeir/{schema}.sbeir"))
    buf = reference(vector).read_bytes()
    got = s.decode(buf)
    want = json.loads(reference(f"derived/json/{golden}").read_text())
    # The one member the reference does not print: the writer's version, when it is not the
    # schema's (what lets encode write the message back as that version).
    version = got.pop("$version", None)
    assert version == (s.header(buf)["version"] if version is not None else None)
    assert (version is not None) == (s.header(buf)["version"] < s.version)
    assert jsonable(got) == want
    # Member order is part of the structure.
    assert list(got) == list(want)
    # 64-bit values are Python ints.
    assert isinstance(got["serialNumber"], int)


def test_decode_offset_and_buffers():
    s = sbekit.Schema(reference("derived/sbeir/example-schema.sbeir"))
    buf = reference("rust/car_example_baseline_data.sbe").read_bytes()
    want = s.decode(buf)
    assert s.decode(b"junk" + buf, offset=4) == want
    assert s.decode(bytearray(buf)) == want
    assert s.decode(memoryview(buf)) == want
    assert s.decode_all(buf * 3) == [want] * 3
    assert s.decode_all(buf * 2, template="Car") == [want] * 2
    framed = b"".join(struct.pack("<I", len(buf)) + buf for _ in range(2))
    assert s.decode_all(framed, framing="u32le") == [want] * 2


def test_market_data_values(md_schema):
    msgs = md_messages(300, seed=7)
    assert any(md_expected(m)["trades"] for m in msgs)
    for m in msgs:
        assert md_schema.decode(m) == md_expected(m)
    assert md_schema.decode_all(b"".join(msgs)) == [md_expected(m) for m in msgs]


def test_uint64_full_range(md_schema):
    m = bytearray(md_messages(1)[0])
    m[8:16] = struct.pack("<Q", 2**64 - 1)
    assert md_schema.decode(bytes(m))["sequenceNumber"] == 2**64 - 1


def test_framings(md_schema):
    msgs = md_messages(20, seed=3)
    want = [md_expected(m) for m in msgs]
    u16 = b"".join(struct.pack("<H", len(m)) + m for m in msgs)
    sofh = b"".join(struct.pack(">IH", len(m) + 6, 0xEB50) + m for m in msgs)
    assert md_schema.decode_all(u16, framing="u16le") == want
    assert md_schema.decode_all(sofh, framing="sofh") == want
    with pytest.raises(ValueError, match="framing"):
        md_schema.decode_all(u16, framing="nope")
    with pytest.raises(ValueError, match="no message named"):
        md_schema.decode_all(u16, framing="u16le", template="Nope")


def test_decoded_containers_are_not_tracked_by_the_cyclic_gc(md_schema):
    # A decoded message is a tree (no cycles): its dicts and lists are left out of the cyclic
    # collector's work (src/dict.rs, `untrack`), and stay correct and collectable by refcount.
    import gc
    import weakref

    msg = md_message_with_groups()
    d = md_schema.decode(msg)
    assert d == md_expected(msg)
    containers = [d, d["trades"], d["levelUpdates"], *d["trades"], *d["levelUpdates"]]
    assert [gc.is_tracked(c) for c in containers] == [False] * len(containers)
    for d2 in md_schema.decode_all(msg * 3):
        assert not gc.is_tracked(d2) and not gc.is_tracked(d2["trades"])
    # CPython tracks a dict again once a container goes in, so cycles through dicts are
    # still found by the collector.
    class Box:
        pass

    d["box"] = box = Box()
    assert gc.is_tracked(d)
    box.back = d
    ref = weakref.ref(box)
    del d, box, containers
    gc.collect()
    assert ref() is None


def test_arrays_and_sets_decode_untracked():
    import gc

    s = sbekit.Schema(reference("derived/sbeir/example-schema.sbeir"))
    car = s.decode(reference("rust/car_example_baseline_data.sbe").read_bytes())
    assert isinstance(car["someNumbers"], list) and isinstance(car["extras"], dict)
    for c in (car, car["someNumbers"], car["extras"], car["engine"], car["fuelFigures"],
              car["performanceFigures"][0]["acceleration"]):
        assert not gc.is_tracked(c)


def md_message_with_groups() -> bytes:
    import random

    from conftest import md_message

    return md_message(random.Random(5), 1, trades=3, levels=2)


def test_buffers_of_bytes_only(md_schema):
    # The abi3 build reads buffers through memoryview (src/input.rs): bytes-like ones are
    # taken, others are a TypeError as before.
    import array

    msg = md_message_with_groups()
    want = md_expected(msg)
    assert md_schema.decode(array.array("B", msg)) == want
    assert md_schema.decode(memoryview(b"xx" + msg)[2:]) == want
    assert md_schema.read(memoryview(msg * 2)).num_rows == 2
    for bad in (array.array("i", [1, 2, 3]), 12, "text", None):
        with pytest.raises(TypeError):
            md_schema.decode(bad)


def test_cached_texts_are_the_values_of_each_encoding():
    # Short char arrays come from a per-schema cache (src/dict.rs, TextCache): the same bytes
    # must still read as their field's encoding says, and a cached str is the right one.
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="7" version="0"
                   byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
    </composite>
    <type name="Utf" primitiveType="char" length="4" characterEncoding="UTF-8"/>
    <type name="Lat" primitiveType="char" length="4" characterEncoding="ISO-8859-1"/>
    <type name="Asc" primitiveType="char" length="4" characterEncoding="US-ASCII"/>
  </types>
  <sbe:message name="M" id="1">
    <field name="u" id="1" type="Utf"/><field name="l" id="2" type="Lat"/>
    <field name="a" id="3" type="Asc"/>
  </sbe:message>
</sbe:messageSchema>"""
    s = sbekit.Schema.from_xml(xml)
    head = struct.pack("<HHHH", 12, 1, 7, 0)

    def utf8_or_latin1(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")

    for word in (b"\xc3\xa9t\0", b"ab\0\0", b"\xe9\xe9\xe9\xe9", b"abcd"):
        raw = word.split(b"\0")[0]
        # US-ASCII keeps bytes below 0x80 and reads others one per code point: Latin-1 either way.
        want = {"u": utf8_or_latin1(raw), "l": raw.decode("latin-1"), "a": raw.decode("latin-1")}
        assert s.decode(head + word * 3) == want
        # Again: now from the cache, where the same bytes are held once per encoding.
        assert s.decode(head + word * 3) == want
    assert s.decode(head + b"\xc3\xa9t\0" * 3)["u"] == "\u00e9t"
