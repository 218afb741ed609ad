//! Java identifiers for a plan: the plan's naming walk with Java's settings (the plan's Java
//! case and keyword policy, [`Language::Java`]), names kept clear of the `java.lang` and Agrona
//! names generated code uses unqualified, and of the generated classes' own members.

use crate::Options;
use sbekit_codegen_managed::names::{DtoNames, NamingRules};
use sbekit_plan::names::{assign, PlanNames};
use sbekit_plan::{Language, Plan};

/// Class names generated code refers to unqualified (`java.lang`, the Agrona imports, the
/// module's own support classes).
const TYPES: &[&str] = &[
    "String",
    "StringBuilder",
    "Math",
    "Long",
    "Integer",
    "Short",
    "Byte",
    "Float",
    "Double",
    "Boolean",
    "Character",
    "Object",
    "Override",
    "System",
    "Iterable",
    "Class",
    "Exception",
    "RuntimeException",
    "IllegalArgumentException",
    "IllegalStateException",
    "Number",
    "Void",
    "Enum",
    "Record",
    "Runtime",
    "Thread",
    "Error",
    "CharSequence",
    "Comparable",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
    "Process",
    "Module",
    "Package",
    "DirectBuffer",
    "MutableDirectBuffer",
    "UnsafeBuffer",
    "SbeDecodeException",
    "SbeEncodeException",
    "SbeMessageDecoder",
    "SbeJson",
    "SbeSchema",
    "SbeDispatcher",
    "SbeConformance",
];

/// Public member names of generated classes (and of `Object`, `Iterator`, `Iterable`) that
/// accessors must not take; `Object`'s first ([`OBJECT`] of them).
const MEMBERS: &[&str] = &[
    "toString",
    "hashCode",
    "equals",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
    "wrap",
    "buffer",
    "offset",
    "limit",
    "encodedLength",
    "actingVersion",
    "blockLength",
    "appendJson",
    "hasNext",
    "next",
    "iterator",
    "count",
    "remove",
    "forEachRemaining",
    "forEach",
    "spliterator",
    "raw",
    "clear",
    "sbeTemplateId",
    "sbeCopyTo",
    "sbeBlockLength",
    "version",
];

/// The Java package of a schema package: each dot-separated part made an identifier
/// (lower-case words joined by `_`), keywords escaped (`b3.umdf.mbo.sbe` stays, `my-schema`
/// becomes `my_schema`, `int` becomes `int_`).
pub fn java_package(package: &str) -> String {
    let parts: Vec<String> = package
        .split('.')
        .map(|p| {
            let s = sbekit_plan::names::snake(p);
            let s = s.trim_start_matches('_').to_string();
            let s = if s.is_empty() {
                "sbe".to_string()
            } else if s.starts_with(|c: char| c.is_ascii_digit()) {
                format!("sbe{s}")
            } else {
                s
            };
            let e = Language::Java.escape(&s);
            if matches!(e.as_str(), "true" | "false" | "null") {
                format!("{e}_")
            } else {
                e
            }
        })
        .collect();
    parts.join(".")
}

/// A wanted name made legal: keywords and literals escaped, and the generator's `sbe_` prefix
/// kept for its own locals.
fn escape(want: &str) -> String {
    let mut s = Language::Java.escape(want);
    if matches!(s.as_str(), "true" | "false" | "null" | "_") || s.starts_with("sbe_") {
        s.push('_');
    }
    s
}

/// Java's settings for the naming walk.
const RULES: NamingRules = NamingRules {
    language: Language::Java,
    types: TYPES,
    members: MEMBERS,
    enum_members: &["NULL_VAL", "SBE_UNKNOWN"],
    escape,
    member_not_class: false,
    package: java_package,
    verbs: ["has", "get", "put"],
};

/// Every name of the module generated for `plan`.
pub fn names(plan: &Plan, opts: &Options) -> PlanNames {
    assign(plan, &RULES, opts.package.as_deref())
}

/// The names of the module's owned values (DTOs).
pub fn dto_names(plan: &Plan, n: &PlanNames) -> DtoNames {
    RULES.dto_names(plan, n, &|w| w.to_string(), OBJECT)
}

/// The members every Java class has (`Object`'s).
const OBJECT: &[&str] = MEMBERS.split_at(9).0;
