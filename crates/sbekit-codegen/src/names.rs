//! Rust identifiers from schema names: the Rust policy of [`sbekit_plan::names`], where the
//! keyword and case rules of every target language live.

pub use sbekit_plan::names::rust::type_name;
pub use sbekit_plan::names::{camel, screaming, snake, words};

/// Makes `ident` usable as an identifier: keywords become raw identifiers, or get a trailing
/// underscore where Rust forbids the raw form.
pub fn escape(ident: &str) -> String {
    escape_with(crate::KeywordStyle::Raw, ident)
}

/// Like [`escape`], with keywords suffixed by `_` instead of made raw when `style` says so.
pub fn escape_with(style: crate::KeywordStyle, ident: &str) -> String {
    sbekit_plan::names::rust::escape(style, ident)
}
