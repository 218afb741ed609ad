//! `sbekit check` and `sbekit inspect`: validate schemas and show their layout.

use clap::Args;
use sbekit_ir::{split_components, Ir, Presence, Signal, Token};
use sbekit_schema::{compile_file, looks_like_xml, Compiled, Options, Severity};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
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
pub fn check(args: CheckArgs) -> ExitCode {
    let options = Options {
        warnings_as_errors: args.warnings_as_errors,
    };
    let mut all_ok = true;
    let mut report = Vec::new();
    for path in &args.schemas {
        let compiled = compile_any(path, &options);
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
    if args.json && write_stdout(&format!("{}\n", Value::Array(report))) != ExitCode::SUCCESS {
        return ExitCode::from(1);
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Writes to stdout; a closed pipe (`| head`) ends quietly instead of panicking like `println!`.
fn write_stdout(text: &str) -> ExitCode {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sbekit: error: writing output: {e}");
            ExitCode::from(1)
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Compiles XML, or reads `.sbeir`, reporting problems in the same shape.
fn compile_any(path: &Path, options: &Options) -> Compiled {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        // Let the compiler produce its usual I/O diagnostic.
        Err(_) => return compile_file(path, options),
    };
    if looks_like_xml(&bytes) {
        return compile_file(path, options);
    }
    match sbekit_ir::sbeir::decode(&bytes) {
        Ok(ir) => Compiled {
            ir: Some(ir),
            diagnostics: Vec::new(),
        },
        Err(e) => Compiled {
            ir: None,
            diagnostics: vec![sbekit_schema::Diagnostic {
                severity: Severity::Error,
                rule: "sbeir",
                message: e.to_string(),
                location: Some(sbekit_schema::Location {
                    file: path.display().to_string().into(),
                    line: 1,
                    column: 1,
                }),
            }],
        },
    }
}

/// Runs `sbekit inspect`.
pub fn inspect(args: InspectArgs) -> ExitCode {
    let ir = match sbekit_schema::load_ir(&args.schema) {
        Ok(ir) => ir,
        Err(e) => {
            eprintln!("sbekit: error: {e}");
            return ExitCode::from(1);
        }
    };
    let outline = match outline(&ir) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sbekit: error: {}: {e}", args.schema.display());
            return ExitCode::from(1);
        }
    };
    let mut text = String::new();
    if args.json {
        text = serde_json::to_string_pretty(&outline).unwrap_or_default();
        text.push('\n');
    } else {
        print_outline(&outline, &mut text);
    }
    write_stdout(&text)
}

/// A JSON outline of the schema, also the model the text printer walks.
fn outline(ir: &Ir) -> Result<Value, sbekit_ir::IrError> {
    let header = ir.header_structure()?;
    let messages = ir
        .messages
        .iter()
        .map(|m| {
            let begin = &m[0];
            let body = outline_body(m.get(1..m.len().saturating_sub(1)).unwrap_or_default())?;
            Ok(json!({
                "name": begin.name,
                "id": begin.id,
                "blockLength": begin.encoded_length,
                "sinceVersion": begin.version,
                "deprecated": begin.deprecated,
                "semanticType": begin.encoding.semantic_type,
                "description": begin.description,
                "fields": body["fields"],
                "groups": body["groups"],
                "data": body["data"],
            }))
        })
        .collect::<Result<Vec<_>, sbekit_ir::IrError>>()?;
    Ok(json!({
        "package": ir.package_name,
        "id": ir.id,
        "version": ir.version,
        "semanticVersion": ir.semantic_version,
        "byteOrder": match ir.byte_order() {
            sbekit_ir::ByteOrder::LittleEndian => "littleEndian",
            sbekit_ir::ByteOrder::BigEndian => "bigEndian",
        },
        "header": {
            "name": ir.header.first().map(|t| t.name.as_str()),
            "length": header.encoded_length,
            "fields": ir.header.iter().filter(|t| t.signal == Signal::Encoding).map(|t| json!({
                "name": t.name, "offset": t.offset, "size": t.encoded_length,
                "type": t.encoding.primitive().schema_name(),
            })).collect::<Vec<_>>(),
        },
        "messages": messages,
    }))
}

fn outline_body(body: &[Token]) -> Result<Value, sbekit_ir::IrError> {
    let parts = split_components(body)?;
    let fields: Vec<Value> = components(parts.fields)
        .map(|f| {
            let ty = f.get(1);
            json!({
                "name": f[0].name,
                "id": f[0].id,
                "offset": f[0].offset,
                "size": f[0].encoded_length,
                "type": ty.map(type_label).unwrap_or_default(),
                "presence": presence_label(f[0].encoding.presence),
                "sinceVersion": f[0].version,
                "deprecated": f[0].deprecated,
                "constValue": f[0].encoding.const_value.as_ref().map(ToString::to_string),
            })
        })
        .collect();
    let groups = components(parts.groups)
        .map(|g| {
            // A group is [begin, dimension composite.., body.., end]; a malformed .sbeir may lie.
            let dim_len = g
                .get(1)
                .map_or(0, |t| usize::try_from(t.component_token_count).unwrap_or(0));
            let inner_tokens = g
                .get(1 + dim_len..g.len().saturating_sub(1))
                .ok_or_else(|| {
                    sbekit_ir::IrError::Malformed(format!("group '{}' is truncated", g[0].name))
                })?;
            let inner = outline_body(inner_tokens)?;
            Ok(json!({
                "name": g[0].name,
                "id": g[0].id,
                "offset": g[0].offset,
                "blockLength": g[0].encoded_length,
                "dimensionType": g.get(1).map(|t| t.name.as_str()),
                "sinceVersion": g[0].version,
                "fields": inner["fields"],
                "groups": inner["groups"],
                "data": inner["data"],
            }))
        })
        .collect::<Result<Vec<_>, sbekit_ir::IrError>>()?;
    let data: Vec<Value> = components(parts.var_data)
        .map(|d| {
            let length = d
                .iter()
                .find(|t| t.signal == Signal::Encoding && t.name == "length");
            let var = d
                .iter()
                .find(|t| t.signal == Signal::Encoding && t.name == "varData");
            json!({
                "name": d[0].name,
                "id": d[0].id,
                "offset": d[0].offset,
                "type": d.get(1).map(|t| t.name.as_str()),
                "lengthType": length.map(|t| t.encoding.primitive().schema_name()),
                "characterEncoding": var.and_then(|t| t.encoding.character_encoding.clone()),
                "sinceVersion": d[0].version,
            })
        })
        .collect();
    Ok(json!({ "fields": fields, "groups": groups, "data": data }))
}

/// Splits a run of whole components into one slice per component.
fn components(tokens: &[Token]) -> impl Iterator<Item = &[Token]> {
    let mut rest = tokens;
    std::iter::from_fn(move || {
        let first = rest.first()?;
        let n = usize::try_from(first.component_token_count)
            .unwrap_or(1)
            .clamp(1, rest.len());
        let (head, tail) = rest.split_at(n);
        rest = tail;
        Some(head)
    })
}

fn type_label(t: &Token) -> String {
    let prim = t.encoding.primitive().schema_name();
    match t.signal {
        Signal::BeginEnum => format!("enum {} ({prim})", t.type_name()),
        Signal::BeginSet => format!("set {} ({prim})", t.type_name()),
        Signal::BeginComposite => format!("composite {}", t.type_name()),
        _ if t.array_length() > 1 => format!("{} ({prim}[{}])", t.type_name(), t.array_length()),
        _ if t.type_name() == prim => prim.to_string(),
        _ => format!("{} ({prim})", t.type_name()),
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
