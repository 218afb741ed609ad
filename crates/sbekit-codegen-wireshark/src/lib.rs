//! Wireshark dissectors for SBE schemas.
//!
//! [`generate`] renders a schema's codec plan ([`sbekit_plan::Plan`]) and a framing profile
//! ([`sbekit_feed::profile::Profile`], or one of the plain framings of [`framing`]) as one Lua
//! file for Wireshark 4.x, plus a README saying how to install it. The Lua file holds the
//! schema as tables (offsets, widths, versions, null values, constants, enums, sets,
//! composites, groups and var data, all from the plan) and a walker that is the same text for
//! every schema (`src/runtime.lua`): it reads the packet header (sequence number, sending
//! time), frames the messages, and shows each as a subtree named by template, every field a
//! display-filter field `<proto>.<Message>.<field>` (`<proto>.<Message>.<group>.<field>` in
//! groups, `<proto>.<Message>.<field>.<member>` in composites and sets).
//!
//! Malformed input never raises a Lua error: every read is preceded by a length check, and a
//! problem (truncation, a length that overruns, an unknown template, another schema id) becomes
//! an expert-info item with its byte offset; the next packet is dissected as usual.
//!
//! Schema names only ever appear inside Lua string literals, never as Lua identifiers, so Lua's
//! keywords need no escaping; in field abbreviations any character Wireshark does not accept
//! becomes `_`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use sbekit_feed::profile::{HeaderField, Profile, Transport};
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use sbekit_plan::{Body, Field, Kind, Plan, Section, Slot};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The walker every dissector carries.
const RUNTIME: &str = include_str!("runtime.lua");

/// The plain length-prefix framings, beside the capture profiles of
/// [`sbekit_feed::profile::BUILT_IN`].
pub const PLAIN_FRAMINGS: &[&str] = &["u16le", "u32le"];

/// Every framing `--profile` accepts: the capture profiles, then the plain length prefixes.
pub fn framings() -> Vec<&'static str> {
    let mut v = sbekit_feed::profile::BUILT_IN.to_vec();
    v.extend_from_slice(PLAIN_FRAMINGS);
    v
}

/// A framing by name: a built-in capture profile, or `u16le` / `u32le` (over a TCP stream, no
/// packet header, each message behind a little-endian length of the message alone, as
/// `sbekit decode --framing` reads them).
pub fn framing(name: &str) -> Option<Profile> {
    let width = match name {
        "u16le" => 2,
        "u32le" => 4,
        _ => return Profile::built_in(name),
    };
    let mut p = Profile::from_toml(&format!(
        "name = \"{name}\"\ntransport = \"tcp-stream\"\nheader_size = 0\n\
         length_width = {width}\nlength_counts_itself = false\nbefore_sbe = {width}\n"
    ))
    .ok()?;
    p.name = name.to_string();
    Some(p)
}

/// Generation options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The protocol's name: the first part of every display-filter field (default: the
    /// schema's package, see [`proto_name`]).
    pub proto: Option<String>,
    /// UDP ports to register the dissector on.
    pub udp_ports: Vec<u16>,
    /// TCP ports to register the dissector on.
    pub tcp_ports: Vec<u16>,
}

pub use sbekit_plan::package::{GenError, GeneratedFile};

