//! Value-for-value comparison of the reference's JSON (`JsonTokenListener`) with sbekit's
//! (`JsonPrinter`), allowing only named normalizations, each counted.
//!
//! The normalizations are the deliberate differences in `crates/sbekit-otf/README.md` and the
//! reference's own faults listed in issue 10; see [`NORMALIZATIONS`].

use serde_json::Value;
use std::collections::BTreeMap;

/// Every normalization the comparison may apply, with what it allows.
pub const NORMALIZATIONS: &[(&str, &str)] = &[
    ("float-text", "floats: Java Float/Double.toString versus shortest round-trip text, same value"),
    ("nan-infinity", "NaN and infinities: the reference's \"0/0\", \"1/0\", \"-1/0\" strings, sbekit's null"),
    ("uint64-above-i64-max", "uint64 above i64::MAX: negative in the reference (Java long), the unsigned value in sbekit"),
    ("enum-unnamed", "enum value with no name: the text \"null\" in the reference, null or the raw number in sbekit"),
    ("enum-null-valid-value", "an enum's null value listed as a validValue: its name in the reference, null in sbekit"),
    ("raw-var-data", "var data without characterEncoding: a hex dump in the reference, Latin-1 text in sbekit, same bytes"),
    ("char-sign-extension", "reference fault: a char of 0x80 and above is sign-extended (U+FF80..U+FFFF)"),
    ("char-array-high-byte", "reference fault: a char array stops at its first byte of 0x80 and above"),
    ("absent-field-read-from-buffer", "reference fault: a field or composite member newer than the acting version is read from the buffer; sbekit reports its null value"),
    ("constant-enum-read-past-end", "reference fault: it reads constant enum fields from the buffer, past the end of a message ending with one (IndexOutOfBoundsException); the helper retries with 64 zero bytes of slack"),
    ("absent-char-empty", "an optional char absent at the acting version: \"\" in the reference, \"\\u0000\" in sbekit"),
];

/// What the comparison needs to know about a message's fields, by field name.
#[derive(Debug, Default, Clone)]
pub struct Fields {
    /// Names of fields and composite members newer than the acting version (by name, over the
    /// whole message).
    pub absent_required: std::collections::HashSet<String>,
}

/// Compares one message: the reference's text with sbekit's JSON.
pub fn compare(
    reference: &str,
    ours: &str,
    fields: &Fields,
    counts: &mut BTreeMap<&'static str, u64>,
) -> Result<(), String> {
    let r: Value = serde_json::from_str(reference)
        .map_err(|e| format!("reference output is not JSON ({e}): {reference}"))?;
    let s: Value =
        serde_json::from_str(ours).map_err(|e| format!("sbekit output ({e}): {ours}"))?;
    value("", &r, &s, fields, false, counts)
}

fn bump(counts: &mut BTreeMap<&'static str, u64>, name: &'static str) -> Result<(), String> {
    debug_assert!(NORMALIZATIONS.iter().any(|(n, _)| *n == name));
    *counts.entry(name).or_default() += 1;
    Ok(())
}

fn value(
    path: &str,
    r: &Value,
    s: &Value,
    fields: &Fields,
    absent: bool,
    counts: &mut BTreeMap<&'static str, u64>,
) -> Result<(), String> {
    if r == s {
        return Ok(());
    }
    let differ = || Err(format!("{path}: reference {r} / sbekit {s}"));
    match (r, s) {
        (Value::Object(a), Value::Object(b)) => {
            let keys_a: Vec<&String> = a.keys().collect();
            let keys_b: Vec<&String> = b.keys().collect();
            if keys_a != keys_b {
                return Err(format!("{path}: members {keys_a:?} / {keys_b:?}"));
            }
            for (k, va) in a {
                let absent = absent || fields.absent_required.contains(k.as_str());
                value(&format!("{path}.{k}"), va, &b[k], fields, absent, counts)?;
            }
            Ok(())
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                value(&format!("{path}[{i}]"), x, y, fields, absent, counts)?;
            }
            Ok(())
        }
        _ if absent => bump(counts, "absent-field-read-from-buffer"),
        (Value::Number(a), Value::Number(b)) => {
            if let (Some(x), Some(y)) = (a.as_i64(), b.as_u64()) {
                if x < 0 && (x as u64) == y {
                    return bump(counts, "uint64-above-i64-max");
                }
            }
            let (x, y) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            if x == y || (x as f32 == y as f32 && (x as f32).is_finite()) {
                return bump(counts, "float-text");
            }
            differ()
        }
        (Value::String(t), Value::Null) if ["0/0", "1/0", "-1/0"].contains(&t.as_str()) => {
            bump(counts, "nan-infinity")
        }
        (Value::String(t), Value::Null | Value::Number(_)) if t == "null" => {
            bump(counts, "enum-unnamed")
        }
        (Value::String(_), Value::Null) => bump(counts, "enum-null-valid-value"),
        (Value::String(a), Value::String(b)) => strings(path, a, b, counts),
        _ => differ(),
    }
}

fn strings(
    path: &str,
    a: &str,
    b: &str,
    counts: &mut BTreeMap<&'static str, u64>,
) -> Result<(), String> {
    let ours: Vec<u32> = b.chars().map(u32::from).collect();
    // A hex dump of raw var data: compare the bytes (sbekit prints one code point per byte).
    if let Some(bytes) = hex_dump(a) {
        if ours.iter().all(|&c| c < 256)
            && bytes == ours.iter().map(|&c| c as u8).collect::<Vec<_>>()
        {
            return bump(counts, "raw-var-data");
        }
    }
    if a.is_empty() && b == "\u{0}" {
        return bump(counts, "absent-char-empty");
    }
    let theirs: Vec<u32> = a
        .chars()
        .map(|c| match u32::from(c) {
            c @ 0xFF80..=0xFFFF => c - 0xFF00,
            c => c,
        })
        .collect();
    if theirs == ours {
        return bump(counts, "char-sign-extension");
    }
    if theirs.len() < ours.len() && ours[..theirs.len()] == theirs[..] && ours[theirs.len()] >= 0x80
    {
        return bump(counts, "char-array-high-byte");
    }
    Err(format!("{path}: reference {a:?} / sbekit {b:?}"))
}

/// Parses the reference's hex dump of raw bytes (agrona `PrintBufferUtil.hexDump`).
fn hex_dump(text: &str) -> Option<Vec<u8>> {
    let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() % 2 != 0 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).ok())
        .collect()
}

/// Sums counts into a total.
pub fn merge(total: &mut BTreeMap<&'static str, u64>, part: &BTreeMap<&'static str, u64>) {
    for (k, v) in part {
        *total.entry(k).or_default() += v;
    }
}

/// Counts of applied normalizations, by name.
pub type Counts = BTreeMap<&'static str, u64>;
