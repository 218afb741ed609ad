//! Subcommand implementations.
pub mod decode;
pub mod ir;
pub mod schema;
