//! The owned objects' validation (`validate` in `owned.ts`) and `fromObject`'s refusal of
//! what the wire types cannot hold, on `orders-be.xml` (every field kind): a valid object
//! passes, writes and reads back deep-equal; each rule (an integer outside the plan's range or
//! not an integer, a 64-bit value outside its range, an array, char array or var data too long,
//! an unlisted enum value, a group with more entries than its count allows, in the message, a
//! composite, a group entry and a nested entry) throws `SbeValidationError` with its kind and
//! path; what the wire type cannot hold is refused by `fromObject` too, with the same error,
//! while what only the schema forbids is written as it is (a decoded message goes back as it
//! came). The round trip of random owned objects is the harness's (`typescript.rs`).

mod common;

use common::*;
use std::path::Path;

const PROGRAM: &str = r#"import * as ob from "./ob/src/index.js";

const enc = new TextEncoder();
let checks = 0;

function ok(c: boolean, what: string): void {
  if (!c) throw new Error(what);
}

function throwsWith(f: () => unknown, is: (e: unknown) => boolean, what: string): void {
  try {
    f();
  } catch (e) {
    ok(is(e), `${what}: ${String(e)}`);
    return;
  }
  throw new Error(`${what}: not refused`);
}

// Values as text, bigints and byte arrays included, to compare them.
function text(o: unknown): string {
  return JSON.stringify(o, (_k, v: unknown) =>
    typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? Array.from(v) : v);
}

function order(): ob.OrderObject {
  return {
    $type: "Order",
    $version: 2,
    orderId: 7n,
    symbol: enc.encode("ABC"),
    side: ob.Side.Buy,
    price: { mantissa: -5n },
    qty: 10,
    weights: [1, -2, 3],
    ratio: 0.5,
    flags: ob.Flags.of({ Hidden: true }),
    venue: ob.Venue.Dark,
    fills: [{ fillQty: 3, fillPrice: { mantissa: 1n }, legs: [{ ratio: 4 }], fillNote: enc.encode("n") }],
    marks: [{ mark: 9 }],
    note: enc.encode("hello"),
    blob: new Uint8Array([1, 2, 3]),
  };
}

function fails(kind: string, path: string): (e: unknown) => boolean {
  return (e) => e instanceof ob.SbeValidationError && e.kind === kind && e.path === path;
}

// `wire`: the wire type cannot hold the value, so `fromObject` refuses it too; otherwise only
// the schema forbids it and `fromObject` writes it.
function refused(kind: string, path: string, edit: (o: ob.OrderObject) => void, wire = false): void {
  const o = order();
  edit(o);
  throwsWith(() => ob.validate(o), fails(kind, path), `${kind} ${path}`);
  const buf = new Uint8Array(1 << 21);
  if (wire) {
    throwsWith(() => ob.fromObject(o, buf), fails(kind, path), `fromObject ${kind} ${path}`);
  } else if (kind !== "tooLong" && kind !== "tooManyEntries") {
    ok(ob.fromObject(o, buf) > 0, `fromObject writes ${path}`);
  }
  checks++;
}

ob.validate(order());
const buf = new Uint8Array(4096);
const n = ob.fromObject(order(), buf);
const back = ob.toObject(ob.decodeAny(buf.subarray(0, n)).decoder);
const again = new Uint8Array(4096);
ok(ob.fromObject(back, again) === n && again.every((b, i) => b === buf[i]), "written back the same");
ok(back.$type === "Order" && back.price.mantissa === -5n && back.fills[0]?.legs[0]?.ratio === 4 &&
  text(back.symbol) === text(enc.encode("ABC\0\0\0\0\0")) && text(back.weights) === "[1,-2,3]",
  `read back: ${text(back)}`);
checks++;

refused("outOfRange", "Order.orderId", (o) => { o.orderId = 18446744073709551615n; });
refused("outOfRange", "Order.orderId", (o) => { o.orderId = -1n; }, true);
refused("outOfRange", "Order.qty", (o) => { o.qty = 4294967295; });
refused("outOfRange", "Order.qty", (o) => { o.qty = 0; });
refused("outOfRange", "Order.ratio", (o) => { o.ratio = NaN; });
refused("outOfRange", "Order.qty", (o) => { o.qty = 1.5; }, true);
refused("outOfRange", "Order.qty", (o) => { o.qty = 2 ** 32; }, true);
refused("outOfRange", "Order.weights", (o) => { o.weights = [1, -32768]; });
refused("outOfRange", "Order.weights", (o) => { o.weights = [40000]; }, true);
refused("tooLong", "Order.weights", (o) => { o.weights = [1, 2, 3, 4]; });
refused("tooLong", "Order.symbol", (o) => { o.symbol = new Uint8Array(9); });
refused("outOfRange", "Price.mantissa", (o) => { o.price.mantissa = -(2n ** 63n); });
refused("outOfRange", "Price.mantissa", (o) => { o.price.mantissa = 2n ** 63n; }, true);
refused("unknownEnumValue", "Order.side", (o) => { o.side = 88; });
refused("outOfRange", "Order.side", (o) => { o.side = 300; }, true);
refused("unknownEnumValue", "Order.venue", (o) => { o.venue = 3; });
refused("tooManyEntries", "Order.fills", (o) => {
  o.fills = Array.from({ length: 65535 }, () => ({ fillQty: 0, fillPrice: null, legs: [], fillNote: new Uint8Array(0) }));
});
refused("tooLong", "Order.note", (o) => { o.note = new Uint8Array(1025); });
refused("outOfRange", "Order.fills.fillQty", (o) => { o.fills[0]!.fillQty = 4294967295; });
refused("outOfRange", "Order.fills.fillQty", (o) => { o.fills[0]!.fillQty = -1; }, true);
refused("outOfRange", "Order.fills.legs.ratio", (o) => { o.fills[0]!.legs[0]!.ratio = 1.25; }, true);
refused("outOfRange", "Order.marks.mark", (o) => { o.marks[0]!.mark = 255; });
// Values that hold no value, and a decoded message's out-of-range values, are not refused by
// `fromObject`: an empty order at version 0 writes.
const empty = order();
empty.$version = 0;
empty.qty = null;
empty.ratio = null;
empty.venue = null;
ok(ob.fromObject(empty, new Uint8Array(4096)) > 0, "an empty order writes");
ob.validate(empty);
checks++;
console.log("ok " + checks);
"#;

#[test]
fn owned_objects_validate_and_refuse_what_the_wire_cannot_hold() {
    let test = "owned_objects_validate_and_refuse_what_the_wire_cannot_hold";
    let Some(node) = tools(test) else { return };
    let root = tempfile::tempdir().expect("tempdir");
    generate(
        root.path(),
        "ob",
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../sbekit-codegen-tests/schemas/orders-be.xml"),
    );
    std::fs::write(root.path().join("validate.ts"), PROGRAM).expect("write program");
    compile(&node, root.path(), true, &["validate.ts"]);
    let stdout = run_node(root.path(), "dist/validate.js");
    eprintln!("{test}: {}", stdout.trim());
    assert!(stdout.starts_with("ok "), "{stdout}");
}
