"""Typed owned values (issue 39): the module `sbekit generate --lang python` writes types the dicts
`Schema.decode` returns and `Schema.encode` takes.

For the project's own schemas (no ``../shared``) every message of the random mixed files that
`sbekit conformance --write-messages` writes (every version, newer writers, padding, damaged
copies) is checked: what decodes matches its message's TypedDict key for key and value for
value, and encodes back to a dict equal to it. mypy then type-checks a program using a
generated module: it must accept correct use and report a wrong one.
"""

from __future__ import annotations

import importlib.util
import math
import struct
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import sbekit

from conftest import REFERENCE, REPO, is_ci, need, sbekit_cli

OWN_SCHEMAS = [
    REPO / "schemas" / "market-data.xml",
    REPO / "crates" / "sbekit-codegen-tests" / "schemas" / "versioned-v1.xml",
    REPO / "crates" / "sbekit-codegen-tests" / "schemas" / "orders-be.xml",
    REPO / "crates" / "sbekit-codegen-tests" / "schemas" / "hostile-names.xml",
    REPO / "crates" / "sbekit-codegen-ts" / "tests" / "schemas" / "kinds.xml",
]


def _frames(path: Path) -> List[bytes]:
    data = path.read_bytes()
    out, p = [], 0
    while p < len(data):
        (n,) = struct.unpack_from("<I", data, p)
        out.append(data[p + 4 : p + 4 + n])
        p += 4 + n
    return out


