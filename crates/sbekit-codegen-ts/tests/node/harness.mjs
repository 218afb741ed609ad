// Test driver for generated TypeScript codecs (run by crates/sbekit-codegen-ts/tests/typescript.rs).
//
//   node harness.mjs <compiled package index.js> <input file: one hex message per line> [--decode-only]
//
// For each message prints one JSON line:
//   {"ok": <toJson output>, "re": "<hex written by reencode>" | null, "len": <encoded length>}
// after checking the owned objects: `fromObject(toObject(m))` writes the bytes `reencode` wrote,
// and the object read back from them is deep-equal to the first, and `validate` throws nothing
// but `SbeValidationError` (else a "bad" line).
//   {"err": "<SbeDecodeError kind>", "offset": n, "path": "..."}   malformed input
//   {"bad": "<any other exception>"}                                 a bug
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";

const [modPath, inputPath, mode] = process.argv.slice(2);
const pkg = await import(pathToFileURL(modPath).href);
const decodeOnly = mode === "--decode-only";
const lines = readFileSync(inputPath, "utf8").split("\n");
lines.pop(); // after the last newline
const out = [];
for (const hex of lines) {
  const b = new Uint8Array(Buffer.from(hex, "hex"));
  let m;
  try {
    m = pkg.decodeAny(b);
  } catch (e) {
    out.push(report(e));
    continue;
  }
  if (decodeOnly) {
    out.push(JSON.stringify({ decoded: m.name, len: m.decoder.sbeEncodedLength() }));
    continue;
  }
  try {
    const json = pkg.toJson(m.decoder);
    let re = null;
    try {
      const buf = new Uint8Array(2 * b.length + 65536);
      const n = pkg.reencode(m.decoder, buf);
      re = Buffer.from(buf.subarray(0, n)).toString("hex");
    } catch (e) {
      if (!(e instanceof pkg.SbeEncodeError)) throw e;
    }
    const owned = checkOwned(m, b.length);
    if (owned !== re) {
      out.push(JSON.stringify({ bad: `owned object wrote ${owned}, reencode ${re}` }));
      continue;
    }
    out.push(`{"ok":${json},"re":${re === null ? "null" : `"${re}"`},"len":${m.decoder.sbeEncodedLength()}}`);
  } catch (e) {
    out.push(report(e));
  }
}
process.stdout.write(out.join("\n") + "\n");

// The hex `fromObject(toObject(m))` writes (null when it refuses), once the object read back
// from those bytes is found deep-equal to the first; throws when it is not, or when `validate`
// throws anything but an `SbeValidationError` (a random message may hold values the schema
// does not allow; `fromObject` writes them all the same).
function checkOwned(m, size) {
  const obj = pkg.toObject(m.decoder);
  try {
    pkg.validate(obj);
  } catch (e) {
    if (!(e instanceof pkg.SbeValidationError)) throw e;
  }
  const buf = new Uint8Array(2 * size + 65536);
  let n;
  try {
    n = pkg.fromObject(obj, buf);
  } catch (e) {
    if (!(e instanceof pkg.SbeEncodeError)) throw e;
    return null;
  }
  const again = pkg.toObject(pkg.decodeAny(buf.subarray(0, n)).decoder);
  if (!isDeepStrictEqual(again, obj)) throw new Error("the owned object read back differs");
  return Buffer.from(buf.subarray(0, n)).toString("hex");
}

function report(e) {
  if (e instanceof pkg.SbeDecodeError) {
    return JSON.stringify({ err: e.kind, offset: e.offset, path: e.path });
  }
  return JSON.stringify({ bad: `${e && e.name}: ${e && e.message}` });
}
