//! The generated JSON printer's floats against `sbekit decode`'s (Ryu, shortest round trip):
//! many doubles and floats (random bit patterns, powers of ten and two, the layout's edges)
//! printed by `SbeJson.AppendDouble` / `AppendFloat` in Mono must be the same text.

mod common;

use common::*;

fn ryu64(x: f64) -> String {
    if x.is_finite() {
        ryu::Buffer::new().format_finite(x).to_string()
    } else {
        "null".into()
    }
}

fn ryu32(x: f32) -> String {
    if x.is_finite() {
        ryu::Buffer::new().format_finite(x).to_string()
    } else {
        "null".into()
    }
}

#[test]
fn floats_print_as_sbekit_decode_prints_them() {
    let test = "floats_print_as_sbekit_decode_prints_them";
    if !toolchain(test) {
        return;
    }
    let mut doubles: Vec<f64> = vec![
        0.0,
        -0.0,
        0.1,
        0.3,
        2.0 / 3.0,
        35.9,
        1e21,
        1e-7,
        1e15,
        1e16,
        1e17,
        123456789012345678.0,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e-5,
        1e-4,
        9.5,
        100.0,
        f64::NAN,
        f64::INFINITY,
    ];
    let mut floats: Vec<f32> = vec![
        0.0,
        -0.0,
        0.1,
        35.9,
        1e13,
        1e12,
        1e-6,
        1e-5,
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-45,
        16777216.0,
        f32::NAN,
    ];
    for e in -30..30 {
        doubles.push(10f64.powi(e));
        doubles.push(2f64.powi(e * 3));
        floats.push(10f32.powi(e));
    }
    // A fixed xorshift: random bit patterns cover every exponent.
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        doubles.push(f64::from_bits(s));
        floats.push(f32::from_bits(s as u32));
    }
    let mut input = String::new();
    for d in &doubles {
        input.push_str(&format!("d {}\n", d.to_bits()));
    }
    for f in &floats {
        input.push_str(&format!("f {}\n", f.to_bits()));
    }
    let root = tempfile::tempdir().expect("tempdir");
    let schema =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let dir = generate(root.path(), "Md", &schema);
    let mut srcs = Vec::new();
    cs_files(&dir, &mut srcs);
    let drv = root.path().join("Floats.cs");
    std::fs::write(
        &drv,
        r#"public static class Floats
{
    public static int Main()
    {
        var sb = new System.Text.StringBuilder();
        string line;
        while ((line = System.Console.ReadLine()) != null)
        {
            ulong bits = ulong.Parse(line.Substring(2), System.Globalization.CultureInfo.InvariantCulture);
            if (line[0] == 'd')
            {
                Md.SbeJson.AppendDouble(sb, System.BitConverter.Int64BitsToDouble(unchecked((long)bits)));
            }
            else
            {
                Md.SbeJson.AppendFloat(sb, System.BitConverter.ToSingle(System.BitConverter.GetBytes((uint)bits), 0));
            }
            sb.Append('\n');
        }
        System.Console.Out.Write(sb.ToString());
        return 0;
    }
}
"#,
    )
    .expect("driver");
    srcs.push(drv);
    let exe = root.path().join("Floats.exe");
    mcs(&srcs, &exe, "exe");
    let out = String::from_utf8(mono(&exe, &[], input.as_bytes())).expect("utf8");
    let got: Vec<&str> = out.lines().collect();
    let want: Vec<String> = doubles
        .iter()
        .map(|&d| ryu64(d))
        .chain(floats.iter().map(|&f| ryu32(f)))
        .collect();
    assert_eq!(got.len(), want.len());
    let mut bad = Vec::new();
    for ((g, w), k) in got.iter().zip(&want).zip(0..) {
        if g != w {
            bad.push(format!("#{k}: C# {g}, sbekit decode {w}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        want.len(),
        bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
    eprintln!(
        "{test}: {} doubles and floats print as sbekit decode prints them",
        want.len()
    );
}
