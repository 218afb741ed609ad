//! How a conformance program's output for one message is judged: its JSON against `sbekit
//! decode`'s, its re-encoding against the input and against what `sbekit encode` writes.
//!
//! Real traffic carries bytes that values cannot: blocks longer than the schema's (a newer
//! writer, or a venue that pads), padding that is not zero, set bits the schema does not name,
//! bytes after the NUL that ends a char array, text that is not valid in its declared encoding
//! (which `sbekit decode` prints as Latin-1, so its JSON cannot say the bytes). An encoder writes the schema's block lengths and
//! can keep only what its decoder hands it, so such a message cannot come back byte for byte;
//! each rule below says exactly what it may differ in, and the `--keep` output names the rule
//! that applied to every message.

use crate::frames::{header_version, hex};
use crate::{Case, Schema, Summary};
use serde_json::Value;

/// The rule a message passed by, or why it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// `sbekit decode` refuses the message and so does the generated decoder.
    Refused,
    /// Written at the schema's version: re-encoded byte for byte as the input.
    Identical,
    /// Written at the schema's version with bytes its values do not carry (longer blocks,
    /// padding, bytes past a NUL): re-encoded exactly as `sbekit encode` writes its values.
    Canonical(String),
    /// As [`Verdict::Canonical`], but for bytes (listed) that carry no value, which the
    /// generated codec kept from the input where `sbekit encode` writes zeros: unknown set bits,
    /// padding, bytes past a NUL. Each was tested alone: `sbekit encode`'s bytes with that one
    /// byte changed decode to the same values.
    CanonicalKeeping(Vec<usize>),
    /// Written at the schema's version with text not valid in its declared encoding (`sbekit
    /// decode` reads it as Latin-1, and `sbekit encode` would write that string's UTF-8): the
    /// re-encoding decodes to the same values with as many Latin-1 readings (the codec kept
    /// the text's bytes), and its header carries the block length `sbekit encode` writes.
    RawText(u64),
    /// Written at another version: the re-encoding decodes to the same values (and an older
    /// writer's message keeps its version).
    SameValues,
    /// The JSON differs from `sbekit decode`'s (or one refused what the other accepted).
    JsonDiffers(String),
    /// The JSON agrees, the re-encoding does not.
    ReencodingDiffers(String),
}

impl Verdict {
    /// The rule's name and details, as one tab-separated column pair of the `--keep` file.
    pub(crate) fn describe(&self) -> (String, String) {
        let (rule, detail) = match self {
            Verdict::Refused => ("refused", String::new()),
            Verdict::Identical => ("identical", String::new()),
            Verdict::Canonical(why) => ("canonical", why.clone()),
            Verdict::CanonicalKeeping(at) => (
                "canonical-keeping",
                format!(
                    "bytes that carry no value kept from the input at offsets {}",
                    at.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            ),
            Verdict::RawText(n) => (
                "raw-text",
                if *n == 1 {
                    "1 text value not valid in its encoding, kept as bytes".to_string()
                } else {
                    format!("{n} text values not valid in their encoding, kept as bytes")
                },
            ),
            Verdict::SameValues => ("same-values", String::new()),
            Verdict::JsonDiffers(what) | Verdict::ReencodingDiffers(what) => {
                ("DISAGREE", what.lines().next().unwrap_or("").to_string())
            }
        };
        (rule.to_string(), detail)
    }
}

/// Most bytes a re-encoding may differ from `sbekit encode`'s in before it is called a
/// disagreement without testing each (each test is a decode).
const MAX_KEPT_BYTES: usize = 256;

/// `sbekit decode`'s JSON for a message (with `"$version"` for an older writer's), or `None`
/// when it refuses it.
pub(crate) fn otf(dec: &sbekit_otf::Decoder, b: &[u8]) -> Option<Value> {
    let (text, _len) = sbekit_otf::message_to_decode_json(dec, b, false).ok()?;
    serde_json::from_str(&text).ok()
}

/// As [`otf`], with the number of text values `sbekit decode` read as Latin-1 because they
/// were not valid in their declared encoding.
fn otf_fallbacks(dec: &sbekit_otf::Decoder, b: &[u8]) -> Option<(Value, u64)> {
    let mut p = sbekit_otf::JsonPrinter::new(false).with_versions(dec.schema_version());
    dec.decode(b, &mut p).ok()?;
    let v = serde_json::from_slice(p.output()).ok()?;
    Some((v, p.text_fallbacks()))
}

/// The values of a decoded message without the top-level `"$version"` member: what a
/// re-encoding at another version must keep (its header says its version).
fn values(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut m = m.clone();
            m.remove(sbekit_ir::wire::VERSION_MEMBER);
            Value::Object(m)
        }
        other => other.clone(),
    }
}

