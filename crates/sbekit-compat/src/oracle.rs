//! Proof by execution: random messages written with one schema version, read with the other.
//!
//! *Backward*: writers of the old schema (at every acting version it knows) read by the new
//! schema's decoder; *forward*: writers of the new schema read by the old decoder. The writer is
//! `sbekit_otf::random` (driven by IR tokens); its values are then nudged into what a valid
//! writer sends (optional fields null now and then, integers within their range, enums and sets
//! from the schema's values) by a walk over the writer's layout. Both sides decode the bytes
//! with [`sbekit_otf::Decoder`]; every element the two versions share is compared by value
//! (paired by name, through the checker's renames).

use crate::error::OracleError;
use crate::rules::Effect;
use crate::source::Schema;
use sbekit_ir::layout::{wire_bits, Block, Field, FieldKind, Layout, Message};
use sbekit_ir::wire;
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use sbekit_otf::random::{random_message, Options, Rng};
use sbekit_otf::{
    DecodeError, Decoder, ErrorKind, FieldNode, GroupPlan, MessageHeader, MessagePlan, Origin,
    Value, VarDataPlan, Visitor,
};
use serde::Serialize;
use std::collections::HashMap;
use std::rc::Rc;

/// Which way messages travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Way {
    /// Old writers, new reader.
    Backward,
    /// New writers, old reader.
    Forward,
}

/// A message on which the two sides disagree.
#[derive(Debug, Clone, Serialize)]
pub struct Counterexample {
    /// Which way the message travelled.
    pub way: Way,
    /// Message name (the writer's).
    pub message: String,
    /// The writer's acting version (in the header).
    pub writer_version: u32,
    /// The message bytes.
    pub bytes: Vec<u8>,
    /// The first element that differs (the new schema's naming).
    pub path: String,
    /// What the writer's schema decodes there.
    pub writer: String,
    /// What the reader's schema decodes there (or its decoding error).
    pub reader: String,
    /// The whole message as the writer's schema decodes it (JSON).
    pub writer_json: String,
    /// The whole message as the reader's schema decodes it (JSON), or the error.
    pub reader_json: String,
    /// Break, or Warn for a value the reader does not know.
    pub effect: Effect,
}

/// The result of one way.
#[derive(Debug, Clone, Serialize)]
pub struct WayResult {
    /// Messages run.
    pub messages: usize,
    /// The worst effect seen.
    pub effect: Effect,
    /// The first message showing that effect (none when nothing differed).
    pub counterexample: Option<Counterexample>,
}

/// The oracle's verdict for both ways.
#[derive(Debug, Clone, Serialize)]
pub struct OracleReport {
    /// Old writers, new reader.
    pub backward: WayResult,
    /// New writers, old reader.
    pub forward: WayResult,
}

/// Runs `per_message` random messages of every message type each way (spread over the
/// writer's acting versions). `renames` are the checker's (old path, new name) pairs.
pub fn run(
    old: &Schema,
    new: &Schema,
    renames: &[(String, String)],
    per_message: usize,
    seed: u64,
) -> Result<OracleReport, OracleError> {
    let rn = Renames::new(renames);
    Ok(OracleReport {
        backward: one_way(old, new, true, &rn, per_message, seed)?,
        forward: one_way(new, old, false, &rn, per_message, seed ^ 0x5eed)?,
    })
}

struct Renames(HashMap<String, String>);

impl Renames {
    fn new(list: &[(String, String)]) -> Renames {
        Renames(list.iter().cloned().collect())
    }

    /// An old-schema path (`Car.fuel[2].speed`) in the new schema's names.
    fn to_new(&self, path: &str) -> String {
        let mut structural = String::new();
        let mut out = String::new();
        for (i, seg) in path.split('.').enumerate() {
            let (name, index) = match seg.find('[') {
                Some(k) => (&seg[..k], &seg[k..]),
                None => (seg, ""),
            };
            if i > 0 {
                structural.push('.');
                out.push('.');
            }
            structural.push_str(name);
            out.push_str(self.0.get(&structural).map_or(name, String::as_str));
            out.push_str(index);
        }
        out
    }
}