/// A name Wireshark accepts in a field abbreviation: letters, digits and `_`; anything else
/// becomes `_`.
fn clean(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The default protocol name of a schema: its package in lower case, characters other than
/// letters and digits as `_`, and a leading `sbe_` if it would start with a digit.
pub fn proto_name(package: &str) -> String {
    let p = clean(&package.to_ascii_lowercase());
    if p.is_empty() || p.starts_with(|c: char| c.is_ascii_digit()) {
        format!("sbe_{p}")
    } else {
        p
    }
}

/// The file name of the dissector: `<proto>.lua`.
pub fn lua_file_name(proto: &str) -> String {
    format!("{proto}.lua")
}

/// Renders the dissector and its README for `plan` framed by `profile`.
pub fn generate(
    plan: &Plan,
    profile: &Profile,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, GenError> {
    let proto = match &opts.proto {
        Some(p) => {
            let c = clean(&p.to_ascii_lowercase());
            if c.is_empty() || c.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(GenError::Option(format!(
                    "'{p}' is not a usable protocol name"
                )));
            }
            c
        }
        None => proto_name(&plan.package),
    };
    let mut g = Gen {
        plan,
        proto: proto.clone(),
        fields: String::new(),
        n: 0,
    };
    let lua = g.render(profile, opts);
    let readme = readme(plan, profile, opts, &proto);
    Ok(vec![
        GeneratedFile {
            path: PathBuf::from(lua_file_name(&proto)),
            text: lua,
        },
        GeneratedFile {
            path: PathBuf::from("README.md"),
            text: readme,
        },
    ])
}

/// [`generate`] from a layout (through its plan).
pub fn generate_layout(
    layout: &sbekit_ir::layout::Layout,
    profile: &Profile,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, GenError> {
    sbekit_plan::package::render_layout(layout, |plan| generate(plan, profile, opts))
}

/// Writes the dissector and README into `dir` (created if missing); returns the Lua file's
/// path.
pub fn write(
    layout: &sbekit_ir::layout::Layout,
    profile: &Profile,
    dir: &Path,
    opts: &Options,
) -> Result<PathBuf, GenError> {
    let files = generate_layout(layout, profile, opts)?;
    sbekit_plan::package::write_files(dir, &files)?;
    let lua = files
        .iter()
        .find(|f| f.path.extension().is_some_and(|e| e == "lua"));
    Ok(lua.map(|f| dir.join(&f.path)).unwrap_or_default())
}

/// A Lua string literal.
fn lstr(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03}");
            }
        }
    }
    out.push('"');
    out
}

/// The walker's short name of a primitive type.
fn ty(t: PrimitiveType) -> &'static str {
    match t {
        PrimitiveType::Char => "c",
        PrimitiveType::Int8 => "i8",
        PrimitiveType::Int16 => "i16",
        PrimitiveType::Int32 => "i32",
        PrimitiveType::Int64 => "i64",
        PrimitiveType::Uint8 => "u8",
        PrimitiveType::Uint16 => "u16",
        PrimitiveType::Uint32 => "u32",
        PrimitiveType::Uint64 => "u64",
        PrimitiveType::Float => "f32",
        PrimitiveType::Double => "f64",
        PrimitiveType::None => "u8",
    }
}

/// The `ProtoField` constructor of a primitive type.
fn ctor(t: PrimitiveType) -> &'static str {
    match t {
        PrimitiveType::Char => "string",
        PrimitiveType::Int8 => "int8",
        PrimitiveType::Int16 => "int16",
        PrimitiveType::Int32 => "int32",
        PrimitiveType::Int64 => "int64",
        PrimitiveType::Uint8 | PrimitiveType::None => "uint8",
        PrimitiveType::Uint16 => "uint16",
        PrimitiveType::Uint32 => "uint32",
        PrimitiveType::Uint64 => "uint64",
        PrimitiveType::Float => "float",
        PrimitiveType::Double => "double",
    }
}

fn as_i128(v: &PrimitiveValue) -> Option<i128> {
    match v {
        PrimitiveValue::Int(i) => Some(i128::from(*i)),
        PrimitiveValue::UInt(u) => Some(i128::from(*u)),
        PrimitiveValue::Float(_) => None,
        PrimitiveValue::Bytes(b) => b.first().map(|&c| i128::from(c)),
    }
}

