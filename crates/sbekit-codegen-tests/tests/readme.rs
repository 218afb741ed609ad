//! The README's example runs as a test too (it is also `cargo run --example readme`).

#[path = "../examples/readme.rs"]
mod readme;

#[test]
fn readme_example_runs() {
    readme::main().expect("the README example runs");
}
