//! Writes the Java module of a schema: `cargo run -p sbekit-codegen-java --example gen -- schema.xml out [package]`.
fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(schema), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: gen schema.xml out [package]");
        std::process::exit(2);
    };
    let layout = sbekit_schema::load_layout(std::path::Path::new(schema))?;
    let opts = sbekit_codegen_java::Options {
        package: args.get(3).cloned(),
    };
    sbekit_codegen_java::write_package(&layout, std::path::Path::new(out), &opts)
}