/// A value of primitive type `t` as a Lua expression (64-bit values exact, as `UInt64` /
/// `Int64`).
fn lval(t: PrimitiveType, v: &PrimitiveValue) -> String {
    match t {
        PrimitiveType::Float | PrimitiveType::Double => {
            let f = match v {
                PrimitiveValue::Float(f) => *f,
                other => as_i128(other).unwrap_or(0) as f64,
            };
            if f.is_nan() {
                "(0/0)".into()
            } else if f.is_infinite() {
                if f > 0.0 { "math.huge" } else { "(-math.huge)" }.into()
            } else {
                format!("{f:?}")
            }
        }
        PrimitiveType::Uint64 => {
            format!(
                "UInt64.fromhex(\"{:016x}\")",
                as_i128(v).unwrap_or(0) as u64
            )
        }
        PrimitiveType::Int64 => {
            format!(
                "Int64.fromhex(\"{:016x}\")",
                as_i128(v).unwrap_or(0) as i64 as u64
            )
        }
        _ => as_i128(v).unwrap_or(0).to_string(),
    }
}

/// The decimal text the walker compares a read value with (`"nan"` for a float's NaN).
fn lkey(t: PrimitiveType, v: &PrimitiveValue) -> String {
    match t {
        PrimitiveType::Float | PrimitiveType::Double => match v {
            PrimitiveValue::Float(f) if f.is_nan() => "\"nan\"".into(),
            _ => "nil".into(),
        },
        _ => match as_i128(v) {
            Some(i) => format!("\"{i}\""),
            None => "nil".into(),
        },
    }
}

/// True when text declared in `encoding` is read as UTF-8 (when valid), as `sbekit decode`
/// reads it; other text is one code point per byte.
fn utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| {
        let e = e.trim();
        e.eq_ignore_ascii_case("UTF-8") || e.eq_ignore_ascii_case("UTF8")
    })
}

fn slot(s: &Slot) -> String {
    match s.constant {
        Some(c) => format!("{{ t = \"{}\", o = {}, c = {c} }}", ty(s.ty), s.offset),
        None => format!("{{ t = \"{}\", o = {} }}", ty(s.ty), s.offset),
    }
}

/// Ports as a comma-separated list.
fn ports(v: &[u16]) -> String {
    v.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn header_field(f: &HeaderField) -> String {
    let t = match f.width {
        1 => "u8",
        2 => "u16",
        4 => "u32",
        _ => "u64",
    };
    format!("{{ {}, {}, \"{t}\" }}", f.offset, f.width)
}

struct Gen<'p> {
    plan: &'p Plan,
    proto: String,
    /// The `F[n] = ProtoField...` lines.
    fields: String,
    n: usize,
}

