//! `cargo run -p sbekit-parity --example irdiff -- ours.sbeir theirs.sbeir`: prints every
//! attribute that differs between two `.sbeir` files.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let read = |p: &str| sbekit_ir::sbeir::decode(&std::fs::read(p).expect("read")).expect("sbeir");
    let (a, b) = (read(&args[0]), read(&args[1]));
    for d in sbekit_parity::irdiff::diff(&a, &b) {
        println!("{d}");
    }
}
