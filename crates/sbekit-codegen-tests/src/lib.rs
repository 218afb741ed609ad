//! Codecs generated at build time from this crate's own schemas and (when the shared material
//! is present) the reference schemas, for the tests and benchmarks of sbekit's Rust code
//! generator.

#![forbid(unsafe_code)]

/// `example-schema.xml` (package `baseline`, version 0): the Car example.
#[cfg(has_reference)]
pub mod baseline {
    include!(concat!(env!("OUT_DIR"), "/baseline.rs"));
}

/// `example-extension-schema.xml` (package `extension`, version 1).
#[cfg(has_reference)]
pub mod extension {
    include!(concat!(env!("OUT_DIR"), "/extension.rs"));
}

/// `car.xml` from the reference benchmarks.
#[cfg(has_reference)]
pub mod car_bench {
    include!(concat!(env!("OUT_DIR"), "/car_bench.rs"));
}

/// `fix-message-samples.xml` from the reference benchmarks.
#[cfg(has_reference)]
pub mod fix_samples {
    include!(concat!(env!("OUT_DIR"), "/fix_samples.rs"));
}

/// `example-bigendian-test-schema.xml`: the Car at big-endian byte order, compiled from XML.
#[cfg(has_reference)]
pub mod bigendian {
    include!(concat!(env!("OUT_DIR"), "/bigendian.rs"));
}

/// Declares a module of code generated from one of this crate's own schemas (`<name>.rs` in
/// `OUT_DIR`), held to the lints generated decoders promise: no indexing, panics, unwraps or
/// unchecked arithmetic.
macro_rules! strict_module {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[deny(
            clippy::indexing_slicing,
            clippy::panic,
            clippy::unwrap_used,
            clippy::arithmetic_side_effects
        )]
        pub mod $name {
            include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
        }
    };
}

strict_module!(
    /// `schemas/versioned-v0.xml`: the base version of an evolving schema.
    versioned_v0
);

strict_module!(
    /// `schemas/versioned-v1.xml`: version 1 adds fields, a group entry field, a group and var data.
    versioned_v1
);

strict_module!(
    /// `schemas/keywords.xml`: Rust keywords and prelude names as every kind of schema name.
    keywords
);

strict_module!(
    /// `schemas/keywords.xml` generated with `KeywordStyle::Suffix` (`match_` instead of `r#match`).
    keywords_suffix
);

strict_module!(
    /// `schemas/orders-be.xml`: big-endian, version 2, nested groups, text and byte var data, and
    /// groups whose entries may take no bytes at all (a hostile count must not loop for long).
    orders_be
);

strict_module!(
    /// `schemas/hostile-names.xml`: messages, types, fields and values named after every target
    /// language's keywords and every generator's runtime identifiers (issue 34); it must build with
    /// the same lints as the others.
    hostile_names
);

/// `custom-header-type.xml`: a message header composite named `foo` (`headerType`).
#[cfg(has_reference)]
pub mod custom_header {
    include!(concat!(env!("OUT_DIR"), "/custom_header.rs"));
}

#[cfg(has_reference)]
pub mod bench_codecs;
pub mod handwritten;