def _generate(schemas: List[Path], out: Path) -> List[Tuple[Path, Any, List[bytes]]]:
    """Per schema: its path, its generated typed module (imported from a directory of its own,
    as schemas may share a package name) and its random mixed messages."""
    cli = str(sbekit_cli())
    args = [cli, "conformance"]
    for s in schemas:
        args += ["--schema", str(s)]
    files = subprocess.run(
        args + ["--write-messages", str(out / "msgs")], check=True, capture_output=True, text=True
    ).stdout.split()
    assert len(files) == len(schemas)
    result = []
    for i, (schema, messages) in enumerate(zip(schemas, files)):
        d = out / f"m{i:02}"
        r = subprocess.run(
            [cli, "generate", "--lang", "python", str(schema), "-o", str(d)],
            check=True,
            capture_output=True,
            text=True,
        )
        path = Path(r.stderr.split()[1])
        spec = importlib.util.spec_from_file_location(f"typed{i:02}_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        result.append((schema, mod, _frames(Path(messages))))
    return result


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> List[Tuple[Path, Any, List[bytes]]]:
    """The project's own schemas, generated and with their messages."""
    return _generate(OWN_SCHEMAS, tmp_path_factory.mktemp("typed"))


def _conforms(value: Any, tp: Any, path: str) -> None:
    """Asserts `value` is of type `tp` (the generated annotations' subset of typing)."""
    if typing.is_typeddict(tp):
        assert isinstance(value, dict), f"{path}: {value!r} is not a dict"
        hints = typing.get_type_hints(tp)
        extra = set(value) - set(hints)
        missing = set(tp.__required_keys__) - set(value)
        assert not extra and not missing, f"{path}: extra keys {extra}, missing {missing}"
        for k, v in value.items():
            _conforms(v, hints[k], f"{path}.{k}")
        return
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        errors = []
        for arm in typing.get_args(tp):
            try:
                _conforms(value, arm, path)
                return
            except AssertionError as e:
                errors.append(str(e))
        raise AssertionError(f"{path}: {value!r} is none of {tp}: {errors}")
    if origin is typing.Literal:
        assert value in typing.get_args(tp), f"{path}: {value!r} not in {tp}"
        return
    if origin is list:
        assert isinstance(value, list), f"{path}: {value!r} is not a list"
        (item,) = typing.get_args(tp)
        for i, v in enumerate(value):
            _conforms(v, item, f"{path}[{i}]")
        return
    if tp is type(None):
        assert value is None, f"{path}: {value!r} is not None"
    elif tp is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{path}: {value!r} not int"
    elif tp in (float, str, bytes, bool):
        assert isinstance(value, tp), f"{path}: {value!r} is not {tp.__name__}"
    else:
        raise AssertionError(f"{path}: unexpected annotation {tp}")


def _same(a: Any, b: Any) -> bool:
    """Equality in which NaN equals NaN (a float field may hold it)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _check_all(generated: List[Tuple[Path, Any, List[bytes]]], at_least: int) -> int:
    """Checks every decodable message of each schema; returns how many."""
    total = 0
    for schema_path, mod, frames in generated:
        schema = sbekit.Schema(str(schema_path))
        checked = 0
        for i, frame in enumerate(frames):
            try:
                d: Dict[str, Any] = schema.decode(frame)
            except sbekit.DecodeError:
                continue  # damaged on purpose
            name = mod.message_name(schema, frame)
            _conforms(d, mod.MESSAGES[name], f"{schema_path.name}#{i}:{name}")
            checked += 1
            encoded = schema.encode(name, d)
            again = schema.decode(encoded)
            assert _same(again, d), f"{schema_path.name}#{i}: {d!r} encoded and decoded as {again!r}"
        assert checked >= at_least, f"{schema_path.name}: only {checked} messages decoded"
        total += checked
    return total


def test_decoded_messages_match_their_typed_dicts_and_encode_back(
    generated: List[Tuple[Path, Any, List[bytes]]],
) -> None:
    n = _check_all(generated, 20)
    print(f"{n} messages of {len(generated)} own schemas match their TypedDicts and round-trip")


def test_reference_schemas_typed_dicts(tmp_path: Path) -> None:
    """The same over the 80 schemas the reference tool accepts (from ../shared)."""
    verdicts = need(
        REFERENCE / "derived" / "reference-verdicts-sbe-all-1.38.1.tsv", "reference verdicts"
    )
    schemas = []
    for line in verdicts.read_text().splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) > 1 and cols[1] == "0":
            schemas.append(REFERENCE / cols[0])
    assert len(schemas) == 80, len(schemas)
    n = _check_all(_generate(schemas, tmp_path), 1)
    print(f"{n} messages of the 80 reference-accepted schemas match their TypedDicts and round-trip")


def test_typed_encode_passes_validate_through(
    generated: List[Tuple[Path, Any, List[bytes]]],
) -> None:
    """`encode_<msg>(schema, msg, version=None, *, validate=False)` is `Schema.encode`'s
    `validate`: an enum value orders-be.xml does not list is written without it, refused with it."""
    schema_path, mod, _ = generated[2]
    assert schema_path.name == "orders-be.xml"
    schema = sbekit.Schema(str(schema_path))
    msg = {"orderId": 1, "symbol": "IBM", "side": "Buy", "price": {"mantissa": 5},
           "weights": [1, 2, 3], "flags": [], "venue": "Lit", "fills": [], "marks": []}
    buf = mod.encode_order(schema, msg)
    assert mod.encode_order(schema, msg, validate=True) == buf
    assert mod.encode_order(schema, msg, 2, validate=True) == buf
    bad = dict(msg, venue=7)
    assert mod.decode_order(schema, mod.encode_order(schema, bad))["venue"] == 7
    with pytest.raises(sbekit.EncodeError) as e:
        mod.encode_order(schema, bad, validate=True)
    assert e.value.path == "Order.venue"


def test_a_typed_dict_without_a_required_key_is_caught(
    generated: List[Tuple[Path, Any, List[bytes]]],
) -> None:
    _, mod, _ = generated[0]
    good = {"sequenceNumber": 1, "trades": [], "levelUpdates": []}
    _conforms(good, mod.MarketUpdates, "good")
    with pytest.raises(AssertionError):
        _conforms({"sequenceNumber": 1, "trades": []}, mod.MarketUpdates, "bad")
    with pytest.raises(AssertionError):
        _conforms({**good, "sequenceNumber": "1"}, mod.MarketUpdates, "bad")


MYPY_PROGRAM = '''
import sbekit
from sbekit_md_sbe import MarketUpdates, MarketUpdatesLevelUpdates, decode_market_updates, encode_market_updates

schema = sbekit.Schema("market-data.xml")
m: MarketUpdates = decode_market_updates(schema, b"")
side = m["levelUpdates"][0]["side"]
if side == "Buy" or side is None or isinstance(side, int):
    pass
level: MarketUpdatesLevelUpdates = {"timestamp": 1, "symbol": "AAPL    ", "price": 1, "size": 2, "flags": 0, "side": "Sell"}
out: bytes = encode_market_updates(schema, {"sequenceNumber": 1, "trades": [], "levelUpdates": [level]})
checked: bytes = encode_market_updates(schema, {"sequenceNumber": 1, "trades": [], "levelUpdates": []}, validate=True)
wrong: str = m["sequenceNumber"]
'''


def test_mypy_checks_code_using_a_generated_module(
    generated: List[Tuple[Path, Any, List[bytes]]], tmp_path: Path
) -> None:
    try:
        import mypy.api
    except ImportError:
        msg = "mypy is not installed (crates/sbekit-python/requirements-ci.txt pins it)"
        if is_ci():
            pytest.fail(msg)
        print(f"\n*** SKIPPED {msg} ***", file=sys.stderr)
        pytest.skip(msg)
    _, mod, _ = generated[0]
    prog = tmp_path / "prog.py"
    prog.write_text(MYPY_PROGRAM)
    out, err, status = mypy.api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache")]
        + ["--python-executable", sys.executable, str(prog), str(Path(mod.__file__))]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    # Exactly one error: the int read into a str; correct use passes --strict.
    wrong = MYPY_PROGRAM.splitlines().index('wrong: str = m["sequenceNumber"]') + 1
    assert len(errors) == 1 and f"prog.py:{wrong}:" in errors[0], out + err
