//! The `.sbeir` interchange format of the reference SBE tool.
//!
//! A file is one `FrameCodec` record followed by one `TokenCodec` record per token (the header
//! composite's tokens first, then each message's), little endian, with no message headers; the
//! record layouts are given by the reference's `sbe-ir.xml`. Values (constants, limits, nulls)
//! are stored as the bytes the wire would carry for the token's primitive type.
//!
//! [`decode`] never panics: every length is checked against the input.

use crate::{
    view::component_end, ByteOrder, Encoding, Ir, IrError, Presence, PrimitiveType, PrimitiveValue,
    Signal, Token,
};

/// Fixed part of `TokenCodec`: five int32, four uint8 codes, deprecated int32.
const TOKEN_BLOCK: usize = 28;
/// The IR format version this module reads and writes.
pub const IR_VERSION: i32 = 0;

/// Reads a `.sbeir` file into IR.
pub fn decode(bytes: &[u8]) -> Result<Ir, IrError> {
    let mut r = Reader { bytes, pos: 0 };
    let id = r.i32("frame irId")?;
    let ir_version = r.i32("frame irVersion")?;
    if ir_version != IR_VERSION {
        return Err(IrError::Malformed(format!(
            "unsupported IR version {ir_version} (expected {IR_VERSION})"
        )));
    }
    let version = r.i32("frame schemaVersion")?;
    let package_name = r.string("frame packageName")?.unwrap_or_default();
    let namespace_name = r.string("frame namespaceName")?;
    let semantic_version = r.string("frame semanticVersion")?;

    let mut tokens = Vec::new();
    while r.pos < bytes.len() {
        tokens.push(r.token()?);
    }
    // The reference leaves BEGIN_SET/END_SET at the default little-endian byte order (its
    // consumers read the order from the choices); in memory they carry the schema's, as the
    // compiler gives them. See `encode`.
    let order = tokens
        .iter()
        .find(|t| t.signal == Signal::Encoding)
        .map(|t| t.encoding.byte_order)
        .unwrap_or_default();
    for t in &mut tokens {
        if matches!(t.signal, Signal::BeginSet | Signal::EndSet) {
            t.encoding.byte_order = order;
        }
    }

    let mut header = Vec::new();
    let mut i = 0;
    if tokens
        .first()
        .is_some_and(|t| t.signal == Signal::BeginComposite)
    {
        i = component_end(&tokens, 0)?;
        header = tokens[..i].to_vec();
    }
    let mut messages = Vec::new();
    while i < tokens.len() {
        if tokens[i].signal != Signal::BeginMessage {
            return Err(IrError::Malformed(format!(
                "expected a message, found {:?} token '{}'",
                tokens[i].signal, tokens[i].name
            )));
        }
        let end = component_end(&tokens, i)?;
        messages.push(tokens[i..end].to_vec());
        i = end;
    }
    Ok(Ir {
        package_name,
        namespace_name,
        id,
        version,
        semantic_version,
        header,
        messages,
    })
}

/// Writes IR in the `.sbeir` format.
///
/// As the reference does, BEGIN_SET and END_SET tokens are written with the little-endian
/// byte order whatever the schema's (their choices carry the real one); [`decode`] restores it.
///
/// Strings longer than 65,535 bytes (the format's limit) are truncated at that length.
pub fn encode(ir: &Ir) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * (ir.header.len() + ir.messages.len() * 64));
    out.extend_from_slice(&ir.id.to_le_bytes());
    out.extend_from_slice(&IR_VERSION.to_le_bytes());
    out.extend_from_slice(&ir.version.to_le_bytes());
    put_var(&mut out, ir.package_name.as_bytes());
    put_var(&mut out, opt_bytes(&ir.namespace_name));
    put_var(&mut out, opt_bytes(&ir.semantic_version));
    for t in ir.header.iter().chain(ir.messages.iter().flatten()) {
        encode_token(&mut out, t);
    }
    out
}

