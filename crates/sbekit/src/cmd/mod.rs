//! Subcommand implementations.
pub mod decode;
pub mod generate;
pub mod iex;
pub mod ir;
pub mod schema;
pub mod shootout;
pub mod trades;