fn one_way(
    writer: &Schema,
    reader: &Schema,
    writer_is_old: bool,
    rn: &Renames,
    per_message: usize,
    seed: u64,
) -> Result<WayResult, OracleError> {
    let way = if writer_is_old {
        Way::Backward
    } else {
        Way::Forward
    };
    let decoder = |s: &Schema| {
        Decoder::new(&s.ir).map_err(|e| OracleError::Decoder {
            label: s.label.clone(),
            message: e.to_string(),
        })
    };
    let (wdec, rdec) = (decoder(writer)?, decoder(reader)?);
    let winfo = Info::new(&writer.layout);
    let rinfo = Info::new(&reader.layout);
    let mut result = WayResult {
        messages: 0,
        effect: Effect::Ok,
        counterexample: None,
    };
    // Old names to new, whichever side is old.
    let common = |path: &str, old_side: bool| {
        if old_side {
            rn.to_new(path)
        } else {
            path.to_string()
        }
    };
    for tokens in &writer.ir.messages {
        let Some(first) = tokens.first() else {
            continue;
        };
        let Some(msg) = u32::try_from(first.id)
            .ok()
            .and_then(|id| writer.layout.message(id))
        else {
            continue;
        };
        let versions = acting_versions(msg, writer.layout.version);
        for k in 0..per_message {
            let v = versions[k % versions.len()];
            let mut rng = Rng::new(seed ^ (u64::from(msg.id) << 32) ^ k as u64);
            let opts = Options {
                writer_version: Some(v),
                extra_block: 0,
                max_group: 3,
                max_data: 8,
            };
            let mut bytes = random_message(&writer.ir, tokens, &mut rng, &opts).bytes;
            salt(&writer.layout, msg, &mut bytes, v, &mut rng);
            result.messages += 1;
            let w = collect(&wdec, &bytes, &winfo).map_err(|e| OracleError::SelfCheck {
                message: msg.name.clone(),
                reason: e.to_string(),
            })?;
            let r = collect(&rdec, &bytes, &rinfo);
            let found = match &r {
                Err(e) => match e.kind {
                    ErrorKind::UnknownTemplate(_) => {
                        // New messages are fine for old readers; a message the reader knows by
                        // name under another id, or one the new schema dropped, is not.
                        let name_known = reader.layout.messages.iter().any(|m| {
                            common(&m.name, !writer_is_old) == common(&msg.name, writer_is_old)
                        });
                        if name_known || writer_is_old {
                            Some((Effect::Break, String::new(), "-".into(), format!("{e}")))
                        } else {
                            None
                        }
                    }
                    _ => Some((Effect::Break, String::new(), "-".into(), format!("{e}"))),
                },
                Ok(r) => {
                    let wmap: HashMap<String, &Obs> = w
                        .iter()
                        .map(|(p, o)| (common(p, writer_is_old), o))
                        .collect();
                    let mut worst: Option<(Effect, String, String, String)> = None;
                    for (rp, ro) in r {
                        let path = common(rp, !writer_is_old);
                        let eff = match wmap.get(&path) {
                            None => reader_only(ro),
                            Some(wo) => classify(wo, ro, writer_is_old),
                        };
                        if eff > worst.as_ref().map_or(Effect::Ok, |x| x.0) {
                            let wtxt = wmap.get(&path).map_or("(not written)".into(), |o| o.text());
                            worst = Some((eff, path, wtxt, ro.text()));
                            if eff == Effect::Break {
                                break;
                            }
                        }
                    }
                    worst
                }
            };
            if let Some((effect, path, wtxt, rtxt)) = found {
                if effect > result.effect {
                    result.effect = effect;
                    result.counterexample = Some(Counterexample {
                        way,
                        message: msg.name.clone(),
                        writer_version: v,
                        writer_json: json(&wdec, &bytes),
                        reader_json: json(&rdec, &bytes),
                        bytes: bytes.clone(),
                        path,
                        writer: wtxt,
                        reader: rtxt,
                        effect,
                    });
                }
            }
            if result.effect == Effect::Break {
                // One counterexample proves the verdict; stop this way early.
                return Ok(result);
            }
        }
    }
    Ok(result)
}

fn json(dec: &Decoder, bytes: &[u8]) -> String {
    match sbekit_otf::message_to_json(dec, bytes, false) {
        Ok((j, _)) => j.trim_end().to_string(),
        Err(e) => format!("error: {e}"),
    }
}

