//! The README's generate-and-use example, kept compiling (module generated from the Car
//! example schema by this crate's build script, as `sbekit_build` would in a user's crate).
#[cfg(has_reference)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use sbekit_codegen_tests::baseline::*;

    let mut buf = [0u8; 256];
    let mut car = CarEncoder::new(&mut buf)?; // writes the header, reserves the block
    car.serial_number(1234).model_year(2013).code(Model::A);
    car.engine().capacity(2000).num_cylinders(4);
    car.fuel_figures(|g| {
        g.entry(|e| {
            e.speed(30).mpg(35.9);
            e.usage_description(b"Urban Cycle")?;
            Ok(())
        })?;
        Ok(())
    })?; // the group count is kept by the writer
    car.manufacturer(b"Honda")?; // skipped performanceFigures is written empty
    let len = car.finish()?;

    let car = CarDecoder::decode(&buf[..len])?; // checks header, groups, lengths once
    for f in car.fuel_figures() {
        println!("{} mph: {} mpg", f.speed(), f.mpg());
    }
    println!("{:?}", car.manufacturer_str()); // Ok("Honda")
    match AnyMessage::decode(&buf[..len])? {
        AnyMessage::Car(c) => println!("{c:?}"),
    }
    // Truncated input is an error, never a panic.
    assert!(CarDecoder::decode(&buf[..len - 1]).is_err());
    Ok(())
}

#[cfg(not(has_reference))]
fn main() {}