fn encode_token(out: &mut Vec<u8>, t: &Token) {
    let e = &t.encoding;
    let ty = e.primitive();
    for v in [
        t.offset,
        t.encoded_length,
        t.id,
        t.version,
        t.component_token_count,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.push(t.signal as u8);
    out.push(ty as u8);
    let order = match t.signal {
        Signal::BeginSet | Signal::EndSet => ByteOrder::LittleEndian,
        _ => e.byte_order,
    };
    out.push(order as u8);
    out.push(e.presence as u8);
    out.extend_from_slice(&t.deprecated.to_le_bytes());
    let value =
        |v: &Option<PrimitiveValue>| v.as_ref().map(|v| v.to_le_bytes(ty)).unwrap_or_default();
    put_var(out, t.name.as_bytes());
    put_var(out, &value(&e.const_value));
    put_var(out, &value(&e.min_value));
    put_var(out, &value(&e.max_value));
    put_var(out, &value(&e.null_value));
    put_var(out, opt_bytes(&e.character_encoding));
    put_var(out, opt_bytes(&e.epoch));
    put_var(out, opt_bytes(&e.time_unit));
    put_var(out, opt_bytes(&e.semantic_type));
    put_var(out, opt_bytes(&t.description));
    put_var(out, opt_bytes(&t.referenced_name));
    put_var(out, opt_bytes(&t.package_name));
}

fn opt_bytes(s: &Option<String>) -> &[u8] {
    s.as_deref().map(str::as_bytes).unwrap_or_default()
}

fn put_var(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = bytes.len().min(usize::from(u16::MAX));
    out.extend_from_slice(&(len as u16).to_le_bytes());
    out.extend_from_slice(&bytes[..len]);
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], IrError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(IrError::Truncated {
                offset: self.pos,
                what,
            })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn i32(&mut self, what: &'static str) -> Result<i32, IrError> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, IrError> {
        Ok(self.take(1, what)?[0])
    }

    fn var(&mut self, what: &'static str) -> Result<&'a [u8], IrError> {
        let b = self.take(2, what)?;
        let len = u16::from_le_bytes([b[0], b[1]]);
        self.take(usize::from(len), what)
    }

    fn string(&mut self, what: &'static str) -> Result<Option<String>, IrError> {
        let b = self.var(what)?;
        if b.is_empty() {
            return Ok(None);
        }
        String::from_utf8(b.to_vec())
            .map(Some)
            .map_err(|_| IrError::Malformed(format!("{what} is not UTF-8")))
    }

    fn token(&mut self) -> Result<Token, IrError> {
        let start = self.pos;
        if self.bytes.len() - start < TOKEN_BLOCK {
            return Err(IrError::Truncated {
                offset: start,
                what: "token block",
            });
        }
        let offset = self.i32("tokenOffset")?;
        let encoded_length = self.i32("tokenSize")?;
        let id = self.i32("fieldId")?;
        let version = self.i32("tokenVersion")?;
        let component_token_count = self.i32("componentTokenCount")?;
        let code = self.u8("signal")?;
        let signal = Signal::from_code(code).ok_or(IrError::InvalidCode {
            offset: start,
            what: "signal",
            code,
        })?;
        let code = self.u8("primitiveType")?;
        let ty = PrimitiveType::from_code(code).ok_or(IrError::InvalidCode {
            offset: start,
            what: "primitive type",
            code,
        })?;
        let code = self.u8("byteOrder")?;
        let byte_order = match code {
            0 => ByteOrder::LittleEndian,
            1 => ByteOrder::BigEndian,
            _ => {
                return Err(IrError::InvalidCode {
                    offset: start,
                    what: "byte order",
                    code,
                })
            }
        };
        let code = self.u8("presence")?;
        let presence = match code {
            0 => Presence::Required,
            1 => Presence::Optional,
            2 => Presence::Constant,
            _ => {
                return Err(IrError::InvalidCode {
                    offset: start,
                    what: "presence",
                    code,
                })
            }
        };
        let deprecated = self.i32("deprecated")?;
        let name = self.string("name")?.unwrap_or_default();
        let const_value = PrimitiveValue::from_le_bytes(self.var("constValue")?, ty);
        let min_value = PrimitiveValue::from_le_bytes(self.var("minValue")?, ty);
        let max_value = PrimitiveValue::from_le_bytes(self.var("maxValue")?, ty);
        let null_value = PrimitiveValue::from_le_bytes(self.var("nullValue")?, ty);
        let character_encoding = self.string("characterEncoding")?;
        let epoch = self.string("epoch")?;
        let time_unit = self.string("timeUnit")?;
        let semantic_type = self.string("semanticType")?;
        let description = self.string("description")?;
        let referenced_name = self.string("referencedName")?;
        let package_name = self.string("packageName")?;
        Ok(Token {
            signal,
            name,
            referenced_name,
            description,
            package_name,
            id,
            version,
            deprecated,
            encoded_length,
            offset,
            component_token_count,
            encoding: Encoding {
                presence,
                primitive_type: (ty != PrimitiveType::None).then_some(ty),
                byte_order,
                min_value,
                max_value,
                null_value,
                const_value,
                character_encoding,
                epoch,
                time_unit,
                semantic_type,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_ir() -> Ir {
        let mut begin = Token::new(Signal::BeginComposite, "messageHeader");
        begin.encoded_length = 8;
        begin.component_token_count = 6;
        let mut tokens = vec![begin.clone()];
        for (i, n) in ["blockLength", "templateId", "schemaId", "version"]
            .iter()
            .enumerate()
        {
            let mut t = Token::new(Signal::Encoding, *n);
            t.offset = 2 * i as i32;
            t.encoded_length = 2;
            t.encoding.primitive_type = Some(PrimitiveType::Uint16);
            t.encoding.max_value = Some(PrimitiveValue::UInt(1000));
            tokens.push(t);
        }
        let mut end = begin;
        end.signal = Signal::EndComposite;
        tokens.push(end);
        let mut msg = Token::new(Signal::BeginMessage, "M");
        msg.id = 7;
        msg.component_token_count = 2;
        msg.description = Some("a message".into());
        let mut msg_end = msg.clone();
        msg_end.signal = Signal::EndMessage;
        Ir {
            package_name: "p".into(),
            namespace_name: None,
            id: 3,
            version: 1,
            semantic_version: Some("1.0".into()),
            header: tokens,
            messages: vec![vec![msg, msg_end]],
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        let ir = sample_ir();
        let bytes = encode(&ir);
        assert_eq!(decode(&bytes).unwrap(), ir);
        assert_eq!(ir.header_structure().unwrap().template_id.offset, 2);
    }

    #[test]
    fn every_truncation_is_an_error_or_a_clean_cut() {
        let bytes = encode(&sample_ir());
        for n in 0..bytes.len() {
            // A cut between whole messages is a valid, shorter IR; any other cut must be an
            // error, never a panic.
            if let Ok(ir) = decode(&bytes[..n]) {
                assert_eq!(
                    encode(&ir),
                    &bytes[..n],
                    "prefix {n} decoded to something else"
                );
                assert!(ir.messages.is_empty(), "prefix {n} kept a cut message");
            }
        }
    }
}