/// Judges one message: `line` is the JSON the generated program printed for it, `got` the
/// frame it re-encoded.
pub(crate) fn judge(s: &Schema, i: usize, c: &Case, line: &str, got: &[u8]) -> Verdict {
    let name = s.path.display();
    // With the text values read as Latin-1 (see [`Verdict::RawText`]): one decode of the input.
    let (want, fallbacks) = match otf_fallbacks(&s.decoder, &c.bytes) {
        Some((v, n)) => (Some(v), n),
        None => (None, 0),
    };
    let printed: Option<Value> = serde_json::from_str(line).ok();
    let refused = printed
        .as_ref()
        .and_then(|v| v.get("error"))
        .is_some_and(Value::is_string);
    let w = match (&want, &printed) {
        (Some(w), Some(g)) if sbekit_encode::same_values(w, g) => w,
        (None, _) if refused => return Verdict::Refused,
        _ => {
            return Verdict::JsonDiffers(format!(
            "{name}: message {i} ({}): JSON differs\n  sbekit decode: {}\n  generated:    {line}",
            hex(&c.bytes),
            want.map_or("(refused)".into(), |w| w.to_string()),
        ))
        }
    };
    if !c.current {
        return other_version(s, i, c, w, got);
    }
    if got == c.bytes.as_slice() {
        return Verdict::Identical;
    }
    let template = s
        .layout
        .header
        .template_id
        .read(&c.bytes, s.layout.byte_order)
        .map(|t| t.to_string());
    let mut expect = Vec::new();
    if s.encoder
        .encode(w, template.as_deref(), None, &mut expect)
        .is_err()
    {
        return Verdict::ReencodingDiffers(format!(
            "{name}: message {i} ({}): re-encoded bytes differ, and `sbekit encode` cannot write its values to say which bytes may\n  generated: {}",
            hex(&c.bytes),
            hex(got)
        ));
    }
    let differ = |what: &str| {
        Verdict::ReencodingDiffers(format!(
            "{name}: message {i}: re-encoded bytes differ ({what})\n  input:     {}\n  expected:  {}\n  generated: {}",
            hex(&c.bytes),
            hex(&expect),
            hex(got)
        ))
    };
    if fallbacks > 0 {
        return raw_text(s, w, fallbacks, got, &expect, differ);
    }
    if got.len() != expect.len() {
        return differ("another length than `sbekit encode` writes");
    }
    let kept: Vec<usize> = (0..got.len()).filter(|&k| got[k] != expect[k]).collect();
    if kept.is_empty() {
        return Verdict::Canonical(why_not_identical(&c.bytes, &expect));
    }
    if kept.len() > MAX_KEPT_BYTES {
        return differ("in too many bytes");
    }
    // Each byte the codec wrote otherwise than `sbekit encode` must carry no value: the
    // canonical bytes with that one byte changed decode to the same values.
    let mut probe = expect.clone();
    for &k in &kept {
        probe[k] = got[k];
        let same = otf(&s.decoder, &probe).is_some_and(|v| sbekit_encode::same_values(&v, w));
        probe[k] = expect[k];
        if !same {
            return differ(&format!("byte {k} carries a value"));
        }
    }
    // And all of them together too.
    if !otf(&s.decoder, got).is_some_and(|v| sbekit_encode::same_values(&v, w)) {
        return differ("it decodes to other values");
    }
    Verdict::CanonicalKeeping(kept)
}

/// A message at the schema's version with `n` text values `sbekit decode` read as Latin-1:
/// see [`Verdict::RawText`].
fn raw_text(
    s: &Schema,
    w: &Value,
    n: u64,
    got: &[u8],
    expect: &[u8],
    differ: impl Fn(&str) -> Verdict,
) -> Verdict {
    match otf_fallbacks(&s.decoder, got) {
        Some((v, m)) if sbekit_encode::same_values(&v, w) && m == n => {}
        Some((_, m)) if m != n => {
            return differ(&format!(
                "{n} text values were not valid in their encoding, {m} after re-encoding"
            ))
        }
        _ => return differ("it decodes to other values"),
    }
    let block = &s.layout.header.block_length;
    if block.read(got, s.layout.byte_order) != block.read(expect, s.layout.byte_order) {
        return differ("another block length than `sbekit encode` writes");
    }
    Verdict::RawText(n)
}

