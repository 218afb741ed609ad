"""`Schema.encode(..., validate=True)`: each rule of the schema refused with `EncodeError` naming
the value's path, and the same value written without it (decoded back as it was)."""

from __future__ import annotations

import copy
from typing import Any, Dict

import pytest

import sbekit
from conftest import REPO

ORDERS = REPO / "crates" / "sbekit-codegen-tests" / "schemas" / "orders-be.xml"
CHECKS = REPO / "crates" / "sbekit-codegen-cpp" / "tests" / "schemas" / "owned-checks.xml"


@pytest.fixture(scope="module")
def orders() -> sbekit.Schema:
    return sbekit.Schema(str(ORDERS))


def order(**changes: Any) -> Dict[str, Any]:
    """A valid `Order` of orders-be.xml (version 2) with `changes`."""
    d: Dict[str, Any] = {
        "orderId": 1,
        "symbol": "IBM",
        "side": "Buy",
        "price": {"mantissa": 12345},
        "qty": 10,
        "weights": [1, -2, 3],
        "ratio": 0.5,
        "flags": ["Hidden"],
        "venue": "Auction",
        "fills": [{"fillQty": 5, "fillPrice": {"mantissa": -1},
                   "legs": [{"ratio": 1}, {"ratio": None}], "fillNote": "x"}],
        "marks": [{"mark": 3}],
        "note": "hello",
        "blob": b"\x00\xff",
    }
    d.update(copy.deepcopy(changes))
    return d


def refused(schema: sbekit.Schema, value: Dict[str, Any], path: str, rule: str) -> bytes:
    """Written without validation; refused with it, naming `path` and `rule`."""
    buf = schema.encode("Order", value)
    with pytest.raises(sbekit.EncodeError) as e:
        schema.encode("Order", value, validate=True)
    assert e.value.path == path
    assert str(e.value) == f"{path}: {rule}"
    return buf


def test_validate_accepts_valid_values_to_the_same_bytes(orders: sbekit.Schema) -> None:
    for v in [
        order(),
        order(qty=None, ratio=None, venue=None),  # optional fields may be null
        order(qty=0, venue=65535),  # or hold their null value
        order(ratio=float("nan")),
        order(venue=300, side=83),  # listed values, raw
        order(flags=0xFFFFFFFF, symbol="\x7f"),  # sets and chars are not checked
        order(weights=[-32767, 32767, 0], orderId=2**64 - 2, qty=2**32 - 2),
    ]:
        assert orders.encode("Order", v, validate=True) == orders.encode("Order", v)
    decoded = orders.decode(orders.encode("Order", order()))
    assert orders.encode("Order", decoded, validate=True) == orders.encode("Order", decoded)


def test_validate_refuses_numbers_outside_the_range(orders: sbekit.Schema) -> None:
    buf = refused(orders, order(qty=2**32 - 1), "Order.qty",
                  "4294967295 is above the field's maximum, 4294967294")
    assert orders.decode(buf)["qty"] == 2**32 - 1
    # The schema's own bounds (the C++ owned values' validation schema): Percent 1..100, Ratio
    # 0.0..1.0, a composite member -100..100.
    s = sbekit.Schema(str(CHECKS))
    good = {"percent": 50, "ratio": 1.0, "plain": 7, "kind": "Small", "code": "AB",
            "levels": [0, 1000], "band": {"low": -100, "high": 5}, "items": [], "note": ""}
    assert s.encode("Checked", good, validate=True) == s.encode("Checked", good)
    for change, path, rule in [
        ({"percent": 0}, "Checked.percent", "0 is below the field's minimum, 1"),
        ({"percent": 101}, "Checked.percent", "101 is above the field's maximum, 100"),
        ({"ratio": 1.5}, "Checked.ratio", "1.5 is above the field's maximum, 1"),
        ({"band": {"low": -101, "high": 5}}, "Checked.band.low",
         "-101 is below the field's minimum, -100"),
    ]:
        v = dict(good, **change)
        s.encode("Checked", v)
        with pytest.raises(sbekit.EncodeError) as e:
            s.encode("Checked", v, validate=True)
        assert (e.value.path, str(e.value)) == (path, f"{path}: {rule}")


def test_validate_refuses_a_required_fields_null_value(orders: sbekit.Schema) -> None:
    fills = order()["fills"]
    fills[0]["fillQty"] = 2**32 - 1
    buf = refused(orders, order(fills=fills), "Order.fills[0].fillQty",
                  "4294967295 is the null value of uint32, but the field is required")
    assert orders.decode(buf)["fills"][0]["fillQty"] == 2**32 - 1
    refused(orders, order(weights=[1, -32768, 3]), "Order.weights[1]",
            "-32768 is the null value of int16, but the field is required")
    refused(orders, order(side=None), "Order.side",
            "null (the null value of enum Side), but the field is required")


def test_validate_refuses_enum_values_the_schema_does_not_list(orders: sbekit.Schema) -> None:
    buf = refused(orders, order(venue=7), "Order.venue",
                  "7 is not a value of enum Venue (one of Lit, Dark, Auction)")
    assert orders.decode(buf)["venue"] == 7


def test_validate_group_count_and_var_data_length_are_refused_either_way(
    orders: sbekit.Schema,
) -> None:
    # Without validation too: the count and length fields' maxValue bound what is written.
    for validate in (False, True):
        with pytest.raises(sbekit.EncodeError) as e:
            orders.encode("Order", order(note="n" * 1025), validate=validate)
        assert e.value.path == "Order.note"
        assert "1025 bytes do not fit the length (uint16, at most 1024)" in str(e.value)
        v = order(fills=[{"fillQty": 1}] * 65535)
        for k in ("flags", "venue", "marks", "blob"):
            del v[k]
        with pytest.raises(sbekit.EncodeError) as e:
            orders.encode("Order", v, version=0, validate=validate)
        assert e.value.path == "Order.fills"
        assert "65535 entries do not fit the group's count (uint16, at most 65534)" in str(e.value)


def test_validate_is_keyword_only(orders: sbekit.Schema) -> None:
    with pytest.raises(TypeError):
        orders.encode("Order", order(), None, True)  # type: ignore[misc]
