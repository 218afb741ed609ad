"""Hostile bytes raise DecodeError and never crash the interpreter."""

import random

import pytest

import sbekit
from conftest import md_messages, reference


def hostile_cases(buf: bytes, rng: random.Random, flips: int):
    for cut in range(len(buf)):
        yield buf[:cut]
    for _ in range(flips):
        b = bytearray(buf)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        yield bytes(b)


def check(schema, buf: bytes, seed: int):
    rng = random.Random(seed)
    errors = 0
    for case in hostile_cases(buf, rng, 3000):
        for call in (lambda: schema.decode(case), lambda: schema.decode_all(case)):
            try:
                call()
            except sbekit.DecodeError as e:
                errors += 1
                assert e.offset is not None and 0 <= e.offset <= max(len(case), 64)
                assert isinstance(e.path, str)
    return errors


def test_truncated_raise_with_offset(md_schema):
    buf = md_messages(1, seed=5)[0]
    for cut in range(len(buf)):
        with pytest.raises(sbekit.DecodeError) as e:
            md_schema.decode(buf[:cut])
        assert e.value.offset <= cut
    with pytest.raises(sbekit.DecodeError):
        md_schema.decode(buf, offset=len(buf) + 1)


def test_flipped_own_schema(md_schema):
    msgs = md_messages(50, seed=9)
    assert check(md_schema, max(msgs, key=len), 1) > 0


def test_flipped_reference_car():
    s = sbekit.Schema(reference("derived/sbeir/example-extension-schema.sbeir"))
    buf = reference("rust/car_example_extension_data.sbe").read_bytes()
    assert check(s, buf, 2) > 0


def test_random_bytes(md_schema):
    rng = random.Random(11)
    for _ in range(2000):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        try:
            md_schema.decode(junk)
        except sbekit.DecodeError:
            pass


def test_huge_group_count_is_bounded(md_schema):
    # numInGroup 65535 with no bytes behind it: an error, not a long walk.
    buf = bytearray(md_messages(1)[0][:16]) + bytes([29, 0, 0xFF, 0xFF])
    with pytest.raises(sbekit.DecodeError) as e:
        md_schema.decode(bytes(buf))
    assert "trades" in e.value.path