impl Gen<'_> {
    /// Declares a field; returns its Lua expression (`F[12]`).
    fn field(&mut self, ctor: &str, abbr: &str, label: &str, rest: &str) -> String {
        self.n += 1;
        let _ = writeln!(
            self.fields,
            "F[{}] = ProtoField.{ctor}({}, {}{rest})",
            self.n,
            lstr(&format!("{}.{abbr}", self.proto)),
            lstr(label)
        );
        format!("F[{}]", self.n)
    }

    fn render(&mut self, profile: &Profile, opts: &Options) -> String {
        let plan = self.plan;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "-- Wireshark dissector for SBE schema '{}' (id {}, version {}), framing '{}'.\n\
             -- Generated by `sbekit generate --lang wireshark`; do not edit.\n\
             -- Load it with `tshark -X lua_script:{}` or copy it into the personal Lua plugins folder.\n",
            plan.package.replace('\n', " "),
            plan.id,
            plan.version,
            profile.name,
            lua_file_name(&self.proto)
        );
        let _ = writeln!(out, "local PROTO_NAME = {}", lstr(&self.proto));
        let _ = writeln!(
            out,
            "local PROTO_LABEL = {}",
            lstr(&self.proto.to_ascii_uppercase())
        );
        let _ = writeln!(
            out,
            "local proto = Proto(PROTO_NAME, {})",
            // Wireshark wants every protocol's description unique: it names the protocol too.
            lstr(&format!(
                "SBE {} (schema {} version {}, {}, {})",
                plan.package, plan.id, plan.version, profile.name, self.proto
            ))
        );
        let _ = writeln!(out, "local SCHEMA_ID = {}", plan.id);
        let _ = writeln!(out, "local SCHEMA_VERSION = {}", plan.version);
        let _ = writeln!(
            out,
            "local BE = {}",
            plan.byte_order == ByteOrder::BigEndian
        );
        out.push_str("local F = {}\n\n");

        // Framing and packet header.
        let heur = match profile.transport {
            Transport::Udp if profile.tcp_variant.is_some() => "{ \"udp\", \"tcp\" }",
            Transport::Udp => "{ \"udp\" }",
            _ => "{ \"tcp\" }",
        };
        let _ = writeln!(
            out,
            "local FRAME = {{ lw = {}, be = {}, counts_itself = {}, before = {}, stream = {}, heuristic = {heur} }}",
            profile.length_width,
            profile.big_endian,
            profile.length_counts_itself,
            profile.before_sbe,
            profile.transport == Transport::TcpStream
        );
        let packet = |p: &Profile| {
            let mut s = format!("size = {}", p.header_size);
            if let Some(f) = &p.seq {
                let _ = write!(s, ", seq = {}", header_field(f));
            }
            if let Some(f) = &p.time {
                let _ = write!(s, ", time = {}", header_field(f));
            }
            if let Some(f) = &p.lz4_flag {
                let _ = write!(s, ", lz4 = {{ {} }}", f.offset);
            }
            if let Some((f, v)) = &p.magic {
                let _ = write!(s, ", magic = {{ {}, {v} }}", f.offset);
            }
            s
        };
        let mut pk = packet(profile);
        if let Some(t) = &profile.tcp_variant {
            let _ = write!(pk, ", tcp = {{ {} }}", packet(t));
        }
        let _ = writeln!(out, "local PACKET = {{ {pk} }}");
        let _ = writeln!(out, "local UDP_PORTS = {{ {} }}", ports(&opts.udp_ports));
        let _ = writeln!(out, "local TCP_PORTS = {{ {} }}\n", ports(&opts.tcp_ports));

        // The fixed fields.
        let fixed: [(&str, &str, &str, &str); 12] = [
            ("F_PACKET", "none", "_packet", "Packet header"),
            ("F_SEQ", "uint64", "seq", "Sequence number"),
            ("F_TIME", "uint64", "sendingTime", "Sending time (ns)"),
            ("F_FLAGS", "uint16", "packetFlags", "Packet flags"),
            ("F_FRAMELENGTH", "uint32", "messageLength", "Message length"),
            ("F_ENCODING", "uint16", "encodingType", "Encoding type"),
            ("F_MESSAGE", "none", "_message", "Message"),
            ("F_HEADER", "none", "_header", "Message header"),
            ("F_BLOCKLENGTH", "uint32", "blockLength", "blockLength"),
            ("F_TEMPLATEID", "uint32", "templateId", "templateId"),
            ("F_SCHEMAID", "uint32", "schemaId", "schemaId"),
            ("F_VERSION", "uint32", "version", "version"),
        ];
        for (local, c, abbr, label) in fixed {
            let rest = match c {
                "uint16" => ", base.HEX",
                "uint32" | "uint64" => ", base.DEC",
                _ => "",
            };
            let e = self.field(c, abbr, label, rest);
            let _ = writeln!(self.fields, "local {local} = {e}");
        }
        let h = &plan.header;
        let hdr = format!(
            "local HDR = {{ size = {}, bl = {}, tid = {}, sid = {}, ver = {} }}\n",
            h.size,
            slot(&h.slots.block_length),
            slot(&h.slots.template_id),
            slot(&h.slots.schema_id),
            slot(&h.slots.version)
        );

        // Enums and sets.
        let mut types = String::from("local ENUMS = {}\nlocal SETS = {}\n");
        for (name, e) in &plan.enums {
            let mut vs = String::new();
            let mut known = String::new();
            for (vname, v, _) in &e.values {
                if let Some(i) = as_i128(v) {
                    let _ = write!(vs, "[{i}] = {}, ", lstr(vname));
                    let _ = write!(known, "[\"{i}\"] = true, ");
                }
            }
            let _ = writeln!(
                types,
                "ENUMS[{}] = {{ t = \"{}\", nl = {}, nv = {}, vs = {{ {known}}}, names = {{ {vs}}} }}",
                lstr(name),
                ty(e.ty),
                lkey(e.ty, &e.null),
                lval(e.ty, &e.null)
            );
        }
        for (name, s) in &plan.sets {
            let _ = writeln!(types, "SETS[{}] = {{ t = \"{}\" }}", lstr(name), ty(s.ty));
        }

        // Messages.
        let mut msgs = String::from("local MESSAGES = {}\n");
        for m in &plan.messages {
            let name = clean(&m.body.name);
            let f = self.field("none", &name, &m.body.name, "");
            let b = self.body(&m.body, &name, 1);
            let _ = writeln!(
                msgs,
                "MESSAGES[{}] = {{ n = {}, f = {f}, b = {b} }}",
                m.id,
                lstr(&m.body.name)
            );
        }

        out.push_str(&hdr);
        out.push_str(&types);
        out.push('\n');
        out.push_str(&self.fields);
        out.push('\n');
        out.push_str(&msgs);
        out.push('\n');
        out.push_str(RUNTIME);
        out
    }

    fn indent(depth: usize) -> String {
        "  ".repeat(depth)
    }

    fn body(&mut self, b: &Body, abbr: &str, depth: usize) -> String {
        let ind = Self::indent(depth);
        let mut s = String::from("{\n");
        let rq: Vec<String> = b
            .required
            .iter()
            .map(|(v, n)| format!("{{ {v}, {n} }}"))
            .collect();
        let _ = writeln!(s, "{ind}  rq = {{ {} }},", rq.join(", "));
        let _ = writeln!(s, "{ind}  fs = {{");
        for f in &b.fields {
            let d = self.field_desc(f, abbr, f.since, depth + 2);
            let _ = writeln!(s, "{ind}    {d},");
        }
        let _ = writeln!(s, "{ind}  }},");
        let _ = writeln!(s, "{ind}  ss = {{");
        for sec in &b.sections {
            match sec {
                Section::Group {
                    name,
                    since,
                    dim_size,
                    block_len,
                    count,
                    body,
                    ..
                } => {
                    let gabbr = format!("{abbr}.{}", clean(name));
                    let f = self.field("uint32", &gabbr, name, ", base.DEC");
                    let ef = self.field("none", &format!("{gabbr}._entry"), name, "");
                    let gb = self.body(body, &gabbr, depth + 2);
                    let _ = writeln!(
                        s,
                        "{ind}    {{ k = \"g\", n = {}, v = {since}, d = {dim_size}, bl = {}, ct = {}, f = {f}, ef = {ef}, b = {gb} }},",
                        lstr(name),
                        slot(block_len),
                        slot(count)
                    );
                }
                Section::Var {
                    name,
                    since,
                    len,
                    text,
                    data_offset,
                    char_encoding,
                    ..
                } => {
                    let vabbr = format!("{abbr}.{}", clean(name));
                    let f = if *text {
                        self.field("string", &vabbr, name, "")
                    } else {
                        self.field("bytes", &vabbr, name, "")
                    };
                    let _ = writeln!(
                        s,
                        "{ind}    {{ k = \"v\", n = {}, v = {since}, d = {data_offset}, ln = {}, x = {text}, u8 = {}, f = {f} }},",
                        lstr(name),
                        slot(len),
                        utf8(char_encoding.as_deref())
                    );
                }
            }
        }
        let _ = writeln!(s, "{ind}  }},");
        let _ = write!(s, "{ind}}}");
        s
    }

    /// A field (or composite member) description; `since` is the version from which it is
    /// present.
    fn field_desc(&mut self, f: &Field, parent: &str, since: u32, depth: usize) -> String {
        let abbr = format!("{parent}.{}", clean(&f.name));
        let label = &f.name;
        let head = format!("n = {}, o = {}, v = {since}", lstr(&f.name), f.offset);
        match &f.kind {
            Kind::Prim(p) => {
                let is_str = p.ty == PrimitiveType::Char;
                let fld = if is_str {
                    self.field("string", &abbr, label, "")
                } else {
                    let rest = match p.ty {
                        PrimitiveType::Float | PrimitiveType::Double => "",
                        _ => ", base.DEC",
                    };
                    self.field(ctor(p.ty), &abbr, label, rest)
                };
                let mut d = format!(
                    "{{ k = \"p\", {head}, t = \"{}\", l = {}, f = {fld}",
                    ty(p.ty),
                    p.len
                );
                if p.presence == Presence::Optional {
                    let _ = write!(
                        d,
                        ", nl = {}, nv = {}",
                        lkey(p.ty, &p.null),
                        lval(p.ty, &p.null)
                    );
                } else if !is_str {
                    // Absent at an older version: the null value, as `sbekit decode` prints it.
                    let _ = write!(d, ", nv = {}", lval(p.ty, &p.null));
                }
                if let Some(c) = &p.constant {
                    if is_str {
                        let text = match c {
                            PrimitiveValue::Bytes(b) => {
                                let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
                                String::from_utf8_lossy(&b[..end]).into_owned()
                            }
                            other => as_i128(other)
                                .and_then(|i| u8::try_from(i).ok())
                                .map(|b| char::from(b).to_string())
                                .unwrap_or_default(),
                        };
                        let _ = write!(d, ", str = true, cv = {}", lstr(&text));
                    } else {
                        let _ = write!(d, ", cv = {}", lval(p.ty, c));
                    }
                }
                if is_str && utf8(p.char_encoding.as_deref()) {
                    d.push_str(", u8 = true");
                }
                if is_str && p.len == 1 && p.constant.is_none() && p.presence != Presence::Optional
                {
                    // A single char: read as a byte and shown as a one-character string.
                    d.push_str(", nv = \"\"");
                }
                d.push_str(" }");
                d
            }
            Kind::Enum {
                ty: e, constant, ..
            } => {
                let def = self.plan.enums.get(e);
                let (t, et) = def.map_or((PrimitiveType::Uint8, "u8"), |d| (d.ty, ty(d.ty)));
                let vs = if t == PrimitiveType::Uint64 || t == PrimitiveType::Int64 {
                    String::new()
                } else {
                    format!(", base.DEC, ENUMS[{}].names", lstr(e))
                };
                let c = match t {
                    PrimitiveType::Char => "uint8",
                    other => ctor(other),
                };
                let fld = self.field(c, &abbr, label, &vs);
                let mut d = format!("{{ k = \"e\", {head}, e = {}, f = {fld}", lstr(e));
                let _ = et;
                if let (Some(cn), Some(def)) = (constant, def) {
                    if let Some((_, v, _)) = def.values.iter().find(|(n, _, _)| n == cn) {
                        let _ = write!(d, ", cv = {}", lval(t, v));
                    }
                }
                d.push_str(" }");
                d
            }
            Kind::Set { ty: sname } => {
                let def = self.plan.sets.get(sname);
                let t = def.map_or(PrimitiveType::Uint8, |d| d.ty);
                let fld = self.field(ctor(t), &abbr, label, ", base.HEX");
                let mut bits = String::new();
                if let Some(def) = def {
                    for (cname, bit, _) in &def.choices {
                        let cf = self.field("bool", &format!("{abbr}.{}", clean(cname)), cname, "");
                        let _ = write!(bits, "{{ b = {bit}, f = {cf} }}, ");
                    }
                }
                format!(
                    "{{ k = \"s\", {head}, s = {}, f = {fld}, bits = {{ {bits}}} }}",
                    lstr(sname)
                )
            }
            Kind::Composite { ty: cname } => {
                let fld = self.field("none", &abbr, label, "");
                let holder = self.plan.composite_holder_since(cname);
                let (size, members) = match self.plan.composites.get(cname) {
                    Some(c) => (c.size, c.members.clone()),
                    None => (f.size, Vec::new()),
                };
                let ind = Self::indent(depth);
                let mut m = String::new();
                for mem in &members {
                    // A member newer than every field holding the composite is absent at
                    // older versions; otherwise it is as old as the holder.
                    let v = if mem.since > holder { mem.since } else { 0 };
                    let d = self.field_desc(mem, &abbr, v, depth + 1);
                    let _ = write!(m, "\n{ind}  {d},");
                }
                format!("{{ k = \"c\", {head}, sz = {size}, f = {fld}, m = {{{m}\n{ind}}} }}")
            }
        }
    }
}