/// The acting versions worth writing a message at: each distinct `sinceVersion` of its
/// elements up to the schema version, and the schema version itself.
fn acting_versions(m: &Message, version: u32) -> Vec<u32> {
    fn walk(b: &Block, out: &mut Vec<u32>) {
        for f in &b.fields {
            out.push(f.since_version);
            if let FieldKind::Composite { members, .. } = &f.kind {
                out.extend(members.iter().map(|m| m.since_version));
            }
        }
        for g in &b.groups {
            out.push(g.since_version);
            walk(&g.block, out);
        }
        out.extend(b.var_data.iter().map(|d| d.since_version));
    }
    let mut out = vec![version];
    walk(&m.block, &mut out);
    out.retain(|&v| v <= version);
    out.sort_unstable();
    out.dedup();
    // The schema version first, so small runs still exercise the current writer.
    out.reverse();
    out
}

/// A decoded element, normalised for comparison.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Absent,
    Null,
    Int(i128),
    Float(u64),
    Chars(Vec<u8>),
    Array(Vec<Val>),
    Enum {
        raw: i64,
        name: Option<String>,
        known: Rc<Vec<String>>,
    },
    Set {
        raw: u64,
        choices: Rc<Vec<(String, u32)>>,
    },
    Data(Vec<u8>),
    Count(u64),
}

#[derive(Debug, Clone)]
struct Obs {
    val: Val,
    /// False when a valid writer of this schema could not have sent it (skipped).
    valid: bool,
    constant: bool,
}

impl Obs {
    fn text(&self) -> String {
        match &self.val {
            Val::Enum { raw, name, .. } => match name {
                Some(n) => format!("{n} ({raw})"),
                None => format!("unknown value {raw}"),
            },
            Val::Set { raw, choices } => {
                let on: Vec<String> = choices
                    .iter()
                    .filter(|c| c.1 < 64 && raw & (1 << c.1) != 0)
                    .map(|c| c.0.clone())
                    .collect();
                format!("{raw:#x} {on:?}")
            }
            Val::Chars(b) | Val::Data(b) => format!("{:?}", String::from_utf8_lossy(b)),
            Val::Float(bits) => format!("{}", f64::from_bits(*bits)),
            v => format!("{v:?}"),
        }
    }
}

/// An element only the reader has.
fn reader_only(o: &Obs) -> Effect {
    match &o.val {
        _ if o.constant => Effect::Ok,
        Val::Absent | Val::Null | Val::Count(0) => Effect::Ok,
        Val::Data(d) if d.is_empty() => Effect::Ok,
        _ => Effect::Break,
    }
}

fn raw_of(v: &Val) -> Option<i128> {
    match v {
        Val::Int(i) => Some(*i),
        Val::Enum { raw, .. } => Some(i128::from(*raw)),
        Val::Set { raw, .. } => Some(i128::from(*raw)),
        _ => None,
    }
}

/// How the reader's view of one element compares with the writer's.
fn classify(w: &Obs, r: &Obs, reader_is_new: bool) -> Effect {
    // A value the reader does not know: new readers must know every old value; old readers
    // meeting new values is the expected cost of adding them (a warning).
    let unknown = if reader_is_new {
        Effect::Break
    } else {
        Effect::Warn
    };
    if !w.valid {
        return Effect::Ok;
    }
    let same = |b: bool| if b { Effect::Ok } else { Effect::Break };
    match (&w.val, &r.val) {
        (Val::Absent | Val::Null, Val::Absent | Val::Null) => Effect::Ok,
        (Val::Absent | Val::Null, _) | (_, Val::Absent | Val::Null) => Effect::Break,
        (
            Val::Enum {
                raw: a,
                name: wa,
                known: wk,
            },
            Val::Enum {
                raw: b,
                name: rb,
                known: rk,
            },
        ) => {
            if a != b {
                return Effect::Break;
            }
            match (wa, rb) {
                (Some(x), Some(y)) if x == y => Effect::Ok,
                (Some(x), Some(y)) => same(!rk.contains(x) && !wk.contains(y)),
                (Some(_), None) => unknown,
                (None, _) => Effect::Ok,
            }
        }
        (
            Val::Set {
                raw: a,
                choices: wc,
            },
            Val::Set {
                raw: b,
                choices: rc,
            },
        ) => {
            let mask = wc
                .iter()
                .filter(|c| c.1 < 64)
                .fold(0u64, |m, c| m | 1 << c.1);
            if a & mask != b & mask {
                return Effect::Break;
            }
            let mut worst = Effect::Ok;
            for (name, bit) in wc.iter().filter(|c| c.1 < 64 && a & (1 << c.1) != 0) {
                let e = match rc.iter().find(|c| c.1 == *bit) {
                    None => unknown,
                    Some((n, _)) if n == name => Effect::Ok,
                    Some((n, _)) => {
                        same(!rc.iter().any(|c| &c.0 == name) && !wc.iter().any(|c| &c.0 == n))
                    }
                };
                worst = worst.max(e);
            }
            worst
        }
        (a, b) => match (raw_of(a), raw_of(b)) {
            (Some(x), Some(y)) => same(x == y),
            _ => same(a == b),
        },
    }
}