/// Why a message at the schema's version could not come back byte for byte although its
/// re-encoding is what `sbekit encode` writes.
fn why_not_identical(input: &[u8], canonical: &[u8]) -> String {
    if input.len() > canonical.len() {
        format!(
            "the input is {} bytes longer (blocks longer than the schema's)",
            input.len() - canonical.len()
        )
    } else if input.len() < canonical.len() {
        format!(
            "the input is {} bytes shorter (blocks of another length)",
            canonical.len() - input.len()
        )
    } else {
        let at: Vec<String> = (0..input.len())
            .filter(|&k| input[k] != canonical[k])
            .map(|k| k.to_string())
            .collect();
        format!(
            "input bytes that carry no value (padding, past a NUL, unknown bits) at offsets {}",
            at.join(",")
        )
    }
}

/// A message of another version than the schema's: re-encoded at its acting version, it must
/// decode to the same values, and an older writer's must keep its version.
fn other_version(s: &Schema, i: usize, c: &Case, w: &Value, got: &[u8]) -> Verdict {
    let name = s.path.display();
    if !otf(&s.decoder, got).is_some_and(|g| sbekit_encode::same_values(&values(w), &values(&g))) {
        return Verdict::ReencodingDiffers(format!(
            "{name}: message {i}: re-encoded at its acting version, it decodes differently\n  input:     {}\n  generated: {}",
            hex(&c.bytes),
            hex(got)
        ));
    }
    let (was, is) = (
        header_version(&s.layout, &c.bytes),
        header_version(&s.layout, got),
    );
    let older = was.is_some_and(|v| v < u64::from(s.layout.version));
    if older && was != is {
        // The same values could come from a message written at the schema's version (fields
        // newer than the acting version print their null values either way): the header says
        // which version the encoder wrote.
        let show = |v: Option<u64>| v.map_or("(none)".to_string(), |v| v.to_string());
        return Verdict::ReencodingDiffers(format!(
            "{name}: message {i}: written at version {}, re-encoded at version {}\n  input:     {}\n  generated: {}",
            show(was),
            show(is),
            hex(&c.bytes),
            hex(got)
        ));
    }
    Verdict::SameValues
}

/// Judges every message of one schema's outputs into `sum`; the rule of each, as lines of
/// `schema\tmessage\trule\tdetail` for the `--keep` file.
pub(crate) fn judge_all(s: &Schema, json: &[u8], re: &[u8], sum: &mut Summary) -> String {
    let name = s.path.display().to_string();
    let text = String::from_utf8_lossy(json);
    let lines: Vec<&str> = text.lines().collect();
    let frames = crate::frames::read_frames(re).unwrap_or_default();
    let mut rules = String::new();
    if lines.len() != s.cases.len() || frames.len() != s.cases.len() {
        sum.messages += s.cases.len();
        sum.disagree(format!(
            "{name}: {} messages in, {} JSON lines and {} re-encoded frames out",
            s.cases.len(),
            lines.len(),
            frames.len()
        ));
        return rules;
    }
    for (i, c) in s.cases.iter().enumerate() {
        sum.messages += 1;
        let v = judge(s, i, c, lines[i], &frames[i]);
        match &v {
            Verdict::JsonDiffers(what) => sum.disagree(what.clone()),
            Verdict::ReencodingDiffers(what) => {
                sum.json_equal += 1;
                sum.disagree(what.clone());
            }
            Verdict::Refused | Verdict::SameValues => sum.json_equal += 1,
            Verdict::Identical => {
                sum.json_equal += 1;
                sum.reencoded_identical += 1;
            }
            Verdict::Canonical(_) | Verdict::CanonicalKeeping(_) | Verdict::RawText(_) => {
                sum.json_equal += 1;
                sum.reencoded_canonical += 1;
            }
        }
        let (rule, detail) = v.describe();
        rules.push_str(&format!("{name}\t{i}\t{rule}\t{detail}\n"));
    }
    rules
}