/// The README written beside the dissector.
fn readme(plan: &Plan, profile: &Profile, opts: &Options, proto: &str) -> String {
    let file = lua_file_name(proto);
    let first = plan.messages.first().map(|m| m.body.name.as_str());
    let mut s = format!(
        "# Wireshark dissector for `{}` (schema id {}, version {})\n\n\
         `{file}` dissects SBE messages of this schema framed as `{}`. It was generated by\n\
         `sbekit generate --lang wireshark` from the schema; regenerate it rather than edit it.\n\n\
         ## Install\n\n\
         - Copy `{file}` into Wireshark's personal Lua plugins folder (Help > About Wireshark >\n\
           Folders > Personal Lua Plugins; usually `~/.local/lib/wireshark/plugins/`), then restart\n\
           Wireshark or reload Lua plugins (Ctrl+Shift+L).\n\
         - Or load it for one run: `tshark -X lua_script:{file} -r capture.pcap -V`.\n\n\
         ## What it registers\n\n\
         - A heuristic dissector on {} that takes a packet whose first message has schema id {}\n\
           and a version no newer than {}.\n",
        plan.package,
        plan.id,
        plan.version,
        profile.name,
        match profile.transport {
            Transport::Udp if profile.tcp_variant.is_some() => "UDP and TCP",
            Transport::Udp => "UDP",
            _ => "TCP",
        },
        plan.id,
        plan.version
    );
    if !opts.udp_ports.is_empty() || !opts.tcp_ports.is_empty() {
        let _ = writeln!(
            s,
            "- The dissector on UDP ports [{}] and TCP ports [{}].",
            ports(&opts.udp_ports),
            ports(&opts.tcp_ports)
        );
    } else {
        let _ = writeln!(
            s,
            "- No ports: regenerate with `--udp-port N` / `--tcp-port N`, or use Decode As."
        );
    }
    let _ = write!(
        s,
        "\n## Display filters\n\n\
         - `{proto}.templateId`, `{proto}.schemaId`, `{proto}.version`, `{proto}.blockLength`;\n\
         - `{proto}.seq`, `{proto}.sendingTime` (the packet header, when the framing has one);\n\
         - `{proto}.<Message>.<field>`, `{proto}.<Message>.<group>.<field>` (the group itself\n\
           is its entry count), `{proto}.<Message>.<composite>.<member>`,\n\
           `{proto}.<Message>.<set>.<choice>`{};\n\
         - expert items `{proto}.expert.truncated`, `.length`, `.template`, `.schema`,\n\
           `.compressed`, `.internal`.\n\n\
         Fields newer than a message's version, and optional fields holding their null value,\n\
         are shown as absent. Malformed packets (truncated, lengths that overrun, unknown\n\
         templates) become expert items with their byte offset; the next packet is dissected as\n\
         usual.\n",
        first
            .map(|m| format!(" (for example `{proto}.{}`)", clean(m)))
            .unwrap_or_default()
    );
    if profile.lz4_flag.is_some() {
        s.push_str(
            "\nLZ4: Wireshark's Lua API has no LZ4 decompressor, so the dissector carries its own\n\
             (the LZ4 block format, at most 64 KiB per packet); the decompressed bytes appear as\n\
             a separate data source, and an expert note says the payload was compressed.\n",
        );
    }
    s
}
