//! What `sbekit capture stats` reports: packets and messages per template and per channel,
//! sequence gaps and duplicates, the time span, bad packets, throughput.

use crate::arbitrate::Arbitration;
use crate::read::{BadPacket, Channel, PacketMeta};
use sbekit_otf::MessageHeader;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Per-channel counts and sequence tracking.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChannelStats {
    /// Packets (with a payload).
    pub packets: u64,
    /// Messages delivered.
    pub messages: u64,
    /// First and last sequence number seen.
    pub first_seq: Option<u64>,
    /// The highest sequence number seen.
    pub last_seq: Option<u64>,
    /// Jumps forward of more than one.
    pub gaps: u64,
    /// Sequence numbers skipped by those jumps.
    pub missing: u64,
    /// Packets whose sequence number was not above the highest seen (duplicates and
    /// late arrivals).
    pub duplicates: u64,
}

/// A template's count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateCount {
    /// Template id.
    pub id: u64,
    /// Messages.
    pub messages: u64,
}

/// Statistics of a read; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Capture bytes (decompressed).
    pub bytes: u64,
    /// Captured frames.
    pub frames: u64,
    /// Frames of other traffic (not the profile's transport, not IPv4...).
    pub other_frames: u64,
    /// Frames whose headers are cut short or inconsistent, and IP fragments.
    pub malformed_frames: u64,
    /// Packets of the feed (UDP datagrams or TCP segments with a payload).
    pub packets: u64,
    /// Their payload bytes.
    pub payload_bytes: u64,
    /// Messages delivered.
    pub messages: u64,
    /// Messages by template name.
    pub templates: BTreeMap<String, TemplateCount>,
    /// By channel.
    pub channels: BTreeMap<Channel, ChannelStats>,
    /// Messages delivered by (schema id, template id, version).
    pub by_header: BTreeMap<(u64, u64, u64), u64>,
    /// Messages of a newer version than the schema's (decoded as a newer writer's).
    pub newer_version: u64,
    /// Messages the schema does not cover, by (schema id, template id, version).
    pub unknown: BTreeMap<(u64, u64, u64), u64>,
    /// Bad packets and messages, all counted.
    pub bad_count: u64,
    /// Bad packets by kind of problem.
    pub bad_by_kind: BTreeMap<&'static str, u64>,
    /// The first bad packets, with their location.
    pub bad: Vec<BadPacket>,
    keep_bad: usize,
    /// Running counts, folded into the public maps by [`Stats::settle`]: messages by
    /// template id at the schema's version, and by channel (with the last one's index cached,
    /// since consecutive packets mostly share it).
    tally: Tally,
    /// First and last capture time (ns).
    pub time_span: Option<(i64, i64)>,
    /// TCP: gaps in reassembled streams, their bytes, retransmitted segments.
    pub tcp_gaps: u64,
    /// Bytes missing in TCP gaps.
    pub tcp_gap_bytes: u64,
    /// TCP segments whose bytes had been seen already.
    pub tcp_retransmitted: u64,
    /// With arbitration: what it did.
    pub arbitration: Option<Arbitration>,
    /// Wall-clock seconds spent reading.
    pub seconds: f64,
}

#[derive(Debug, Clone, Default)]
struct Tally {
    by_template: Vec<u64>,
    /// (schema id, schema version) the counts by template are at.
    schema: (u64, u64),
    channels: Vec<(Channel, ChannelStats)>,
    last_channel: usize,
}

impl Tally {
    #[inline]
    fn channel(&mut self, ch: Channel) -> &mut ChannelStats {
        if self
            .channels
            .get(self.last_channel)
            .is_none_or(|c| c.0 != ch)
        {
            self.last_channel = match self.channels.iter().position(|c| c.0 == ch) {
                Some(i) => i,
                None => {
                    self.channels.push((ch, ChannelStats::default()));
                    self.channels.len() - 1
                }
            };
        }
        &mut self.channels[self.last_channel].1
    }
}

impl Stats {
    /// Empty statistics that keep the first `keep_bad` bad packets.
    pub fn new(keep_bad: usize) -> Stats {
        Stats {
            keep_bad,
            ..Stats::default()
        }
    }

    pub(crate) fn packet(&mut self, meta: &PacketMeta, len: usize) {
        self.packets += 1;
        self.payload_bytes += len as u64;
        self.tally.channel(meta.channel).packets += 1;
        if let Some(t) = meta.capture_ns {
            let span = self.time_span.get_or_insert((t, t));
            span.0 = span.0.min(t);
            span.1 = span.1.max(t);
        }
    }

    pub(crate) fn sequence(&mut self, meta: &PacketMeta) {
        let Some(seq) = meta.seq else { return };
        let c = self.tally.channel(meta.channel);
        c.first_seq.get_or_insert(seq);
        match c.last_seq {
            None => c.last_seq = Some(seq),
            Some(last) if seq == last.wrapping_add(1) => c.last_seq = Some(seq),
            Some(last) if seq > last => {
                c.gaps += 1;
                c.missing += seq - last - 1;
                c.last_seq = Some(seq);
            }
            Some(_) => c.duplicates += 1,
        }
    }

