//! JSON lines for `sbekit capture decode`: each message as `sbekit decode` prints it, followed
//! by the packet columns `_capture_time`, `_channel`, `_seq`, `_sending_time` (ns since the
//! epoch, or null) and `_msg_index` (the message's index in its packet).

use crate::read::{FeedMessage, PacketMeta, Sink};
use sbekit_otf::{DecodeError, Decoder, JsonPrinter};
use std::io::Write;

/// The packet columns' names, in order.
pub const PACKET_COLUMNS: [&str; 5] = [
    "_capture_time",
    "_channel",
    "_seq",
    "_sending_time",
    "_msg_index",
];

/// A sink printing JSON lines into a buffer; see the module docs.
pub struct JsonLines<'d> {
    decoder: &'d Decoder,
    printer: JsonPrinter,
    out: Vec<u8>,
}

impl<'d> JsonLines<'d> {
    /// A printer for messages of `decoder`'s schema.
    pub fn new(decoder: &'d Decoder) -> Self {
        JsonLines {
            decoder,
            printer: JsonPrinter::new(false).with_versions(decoder.schema_version()),
            out: Vec::with_capacity(1 << 16),
        }
    }

    /// The lines printed so far.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    /// Forgets the lines printed so far.
    pub fn clear(&mut self) {
        self.out.clear();
    }
}

fn opt(out: &mut Vec<u8>, v: Option<impl std::fmt::Display>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.extend_from_slice(b"null"),
    }
}

impl Sink for JsonLines<'_> {
    fn message(&mut self, p: &PacketMeta, m: &FeedMessage<'_>) -> Result<(), DecodeError> {
        self.printer.clear();
        self.decoder.decode(m.bytes, &mut self.printer)?;
        let line = self.printer.output();
        // `{...}\n`: the packet columns go before the closing brace, after any member.
        let Some(body) = line.strip_suffix(b"}\n") else {
            return Ok(());
        };
        self.out.extend_from_slice(body);
        if body != b"{" {
            self.out.push(b',');
        }
        self.out.extend_from_slice(b"\"_capture_time\":");
        opt(&mut self.out, p.capture_ns);
        let _ = write!(self.out, ",\"_channel\":\"{}\",\"_seq\":", p.channel);
        opt(&mut self.out, p.seq);
        self.out.extend_from_slice(b",\"_sending_time\":");
        opt(&mut self.out, p.sending_ns);
        let _ = writeln!(self.out, ",\"_msg_index\":{}}}", m.index);
        Ok(())
    }
}
