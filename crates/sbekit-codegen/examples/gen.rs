//! Prints the generated module for a `.sbeir` file: `cargo run --example gen -- FILE`.
fn main() {
    let p = std::env::args().nth(1).expect("usage: gen FILE.sbeir");
    let ir = sbekit_ir::sbeir::decode(&std::fs::read(p).expect("read")).expect("decode");
    print!(
        "{}",
        sbekit_codegen::generate(&ir, &Default::default()).expect("generate")
    );
}
