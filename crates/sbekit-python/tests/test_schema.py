"""Schemas: loading, message metadata, and SchemaError locations (no ../shared needed)."""

import pytest

import sbekit
from conftest import SCHEMAS


def test_market_data_messages(md_schema):
    assert md_schema.package == "sbekit_md"
    assert (md_schema.id, md_schema.version, md_schema.byte_order) == (42, 0, "little")
    [m] = md_schema.messages
    assert (m.name, m.id, m.kind, m.block_length) == ("MarketUpdates", 1, "message", 8)
    assert [f.name for f in m.fields] == ["sequenceNumber"]
    assert [g.name for g in m.groups] == ["trades", "levelUpdates"]
    trades = m.groups[0]
    assert trades.kind == "group" and trades.id == 2
    assert [(f.name, f.offset, f.size) for f in trades.fields] == [
        ("timestamp", 0, 8), ("symbol", 8, 8), ("price", 16, 8), ("size", 24, 4), ("flags", 28, 1)]
    side = m.groups[1].fields[-1]
    assert (side.name, side.kind, side.type_name, side.presence) == ("side", "enum", "Side", "required")
    assert m.names() == ["sequenceNumber", "trades", "levelUpdates"]
    assert "MarketUpdates" in repr(m) and "sbekit_md" in repr(md_schema)


@pytest.mark.parametrize("name", ["market-data.xml", "shootout-2019.xml", "trades.xml"])
def test_own_schemas_load(name):
    s = sbekit.Schema(SCHEMAS / name)
    assert s.messages
    text = (SCHEMAS / name).read_text()
    t = sbekit.Schema.from_xml(text, name=str(SCHEMAS / name))
    assert [m.name for m in t.messages] == [m.name for m in s.messages]


def test_schema_error_location():
    text = (SCHEMAS / "market-data.xml").read_text()
    # An offset that overlaps the previous field: a located, rule-named error.
    bad = text.replace('<field name="symbol" id="4" type="Symbol"/>',
                       '<field name="symbol" id="4" type="Symbol" offset="2"/>')
    with pytest.raises(sbekit.SchemaError) as e:
        sbekit.Schema.from_xml(bad, name="md.xml")
    err = e.value
    assert err.file == "md.xml"
    line = next(i for i, l in enumerate(bad.splitlines(), 1) if 'offset="2"' in l)
    assert err.line == line and err.column > 1
    assert err.rule and "offset" in str(err)
    assert any(d.severity == "error" for d in err.diagnostics)
    assert isinstance(err, ValueError) and isinstance(err, sbekit.SbekitError)


def test_schema_error_malformed_and_missing(tmp_path):
    with pytest.raises(sbekit.SchemaError) as e:
        sbekit.Schema.from_xml("<messageSchema><types>")
    assert e.value.line is not None
    with pytest.raises(sbekit.SchemaError):
        sbekit.Schema(tmp_path / "missing.xml")
    junk = tmp_path / "junk.sbeir"
    junk.write_bytes(b"\x00\x01garbage" * 10)
    with pytest.raises(sbekit.SchemaError):
        sbekit.Schema(junk)


def test_help_teaches():
    doc = sbekit.Schema.__doc__
    for word in ("decode", "encode", "read", "DecodeError", "SchemaError"):
        assert word in doc
    for meth in ("decode", "decode_all", "encode", "read", "from_xml"):
        assert getattr(sbekit.Schema, meth).__doc__, meth