/// What one schema's decoder needs to know about an element beyond the decoder's own plan.
#[derive(Debug, Clone)]
struct ElemInfo {
    presence: Presence,
    /// (type, null bits, min, max) of a primitive.
    prim: Option<(PrimitiveType, u64, i128, i128)>,
    /// Enum value names, encoding and null bits.
    enumeration: Option<(Rc<Vec<String>>, PrimitiveType, u64)>,
    set: Option<Rc<Vec<(String, u32)>>>,
}

/// Elements by path without entry indices (`Car.fuelFigures.speed`).
struct Info(HashMap<String, ElemInfo>);

impl Info {
    fn new(layout: &Layout) -> Info {
        let mut map = HashMap::new();
        for m in &layout.messages {
            add_block(layout, &m.block, &m.name, &mut map);
        }
        Info(map)
    }
}

fn add_block(layout: &Layout, b: &Block, path: &str, map: &mut HashMap<String, ElemInfo>) {
    for f in &b.fields {
        add_field(layout, f, &format!("{path}.{}", f.name), f.presence, map);
    }
    for g in &b.groups {
        add_block(layout, &g.block, &format!("{path}.{}", g.name), map);
    }
}

fn add_field(
    layout: &Layout,
    f: &Field,
    path: &str,
    presence: Presence,
    map: &mut HashMap<String, ElemInfo>,
) {
    let mut info = ElemInfo {
        presence,
        prim: None,
        enumeration: None,
        set: None,
    };
    match &f.kind {
        FieldKind::Primitive(p) => {
            let bound = |v: &PrimitiveValue| v.as_i128();
            info.prim = Some((
                p.ty,
                wire_bits(&p.null_value, p.ty),
                bound(&p.min_value).unwrap_or(i128::MIN),
                bound(&p.max_value).unwrap_or(i128::MAX),
            ));
        }
        FieldKind::Enum { def, .. } => {
            let e = layout.enum_def(*def);
            let names = e.values.iter().map(|v| v.name.clone()).collect();
            info.enumeration = Some((Rc::new(names), e.encoding, e.null_bits()));
        }
        FieldKind::Set { def } => {
            let s = layout.set_def(*def);
            let c = s.choices.iter().map(|c| (c.name.clone(), c.bit)).collect();
            info.set = Some(Rc::new(c));
        }
        FieldKind::Composite { members, .. } => {
            for m in members {
                // A member is optional if it or its field is.
                let pr = if presence == Presence::Optional {
                    Presence::Optional
                } else {
                    m.presence
                };
                add_field(layout, m, &format!("{path}.{}", m.name), pr, map);
            }
        }
    }
    map.insert(path.to_string(), info);
}

fn strip_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut skip = false;
    for c in path.chars() {
        match c {
            '[' => skip = true,
            ']' => skip = false,
            c if !skip => out.push(c),
            _ => {}
        }
    }
    out
}

struct Collect<'a> {
    info: &'a Info,
    stack: Vec<String>,
    out: Vec<(String, Obs)>,
}

fn collect(dec: &Decoder, bytes: &[u8], info: &Info) -> Result<Vec<(String, Obs)>, DecodeError> {
    let mut c = Collect {
        info,
        stack: Vec::new(),
        out: Vec::new(),
    };
    dec.decode(bytes, &mut c)?;
    Ok(c.out)
}

fn mask(ty: PrimitiveType) -> u64 {
    match ty.size() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}

