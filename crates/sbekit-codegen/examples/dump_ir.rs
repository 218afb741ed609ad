fn main() {
    let p = std::env::args().nth(1).unwrap();
    let ir = sbekit_ir::sbeir::decode(&std::fs::read(p).unwrap()).unwrap();
    let name = std::env::args().nth(2);
    for t in &ir.header {
        println!(
            "H {:?} {} off={} len={} v={} cnt={} {:?} {:?} const={:?} null={:?} ref={:?}",
            t.signal,
            t.name,
            t.offset,
            t.encoded_length,
            t.version,
            t.component_token_count,
            t.encoding.primitive_type,
            t.encoding.presence,
            t.encoding.const_value,
            t.encoding.null_value,
            t.referenced_name
        );
    }
    for m in &ir.messages {
        if let Some(n) = &name {
            if &m[0].name != n {
                println!("M {} id={}", m[0].name, m[0].id);
                continue;
            }
        }
        for (i, t) in m.iter().enumerate() {
            println!("{i} {:?} {} id={} off={} len={} v={} cnt={} {:?} {:?} const={:?} null={:?} ref={:?} ce={:?}", t.signal, t.name, t.id, t.offset, t.encoded_length, t.version, t.component_token_count, t.encoding.primitive_type, t.encoding.presence, t.encoding.const_value, t.encoding.null_value, t.referenced_name, t.encoding.character_encoding);
        }
    }
}
