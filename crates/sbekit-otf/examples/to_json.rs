//! Prints a single-message file as JSON: `to_json SCHEMA.sbeir MESSAGE.sbe [--pretty]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ir = sbekit_ir::sbeir::decode(&std::fs::read(&args[1]).expect("read IR")).expect("IR");
    let decoder = sbekit_otf::Decoder::new(&ir).expect("plan");
    let bytes = std::fs::read(&args[2]).expect("read message");
    match sbekit_otf::message_to_json(&decoder, &bytes, args.get(3).is_some()) {
        Ok((json, _)) => print!("{json}"),
        Err(e) => eprintln!("error: {e}"),
    }
}
