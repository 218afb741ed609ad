//! Writes `src/generated/shootout_proto.rs` (protox + prost-build, no protoc) and
//! `src/generated/shootout_capnp.rs` (capnpc; needs the `capnp` tool on PATH).
//! Usage: `sbekit-shootout-regen SHOOTOUT_CRATE_DIR`.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("usage: regen SHOOTOUT_CRATE_DIR"));
    let schemas = dir.join("schemas");
    let out = dir.join("src/generated");
    let tmp = std::env::temp_dir().join(format!("sbekit-shootout-regen-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");

    // Protocol Buffers: protox compiles the .proto in pure Rust, prost-build writes the code.
    let fds = protox::compile([schemas.join("shootout.proto")], [&schemas]).expect("protox");
    prost_build::Config::new()
        .out_dir(&tmp)
        .compile_fds(fds)
        .expect("prost-build");
    std::fs::copy(tmp.join("shootout.proto.rs"), out.join("shootout_proto.rs")).expect("copy proto");

    // Cap'n Proto: the capnp tool parses, capnpc's plugin writes the code.
    capnpc::CompilerCommand::new()
        .src_prefix(&schemas)
        .file(schemas.join("shootout.capnp"))
        .output_path(&tmp)
        .run()
        .expect("capnp compile");
    std::fs::copy(tmp.join("shootout_capnp.rs"), out.join("shootout_capnp.rs")).expect("copy capnp");
    std::fs::remove_dir_all(&tmp).ok();
    println!("wrote {} and {}", out.join("shootout_proto.rs").display(), out.join("shootout_capnp.rs").display());
}
