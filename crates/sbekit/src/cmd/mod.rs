//! Subcommand implementations.
