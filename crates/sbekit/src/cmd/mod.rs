//! Subcommand implementations.
pub mod schema;
