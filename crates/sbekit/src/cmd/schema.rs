//! `sbekit check` and `sbekit inspect`: validate schemas and show their layout.

use super::{write_stdout, Failure, EXIT_INVALID};
use clap::Args;
use sbekit_ir::layout::{Block, Field, FieldKind, Layout};
use sbekit_ir::{Presence, PrimitiveType, PrimitiveValue};
use sbekit_schema::{compile_any_file, Options};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Validate SBE schemas (XML, or reference-format .sbeir IR files).
#[derive(Args)]
#[command(after_help = "\
Diagnostics go to stderr as FILE:LINE:COLUMN: SEVERITY[RULE]: MESSAGE, one per line.
Exit status: 0 if every schema is valid, 1 if any has errors (or warnings, with -W), 2 on usage errors.

Examples:
  sbekit check schemas/*.xml
  sbekit check -W car.xml              # warnings are fatal too
  sbekit check --json car.xml | jq '.[].diagnostics[] | select(.severity == \"error\")'")]
pub struct CheckArgs {
    /// Schema files to check.
    #[arg(required = true, value_name = "SCHEMA")]
    schemas: Vec<PathBuf>,
    /// Treat warnings as errors.
    #[arg(short = 'W', long)]
    warnings_as_errors: bool,
    /// Print one JSON document with every file's diagnostics on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Print only errors and warnings, no per-file summary.
    #[arg(short, long)]
    quiet: bool,
}

/// Show the layout of a schema: messages, fields with offsets and sizes, groups, var data.
#[derive(Args)]
#[command(after_help = "\
Offsets are relative to the enclosing block (message root or group entry); 'var' marks
elements after the first group or var data, whose position depends on the data.

Examples:
  sbekit inspect car.xml
  sbekit inspect --json car.xml | jq '.messages[] | {name, id, blockLength}'")]
pub struct InspectArgs {
    /// The schema (XML or .sbeir).
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
    /// Print JSON instead of the text outline.
    #[arg(long)]
    json: bool,
}

/// Runs `sbekit check`.
pub fn check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let options = Options {
        warnings_as_errors: args.warnings_as_errors,
    };
    let mut all_ok = true;
    let mut report = Vec::new();
    for path in &args.schemas {
        let compiled = compile_any_file(path, &options);
        let ok = compiled.ir.is_some();
        all_ok &= ok;
        if args.json {
            report.push(json!({
                "file": path.display().to_string(),
                "ok": ok,
                "messages": compiled.ir.as_ref().map_or(0, |ir| ir.messages.len()),
                "diagnostics": compiled.diagnostics,
            }));
            continue;
        }
        for d in &compiled.diagnostics {
            eprintln!("{d}");
        }
        if !args.quiet {
            let warnings = compiled.warnings().count();
            let errors = compiled.errors().count();
            match &compiled.ir {
                Some(ir) => println!(
                    "{}: ok ({} message{}, {warnings} warning{})",
                    path.display(),
                    ir.messages.len(),
                    plural(ir.messages.len()),
                    plural(warnings)
                ),
                None => println!(
                    "{}: FAILED ({errors} error{}, {warnings} warning{})",
                    path.display(),
                    plural(errors),
                    plural(warnings)
                ),
            }
        }
    }
    if args.json {
        write_stdout(format!("{}\n", Value::Array(report)).as_bytes())?;
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INVALID)
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Runs `sbekit inspect`.
pub fn inspect(args: InspectArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let outline = outline(&layout);
    let mut text = String::new();
    if args.json {
        text = serde_json::to_string_pretty(&outline).unwrap_or_default();
        text.push('\n');
    } else {
        print_outline(&outline, &mut text);
    }
    write_stdout(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// A JSON outline of the schema, also the model the text printer walks.
fn outline(l: &Layout) -> Value {
    let messages: Vec<Value> = l
        .messages
        .iter()
        .map(|m| {
            let body = outline_block(l, &m.block);
            json!({
                "name": m.name,
                "id": m.id,
                "blockLength": m.block.block_length,
                "sinceVersion": m.since_version,
                "deprecated": m.deprecated,
                "semanticType": m.semantic_type,
                "description": m.description,
                "fields": body["fields"],
                "groups": body["groups"],
                "data": body["data"],
            })
        })
        .collect();
    let header = l.header_composite();
    json!({
        "package": l.package,
        "id": l.id,
        "version": l.version,
        "semanticVersion": l.semantic_version,
        "byteOrder": match l.byte_order {
            sbekit_ir::ByteOrder::LittleEndian => "littleEndian",
            sbekit_ir::ByteOrder::BigEndian => "bigEndian",
        },
        "header": {
            "name": header.name,
            "length": l.header.size,
            "fields": header.members.iter().map(|f| json!({
                "name": f.name, "offset": f.offset, "size": f.size,
                "type": match &f.kind {
                    FieldKind::Primitive(p) => p.ty.schema_name(),
                    _ => "composite",
                },
            })).collect::<Vec<_>>(),
        },
        "messages": messages,
    })
}

/// Fields, groups and var data of a block. Only the first group or var data has a fixed
/// offset (the block length); the others' positions depend on the data (-1, printed `var`).
fn outline_block(l: &Layout, b: &Block) -> Value {
    let fields: Vec<Value> = b
        .fields
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "id": f.id,
                "offset": f.offset,
                "size": f.size,
                "type": type_label(l, f),
                "presence": presence_label(f.presence),
                "sinceVersion": f.since_version,
                "deprecated": f.deprecated,
                "constValue": const_label(l, f),
            })
        })
        .collect();
    let first_offset = |i: usize| if i == 0 { b.block_length as i64 } else { -1 };
    let groups: Vec<Value> = b
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let inner = outline_block(l, &g.block);
            json!({
                "name": g.name,
                "id": g.id,
                "offset": first_offset(i),
                "blockLength": g.block.block_length,
                "dimensionType": g.dimension.type_name,
                "sinceVersion": g.since_version,
                "fields": inner["fields"],
                "groups": inner["groups"],
                "data": inner["data"],
            })
        })
        .collect();
    let data: Vec<Value> = b
        .var_data
        .iter()
        .enumerate()
        .map(|(i, d)| {
            json!({
                "name": d.name,
                "id": d.id,
                "offset": first_offset(i + b.groups.len()),
                "type": d.type_name,
                "lengthType": d.length.ty.schema_name(),
                "characterEncoding": d.character_encoding,
                "sinceVersion": d.since_version,
            })
        })
        .collect();
    json!({ "fields": fields, "groups": groups, "data": data })
}

fn type_label(l: &Layout, f: &Field) -> String {
    match &f.kind {
        FieldKind::Enum { def, .. } => {
            let e = l.enum_def(*def);
            format!("enum {} ({})", e.name, e.encoding.schema_name())
        }
        FieldKind::Set { def } => {
            let s = l.set_def(*def);
            format!("set {} ({})", s.name, s.encoding.schema_name())
        }
        FieldKind::Composite { def, .. } => format!("composite {}", l.composite_def(*def).name),
        FieldKind::Primitive(p) => {
            let prim = p.ty.schema_name();
            if p.length > 1 {
                format!("{} ({prim}[{}])", f.type_name, p.length)
            } else if f.type_name == prim {
                prim.to_string()
            } else {
                format!("{} ({prim})", f.type_name)
            }
        }
    }
}

/// A constant's value as the schema names it (`Model.C` for an enum's valueRef).
fn const_label(l: &Layout, f: &Field) -> Option<String> {
    if !f.is_constant() {
        return None;
    }
    match &f.kind {
        FieldKind::Primitive(p) => match (&p.constant, p.ty) {
            // A single character reads better as itself than as its code.
            (Some(PrimitiveValue::Int(c)), PrimitiveType::Char) => {
                u8::try_from(*c).ok().map(|c| char::from(c).to_string())
            }
            (v, _) => v.as_ref().map(ToString::to_string),
        },
        FieldKind::Enum {
            def,
            constant: Some(i),
        } => {
            let e = l.enum_def(*def);
            e.values.get(*i).map(|v| format!("{}.{}", e.name, v.name))
        }
        _ => None,
    }
}

fn presence_label(p: Presence) -> &'static str {
    match p {
        Presence::Required => "required",
        Presence::Optional => "optional",
        Presence::Constant => "constant",
    }
}

fn print_outline(o: &Value, out: &mut String) {
    let _ = writeln!(
        out,
        "schema {} id={} version={} semanticVersion={} byteOrder={}",
        o["package"].as_str().unwrap_or_default(),
        o["id"],
        o["version"],
        o["semanticVersion"].as_str().unwrap_or("-"),
        o["byteOrder"].as_str().unwrap_or_default()
    );
    let h = &o["header"];
    let fields: Vec<String> = h["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{} {} @{}",
                f["name"].as_str().unwrap_or_default(),
                f["type"].as_str().unwrap_or_default(),
                f["offset"]
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "header {} ({} bytes): {}",
        h["name"].as_str().unwrap_or_default(),
        h["length"],
        fields.join(", ")
    );
    for m in o["messages"].as_array().into_iter().flatten() {
        out.push('\n');
        let _ = writeln!(
            out,
            "message {} id={} blockLength={} sinceVersion={}{}",
            m["name"].as_str().unwrap_or_default(),
            m["id"],
            m["blockLength"],
            m["sinceVersion"],
            deprecated_note(m)
        );
        let _ = writeln!(
            out,
            "  {:>6} {:>5}  {:<28} {:<32} id",
            "offset", "size", "field", "type"
        );
        print_body(m, 1, out);
    }
}

fn deprecated_note(v: &Value) -> String {
    match v["deprecated"].as_i64() {
        Some(d) if d > 0 => format!(" deprecated={d}"),
        _ => String::new(),
    }
}

fn offset_label(v: &Value) -> String {
    match v.as_i64() {
        Some(-1) => "var".into(),
        Some(n) => n.to_string(),
        None => "?".into(),
    }
}

fn print_body(b: &Value, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    for f in b["fields"].as_array().into_iter().flatten() {
        let mut notes = String::new();
        if f["presence"] != "required" {
            notes.push_str(&format!(" {}", f["presence"].as_str().unwrap_or_default()));
        }
        if let Some(c) = f["constValue"].as_str() {
            notes.push_str(&format!(" ={c}"));
        }
        if f["sinceVersion"].as_i64().unwrap_or(0) > 0 {
            notes.push_str(&format!(" since={}", f["sinceVersion"]));
        }
        let _ = writeln!(
            out,
            "{pad}{:>6} {:>5}  {:<28} {:<32} {}{notes}",
            offset_label(&f["offset"]),
            f["size"].to_string(),
            f["name"].as_str().unwrap_or_default(),
            f["type"].as_str().unwrap_or_default(),
            f["id"]
        );
    }
    for g in b["groups"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "{pad}{:>6} {:>5}  group {} id={} blockLength={} dimensions={}",
            offset_label(&g["offset"]),
            "",
            g["name"].as_str().unwrap_or_default(),
            g["id"],
            g["blockLength"],
            g["dimensionType"].as_str().unwrap_or_default()
        );
        print_body(g, depth + 1, out);
    }
    for d in b["data"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "{pad}{:>6} {:>5}  data {} id={} type={} (length {}{})",
            offset_label(&d["offset"]),
            "",
            d["name"].as_str().unwrap_or_default(),
            d["id"],
            d["type"].as_str().unwrap_or_default(),
            d["lengthType"].as_str().unwrap_or("?"),
            d["characterEncoding"]
                .as_str()
                .map(|c| format!(", {c}"))
                .unwrap_or_default()
        );
    }
}
