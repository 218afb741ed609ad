// sbekit doc: the in-page decoder. It walks a message with the decoder tables `sbekit decode`
// uses (window.SBEKIT_MODEL, from decoder-model.js: sbekit_otf's Decoder::model_json) and prints
// the JSON line `sbekit decode` prints for it, byte for byte; crates/sbekit-doc/tests/decoder.rs
// holds it to that on random and damaged messages. Runs in a page and in Node (the test).
"use strict";
(function (root) {
  const SIZE = { char: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4,
    int64: 8, uint64: 8, float: 4, double: 8 };

  /** A message that cannot be decoded: `at` is the byte offset from the message start. */
  class DecodeError extends Error {
    constructor(at, what) {
      super(`${what} (at byte ${at})`);
      this.at = at;
    }
  }

  /** Reads a value of type `ty` at `at` of `bytes`: BigInt for integers, Number for floats. */
  function read(bytes, at, ty, le) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    switch (ty) {
      case "char": case "uint8": return BigInt(dv.getUint8(at));
      case "int8": return BigInt(dv.getInt8(at));
      case "uint16": return BigInt(dv.getUint16(at, le));
      case "int16": return BigInt(dv.getInt16(at, le));
      case "uint32": return BigInt(dv.getUint32(at, le));
      case "int32": return BigInt(dv.getInt32(at, le));
      case "uint64": return dv.getBigUint64(at, le);
      case "int64": return dv.getBigInt64(at, le);
      case "float": return dv.getFloat32(at, le);
      case "double": return dv.getFloat64(at, le);
      default: return 0n;
    }
  }

  // Floats as Rust's `ryu` prints them: the shortest digits that read back as the same value,
  // in plain notation within a window of exponents, else as `de-7` / `d.ddde20`.
  function shortest(x, single) {
    let s = x.toExponential();
    if (single) {
      for (let p = 1; p <= 9; p++) {
        const t = x.toExponential(p - 1);
        if (Math.fround(Number(t)) === x) { s = t; break; }
      }
    }
    const [mant, e] = s.split("e");
    const digits = mant.replace(".", "");
    return { digits, k: Number(e) - (digits.length - 1) };
  }

  function formatFloat(x, single) {
    if (!Number.isFinite(x)) return "null";
    const neg = x < 0 || Object.is(x, -0);
    const { digits, k } = shortest(Math.abs(x), single);
    const length = digits.length;
    const kk = length + k;
    const wide = single ? 13 : 16;
    const low = single ? -6 : -5;
    let out;
    if (k >= 0 && kk <= wide) {
      out = digits + "0".repeat(k) + ".0";
    } else if (kk > 0 && kk <= wide) {
      out = digits.slice(0, kk) + "." + digits.slice(kk);
    } else if (kk > low && kk <= 0) {
      out = "0." + "0".repeat(-kk) + digits;
    } else if (length === 1) {
      out = digits + "e" + (kk - 1);
    } else {
      out = digits[0] + "." + digits.slice(1) + "e" + (kk - 1);
    }
    return (neg ? "-" : "") + out;
  }

  // Text as sbekit_otf's `write_str`: valid text in its encoding is kept, anything else reads
  // one byte per code point (Latin-1), so no byte is lost.
  function encodingOf(declared) {
    if (declared === null || declared === undefined) return "latin1";
    const n = String(declared).trim().toLowerCase();
    if (n === "utf-8" || n === "utf8") return "utf8";
    if (["iso-8859-1", "iso8859-1", "iso_8859_1", "latin-1", "latin1"].includes(n)) return "latin1";
    return "ascii";
  }

  function escapeChar(c) {
    switch (c) {
      case 0x22: return "\\\"";
      case 0x5c: return "\\\\";
      case 0x0a: return "\\n";
      case 0x0d: return "\\r";
      case 0x09: return "\\t";
      case 0x08: return "\\b";
      case 0x0c: return "\\f";
      default: return "\\u00" + c.toString(16).padStart(2, "0");
    }
  }

  const plain = (c) => c >= 0x20 && c !== 0x22 && c !== 0x5c;

  function jsonString(bytes, encoding) {
    let ascii = true;
    for (const c of bytes) if (c >= 0x80) { ascii = false; break; }
    let valid = encoding === "latin1" || ascii;
    let text = null;
    if (!valid && encoding === "utf8") {
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        valid = true;
      } catch (_) {
        valid = false;
      }
    }
    let out = "\"";
    if (valid && encoding !== "latin1" && text !== null) {
      for (const ch of text) {
        const c = ch.codePointAt(0);
        out += c < 0x80 && !plain(c) ? escapeChar(c) : ch;
      }
    } else {
      for (const c of bytes) {
        out += c >= 0x80 || plain(c) ? String.fromCharCode(c) : escapeChar(c);
      }
    }
    return out + "\"";
  }

  /** The compact JSON writer: `sbekit decode`'s commas, keys and brackets. */
  class Printer {
    constructor() { this.out = ""; this.comma = false; }
    item() { if (this.comma) this.out += ","; this.comma = true; }
    key(name) { this.item(); this.out += jsonString(new TextEncoder().encode(name), "utf8") + ":"; }
    open(b) { this.out += b; this.comma = false; }
    close(b) { this.out += b; this.comma = true; }
    raw(s) { this.out += s; }
  }

  function requiredAt(required, version) {
    let len = 0;
    for (const [v, l] of required) if (BigInt(v) <= version) len = l;
    return len;
  }

  /** Decodes the message at the start of `bytes` (a Uint8Array) with `model`; returns its JSON
   * line (no newline) and its length, or throws a DecodeError. */
  function decode(model, bytes) {
    const le = model.order === "le";
    const h = model.header;
    const take = (at, n, what) => {
      if (BigInt(at) + BigInt(n) > BigInt(bytes.length)) {
        throw new DecodeError(at, `${what || "message"}: ${n} bytes needed, ${Math.max(0, bytes.length - at)} left`);
      }
    };
    take(0, h.length, "messageHeader");
    const slot = (s) => (s[2] !== null && s[2] !== undefined ? BigInt(s[2]) : read(bytes, s[0], s[1], le));
    const header = {
      blockLength: slot(h.blockLength),
      templateId: slot(h.templateId),
      schemaId: slot(h.schemaId),
      version: slot(h.version),
    };
    if (header.schemaId !== BigInt(model.schemaId) && (h.schemaId[2] === null || h.schemaId[2] === undefined)) {
      throw new DecodeError(h.schemaId[0], `schema id ${header.schemaId}, expected ${model.schemaId}`);
    }
    const message = model.messages.find((m) => BigInt(m.id) === header.templateId);
    if (!message) throw new DecodeError(h.templateId[0], `unknown template id ${header.templateId}`);
    const version = header.version;
    const p = new Printer();
    let budget = BigInt(model.maxEmptyEntries);
    p.open("{");
    if (version < BigInt(model.version)) {
      p.key("$version");
      p.raw(version.toString());
    }

    function scalar(bytes2, ty, encoding) {
      const v = read(bytes2, 0, ty, le);
      if (ty === "char") return jsonString(bytes2.subarray(0, 1), encoding);
      if (ty === "float") return formatFloat(v, true);
      if (ty === "double") return formatFloat(v, false);
      return v.toString();
    }

    function value(node, b) {
      const enc = encodingOf(node.encoding);
      if (node.type === "char" && (node.length !== 1 || b.length !== 1)) {
        let end = b.indexOf(0);
        if (end < 0) end = b.length;
        return jsonString(b.subarray(0, end), enc);
      }
      const size = SIZE[node.type] || 0;
      if (node.length > 1) {
        const parts = [];
        for (let i = 0; i < node.length; i++) parts.push(scalar(b.subarray(i * size, i * size + size), node.type, enc));
        return "[" + parts.join(",") + "]";
      }
      if (b.length < size) return "0";
      return scalar(b.subarray(0, size), node.type, enc);
    }

    function field(node, start, blockLength) {
      const present = BigInt(node.since) <= version;
      const wire = (offset, size) => {
        if (BigInt(offset + size) > blockLength) {
          throw new DecodeError(start + offset, `${node.name}: ${size} bytes needed`);
        }
        return bytes.subarray(start + offset, start + offset + size);
      };
      switch (node.kind) {
        case "prim": {
          let b;
          if (node.constant !== null && node.constant !== undefined) b = Uint8Array.from(node.constant);
          else if (present) b = wire(node.offset, SIZE[node.type] * node.length);
          else b = Uint8Array.from(node.absent);
          p.key(node.name);
          p.raw(value(node, b));
          return;
        }
        case "enum": {
          let raw;
          if (node.constant !== null && node.constant !== undefined) {
            const v = node.values[node.constant];
            raw = v ? BigInt(v[1]) : BigInt(node.null);
          } else if (present) {
            raw = BigInt.asIntN(64, read(wire(node.offset, SIZE[node.type]), 0, node.type, le));
          } else {
            raw = BigInt(node.null);
          }
          const named = node.constant !== null && node.constant !== undefined
            ? node.values[node.constant]
            : node.values.find((v) => BigInt(v[1]) === raw);
          p.key(node.name);
          const isNull = raw === BigInt(node.null) && (node.constant === null || node.constant === undefined);
          if (isNull) p.raw("null");
          else if (named) p.raw(jsonString(new TextEncoder().encode(named[0]), "utf8"));
          else p.raw(raw.toString());
          return;
        }
        case "set": {
          const raw = present ? read(wire(node.offset, SIZE[node.type]), 0, node.type, le) : 0n;
          const parts = node.choices.map(([name, bit]) =>
            jsonString(new TextEncoder().encode(name), "utf8") + ":" +
            (bit < 64 && (BigInt.asUintN(64, raw) >> BigInt(bit)) & 1n ? "true" : "false"));
          p.key(node.name);
          p.raw("{" + parts.join(",") + "}");
          return;
        }
        case "begin":
          p.key(node.name);
          p.open("{");
          return;
        case "end":
          p.close("}");
          return;
        default:
          return;
      }
    }

    function block(plan, start, blockLength) {
      const required = requiredAt(plan.required, version);
      if (blockLength < BigInt(required)) {
        throw new DecodeError(start, `block of ${blockLength} bytes, ${required} required`);
      }
      take(start, blockLength, "block");
      for (const node of plan.fields) field(node, start, blockLength);
      let pos = start + Number(blockLength);
      for (const g of plan.groups) pos = group(g, pos);
      for (const d of plan.vars) pos = varData(d, pos);
      return pos;
    }

    function group(g, pos) {
      if (BigInt(g.since) > version) {
        p.key(g.name);
        p.open("[");
        p.close("]");
        return pos;
      }
      take(pos, g.dim.size, g.name);
      const bl = read(bytes, pos + g.dim.blockLength[0], g.dim.blockLength[1], le);
      const count = read(bytes, pos + g.dim.count[0], g.dim.count[1], le);
      let at = pos + g.dim.size;
      if (bl === 0n) {
        if (count > budget) throw new DecodeError(at, `${g.name}: too many empty entries`);
        budget -= count;
      }
      const remaining = BigInt(Math.max(0, bytes.length - at));
      if (count * bl > remaining) throw new DecodeError(at, `${g.name}: ${count} entries do not fit`);
      p.key(g.name);
      p.open("[");
      const fixed = g.body.groups.length === 0 && g.body.vars.length === 0;
      if (fixed && count > 0n) {
        const required = requiredAt(g.body.required, version);
        if (bl < BigInt(required)) throw new DecodeError(at, `${g.name}[0]: block too short`);
      }
      for (let i = 0n; i < count; i++) {
        p.item();
        p.open("{");
        if (fixed) {
          take(at, bl, g.name);
          for (const node of g.body.fields) field(node, at, bl);
          at += Number(bl);
        } else {
          at = block(g.body, at, bl);
        }
        p.close("}");
      }
      p.close("]");
      return at;
    }

    function varData(d, pos) {
      const enc = encodingOf(d.encoding);
      if (BigInt(d.since) > version) {
        p.key(d.name);
        p.raw(jsonString(new Uint8Array(0), enc));
        return pos;
      }
      take(pos, d.length[0] + SIZE[d.length[1]], d.name);
      const len = read(bytes, pos + d.length[0], d.length[1], le);
      const start = pos + d.dataOffset;
      take(start, len, d.name);
      p.key(d.name);
      p.raw(jsonString(bytes.subarray(start, start + Number(len)), enc));
      return start + Number(len);
    }

    const end = block(message.body, h.length, header.blockLength);
    p.close("}");
    return { json: p.out, length: end, name: message.name };
  }

  /** Hex text (whitespace, `0x` and `,` allowed) as bytes; throws on anything else. */
  function parseHex(text) {
    const clean = text.replace(/0x/gi, "").replace(/[\s,]/g, "");
    if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) {
      throw new Error("not hex: an even number of 0-9 and a-f digits is expected");
    }
    const out = new Uint8Array(clean.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(i * 2, 2), 16);
    return out;
  }

  /** A u32le frame's message: the 4-byte little-endian length, then that many bytes. */
  function unframe(bytes) {
    if (bytes.length < 4) throw new Error("a u32le frame starts with a 4-byte length");
    const n = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
    if (n > bytes.length - 4) throw new Error(`the frame says ${n} bytes, ${bytes.length - 4} follow`);
    return bytes.subarray(4, 4 + n);
  }

  root.SbekitDecode = { decode, parseHex, unframe, formatFloat, DecodeError };

  // The page: the form on index.html.
  if (typeof document === "undefined") return;
  document.addEventListener("DOMContentLoaded", function () {
    const form = document.getElementById("decode-form");
    if (!form || !root.SBEKIT_MODEL) return;
    const out = document.getElementById("decode-output");
    const error = document.getElementById("decode-error");
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      out.textContent = "";
      error.textContent = "";
      try {
        let bytes = parseHex(document.getElementById("hex").value);
        const framing = form.querySelector("input[name=framing]:checked");
        if (framing && framing.value === "u32le") bytes = unframe(bytes);
        const r = decode(root.SBEKIT_MODEL, bytes);
        out.textContent = r.json;
        out.dataset.message = r.name;
        out.dataset.length = String(r.length);
      } catch (err) {
        error.textContent = "Cannot decode: " + (err && err.message ? err.message : String(err));
      }
    });
  });
})(typeof window !== "undefined" ? window : globalThis);