impl Collect<'_> {
    fn path(&self, name: &str) -> String {
        let mut p = self.stack.join(".");
        p.push('.');
        p.push_str(name);
        p
    }

    fn obs(&self, path: &str, value: Value<'_>, origin: Origin) -> Obs {
        let info = self.info.0.get(&strip_indices(path));
        let optional = info.is_some_and(|i| i.presence == Presence::Optional);
        let mut valid = true;
        let num = |v: &Value<'_>| -> Val {
            match *v {
                Value::Int(i) => Val::Int(i128::from(i)),
                Value::UInt(u) => Val::Int(i128::from(u)),
                Value::Char(c) => Val::Int(i128::from(c)),
                Value::Float(f) => Val::Float(f64::from(f).to_bits()),
                Value::Double(d) => Val::Float(d.to_bits()),
                _ => Val::Absent,
            }
        };
        let val = match value {
            _ if origin == Origin::Absent => Val::Absent,
            Value::Chars(b) => Val::Chars(b.to_vec()),
            Value::Array(a) => Val::Array(a.iter().map(|x| num(&x)).collect()),
            Value::Enum(e) => {
                let (known, null) = match info.and_then(|i| i.enumeration.as_ref()) {
                    Some((k, enc, null)) => (k.clone(), Some((*enc, *null))),
                    None => (Rc::new(Vec::new()), None),
                };
                let is_null = null.is_some_and(|(enc, n)| e.raw as u64 & mask(enc) == n);
                if optional && is_null && origin == Origin::Wire {
                    Val::Null
                } else {
                    valid = e.name.is_some() || origin != Origin::Wire;
                    Val::Enum {
                        raw: e.raw,
                        name: e.name.map(str::to_string),
                        known,
                    }
                }
            }
            Value::Set(s) => Val::Set {
                raw: s.raw,
                choices: info
                    .and_then(|i| i.set.clone())
                    .unwrap_or_else(|| Rc::new(Vec::new())),
            },
            v => {
                let n = num(&v);
                match (info.and_then(|i| i.prim), &n) {
                    (Some((ty, null, min, max)), Val::Int(i)) => {
                        if optional && (*i as u64) & mask(ty) == null {
                            Val::Null
                        } else {
                            valid = origin != Origin::Wire || (min <= *i && *i <= max);
                            n
                        }
                    }
                    (Some((ty, null, _, _)), Val::Float(bits)) => {
                        let b = if ty == PrimitiveType::Float {
                            u64::from((f64::from_bits(*bits) as f32).to_bits())
                        } else {
                            *bits
                        };
                        if optional && b == null {
                            Val::Null
                        } else {
                            n
                        }
                    }
                    _ => n,
                }
            }
        };
        Obs {
            val,
            valid,
            constant: origin == Origin::Constant,
        }
    }
}

impl Visitor for Collect<'_> {
    fn begin_message(&mut self, message: &MessagePlan, _header: &MessageHeader) {
        self.stack = vec![message.name.clone()];
    }

    fn on_value(&mut self, node: &FieldNode, value: Value<'_>, origin: Origin) {
        let path = self.path(&node.name);
        let obs = self.obs(&path, value, origin);
        self.out.push((path, obs));
    }

    fn begin_composite(&mut self, node: &FieldNode) {
        self.stack.push(node.name.clone());
    }

    fn end_composite(&mut self, _begin: &FieldNode) {
        self.stack.pop();
    }

    fn begin_group(&mut self, group: &GroupPlan, count: u64) {
        let path = self.path(&group.name);
        self.out.push((
            path,
            Obs {
                val: Val::Count(count),
                valid: true,
                constant: false,
            },
        ));
        self.stack.push(group.name.clone());
    }

    fn begin_entry(&mut self, group: &GroupPlan, index: u64) {
        if let Some(top) = self.stack.last_mut() {
            *top = format!("{}[{index}]", group.name);
        }
    }

    fn end_group(&mut self, _group: &GroupPlan) {
        self.stack.pop();
    }

    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], _origin: Origin) {
        let path = self.path(&field.name);
        self.out.push((
            path,
            Obs {
                val: Val::Data(data.to_vec()),
                valid: true,
                constant: false,
            },
        ));
    }
}

/// Nudges a random message toward what a valid writer of `layout` at `version` sends:
/// optional fields null a quarter of the time, integers within their schema range, enums and
/// sets from the values the schema lists. Walks the message with the writer's own layout;
/// every count and length read is bounded by the buffer.
fn salt(layout: &Layout, msg: &Message, bytes: &mut [u8], version: u32, rng: &mut Rng) {
    let order = layout.byte_order;
    let h = &layout.header;
    let Some(bl) = h.block_length.read(bytes, order) else {
        return;
    };
    let mut s = Salter {
        layout,
        order,
        version,
        rng,
    };
    s.block(&msg.block, bytes, h.size, bl as usize);
}

struct Salter<'a, 'r> {
    layout: &'a Layout,
    order: ByteOrder,
    version: u32,
    rng: &'r mut Rng,
}

