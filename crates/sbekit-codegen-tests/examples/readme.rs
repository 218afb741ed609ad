//! The README's generate-and-use example, kept compiling and running (module generated from
//! `schemas/orders-be.xml` by this crate's build script, as `sbekit_build` would in a user's
//! crate).

use sbekit_codegen_tests::orders_be as orders;

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    use orders::*;

    let mut buf = [0u8; 256];
    let mut o = OrderEncoder::new(&mut buf)?; // writes the header, reserves the block
    o.order_id(1234).side(Side::Buy).qty(Some(100));
    o.symbol_str("ACME")?;
    o.price().mantissa(1_234_500);
    o.fills(|g| {
        g.entry(|e| {
            e.fill_qty(60);
            e.fill_note(b"first")?; // the skipped nested group is written empty
            Ok(())
        })?;
        Ok(())
    })?; // the group count is kept by the writer
    o.note(b"hello")?; // skipped sections (marks) are written empty
    let len = o.finish()?;

    let o = OrderDecoder::decode(&buf[..len])?; // checks header, groups, lengths once
    for f in o.fills() {
        println!("filled {}", f.fill_qty());
    }
    println!("{:?}", o.note_str()); // Ok("hello")
    if let AnyMessage::Order(o) = AnyMessage::decode(&buf[..len])? {
        println!("{o:?}");
    }
    // Truncated input is an error, never a panic.
    assert!(OrderDecoder::decode(&buf[..len - 1]).is_err());
    Ok(())
}