    /// Counts a delivered message; `schema` is the decoder's (id, version).
    #[inline]
    pub(crate) fn message(&mut self, meta: &PacketMeta, h: &MessageHeader, schema: (u64, u64)) {
        self.messages += 1;
        self.tally.channel(meta.channel).messages += 1;
        let t = &mut self.tally;
        t.schema = schema;
        match usize::try_from(h.template_id) {
            Ok(i) if h.version == schema.1 && h.schema_id == schema.0 && i < 1 << 16 => {
                if t.by_template.len() <= i {
                    t.by_template.resize(i + 1, 0);
                }
                t.by_template[i] += 1;
            }
            _ => {
                self.newer_version += u64::from(h.version > schema.1);
                *self
                    .by_header
                    .entry((h.schema_id, h.template_id, h.version))
                    .or_default() += 1;
            }
        }
    }

    /// Folds the running counts into the public maps (`name` gives a template id's name).
    pub(crate) fn settle(&mut self, name: &dyn Fn(u64) -> Option<String>) {
        let t = std::mem::take(&mut self.tally.by_template);
        let (sid, ver) = self.tally.schema;
        for (id, n) in t.into_iter().enumerate() {
            if n > 0 {
                *self.by_header.entry((sid, id as u64, ver)).or_default() += n;
            }
        }
        self.templates.clear();
        for (&(_, id, _), &n) in &self.by_header {
            let key = name(id).unwrap_or_else(|| id.to_string());
            self.templates
                .entry(key)
                .or_insert(TemplateCount { id, messages: 0 })
                .messages += n;
        }
        for (ch, c) in std::mem::take(&mut self.tally.channels) {
            let e = self.channels.entry(ch).or_default();
            e.packets += c.packets;
            e.messages += c.messages;
            e.gaps += c.gaps;
            e.missing += c.missing;
            e.duplicates += c.duplicates;
            e.first_seq = e.first_seq.or(c.first_seq);
            e.last_seq = c.last_seq.or(e.last_seq);
        }
        self.tally.last_channel = 0;
    }

    pub(crate) fn unknown_schema(&mut self, h: &MessageHeader) {
        *self
            .unknown
            .entry((h.schema_id, h.template_id, h.version))
            .or_default() += 1;
    }

    pub(crate) fn bad(&mut self, b: BadPacket) {
        self.bad_count += 1;
        *self.bad_by_kind.entry(b.problem.kind()).or_default() += 1;
        if self.bad.len() < self.keep_bad {
            self.bad.push(b);
        }
    }

    /// Gaps and missing sequence numbers over all channels.
    pub fn gaps(&self) -> (u64, u64) {
        self.channels
            .values()
            .fold((0, 0), |(g, m), c| (g + c.gaps, m + c.missing))
    }

    /// Duplicates over all channels.
    pub fn duplicates(&self) -> u64 {
        self.channels.values().map(|c| c.duplicates).sum()
    }

    /// The statistics as JSON (`sbekit capture stats --json`).
    pub fn to_json(&self) -> Value {
        let templates: BTreeMap<&String, Value> = self
            .templates
            .iter()
            .map(|(n, t)| (n, json!({"id": t.id, "messages": t.messages})))
            .collect();
        let channels: BTreeMap<String, Value> = self
            .channels
            .iter()
            .map(|(ch, c)| {
                (
                    ch.to_string(),
                    json!({
                        "packets": c.packets, "messages": c.messages,
                        "first_seq": c.first_seq, "last_seq": c.last_seq,
                        "gaps": c.gaps, "missing": c.missing, "duplicates": c.duplicates,
                    }),
                )
            })
            .collect();
        let unknown: Vec<Value> = self
            .unknown
            .iter()
            .map(|(&(s, t, v), n)| {
                json!({"schema_id": s, "template_id": t, "version": v, "messages": n})
            })
            .collect();
        let bad: Vec<Value> = self
            .bad
            .iter()
            .map(|b| {
                json!({"file": b.file, "packet": b.packet, "offset": b.offset,
                       "kind": b.problem.kind(), "message": b.problem.to_string()})
            })
            .collect();
        let (gaps, missing) = self.gaps();
        json!({
            "bytes": self.bytes,
            "frames": self.frames,
            "other_frames": self.other_frames,
            "malformed_frames": self.malformed_frames,
            "packets": self.packets,
            "payload_bytes": self.payload_bytes,
            "messages": self.messages,
            "templates": templates,
            "channels": channels,
            "gaps": gaps,
            "missing": missing,
            "duplicates": self.duplicates(),
            "newer_version": self.newer_version,
            "unknown": unknown,
            "bad_count": self.bad_count,
            "bad_by_kind": self.bad_by_kind,
            "bad": bad,
            "time_span_ns": self.time_span.map(|(a, b)| vec![a, b]),
            "tcp": {"gaps": self.tcp_gaps, "gap_bytes": self.tcp_gap_bytes,
                    "retransmitted": self.tcp_retransmitted},
            "arbitration": self.arbitration,
            "seconds": self.seconds,
            "bytes_per_second": if self.seconds > 0.0 { self.bytes as f64 / self.seconds } else { 0.0 },
            "messages_per_second": if self.seconds > 0.0 { self.messages as f64 / self.seconds } else { 0.0 },
        })
    }
}