impl Salter<'_, '_> {
    fn block(&mut self, b: &Block, bytes: &mut [u8], start: usize, bl: usize) -> Option<usize> {
        for f in &b.fields {
            if f.since_version <= self.version && !f.is_constant() {
                self.field(f, bytes, start.checked_add(f.offset)?, f.presence);
            }
        }
        let mut pos = start.checked_add(bl)?;
        for g in &b.groups {
            if g.since_version > self.version {
                continue;
            }
            let d = &g.dimension;
            let dim = bytes.get(pos..)?;
            let ebl = d.block_length.read(dim, self.order)?;
            let n = d.num_in_group.read(dim, self.order)?;
            pos = pos.checked_add(d.size)?;
            // Each entry takes at least one byte or the count is bogus.
            if n > bytes.len() as u64 {
                return None;
            }
            for _ in 0..n {
                pos = self.block(&g.block, bytes, pos, ebl as usize)?;
            }
        }
        for v in &b.var_data {
            if v.since_version > self.version {
                continue;
            }
            let len = v.length.read(bytes.get(pos..)?, self.order)?;
            pos = pos
                .checked_add(v.data_offset)?
                .checked_add(usize::try_from(len).ok()?)?;
        }
        Some(pos)
    }

    fn field(&mut self, f: &Field, bytes: &mut [u8], at: usize, presence: Presence) {
        let optional = presence == Presence::Optional;
        let r = self.rng.next_u64();
        match &f.kind {
            FieldKind::Primitive(p) if p.length == 1 && !p.ty.is_float() => {
                if optional && r % 4 == 0 {
                    let bits = wire_bits(&p.null_value, p.ty);
                    write_bits(bytes, at, p.ty.size(), bits, self.order);
                    return;
                }
                let (Some(min), Some(max)) = (p.min_value.as_i128(), p.max_value.as_i128()) else {
                    return;
                };
                let Some(cur) = bytes
                    .get(at..)
                    .and_then(|b| wire::read_bits(b, p.ty.size(), self.order))
                else {
                    return;
                };
                let cur = if p.ty.is_signed_int() {
                    let shift = 128 - 8 * p.ty.size() as u32;
                    ((cur as i128) << shift) >> shift
                } else {
                    i128::from(cur)
                };
                let v = match r % 8 {
                    1 => min,
                    2 => max,
                    _ if cur < min || cur > max => {
                        let span = (max - min + 1).max(1) as u128;
                        min + ((u128::from(self.rng.next_u64()) % span) as i128)
                    }
                    _ => return,
                };
                write_bits(bytes, at, p.ty.size(), v as u64, self.order);
            }
            FieldKind::Primitive(p) if p.length == 1 && optional && r % 4 == 0 => {
                let bits = wire_bits(&p.null_value, p.ty);
                write_bits(bytes, at, p.ty.size(), bits, self.order);
            }
            FieldKind::Enum { def, .. } => {
                let e = self.layout.enum_def(*def);
                let values: Vec<u64> = e
                    .values
                    .iter()
                    .filter(|v| v.since_version <= self.version)
                    .map(|v| v.bits)
                    .collect();
                let bits = if (optional && r % 4 == 0) || values.is_empty() {
                    if !optional {
                        return;
                    }
                    e.null_bits()
                } else {
                    values[(r >> 8) as usize % values.len()]
                };
                write_bits(bytes, at, e.encoding.size(), bits, self.order);
            }
            FieldKind::Set { def } => {
                let s = self.layout.set_def(*def);
                let m = s
                    .choices
                    .iter()
                    .filter(|c| c.since_version <= self.version)
                    .fold(0u64, |m, c| m | 1u64 << c.bit);
                write_bits(bytes, at, s.encoding.size(), r & m, self.order);
            }
            FieldKind::Composite { members, .. } => {
                for m in members {
                    if m.since_version <= self.version && !m.is_constant() {
                        let pr = if optional {
                            Presence::Optional
                        } else {
                            m.presence
                        };
                        if let Some(a) = at.checked_add(m.offset) {
                            self.field(m, bytes, a, pr);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn write_bits(bytes: &mut [u8], at: usize, size: usize, bits: u64, order: ByteOrder) {
    // Out of range only for a message cut short: nothing to salt there.
    let _ = bytes
        .get_mut(at..)
        .and_then(|out| wire::write_bits(out, size, order, bits));
}
