//! `cargo run -p sbekit-codegen-go --example generate -- SCHEMA OUT [MODULE]`: the Go module of
//! a schema, without building the `sbekit` CLI.

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(schema), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: generate SCHEMA OUT [MODULE]");
        std::process::exit(2);
    };
    let layout = sbekit_schema::load_layout(std::path::Path::new(schema))?;
    let opts = sbekit_codegen_go::Options {
        package: None,
        module: args.get(2).cloned(),
    };
    sbekit_codegen_go::write_module(&layout, std::path::Path::new(out), &opts)?;
    Ok(())
}
