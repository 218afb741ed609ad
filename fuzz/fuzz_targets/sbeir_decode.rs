//! Any bytes given to the `.sbeir` reader yield IR or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(ir) = sbekit_ir::sbeir::decode(data) {
        let _ = ir.header_structure();
        for m in &ir.messages {
            if m.len() >= 2 {
                let _ = sbekit_ir::split_components(&m[1..m.len() - 1]);
            }
        }
    }
});
