//! Any bytes given to the schema compiler yield IR or diagnostics, never a panic.
//! Inputs that compile must also survive a `.sbeir` round trip unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let compiled = sbekit_schema::compile_str(text, "fuzz.xml", &Default::default());
    if let Some(ir) = compiled.ir {
        let bytes = sbekit_ir::sbeir::encode(&ir);
        let back = sbekit_ir::sbeir::decode(&bytes).expect("own .sbeir must decode");
        assert_eq!(sbekit_ir::sbeir::encode(&back), bytes);
    }
});
