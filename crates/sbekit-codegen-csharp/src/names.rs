//! C# identifiers for a plan: the plan's naming walk with C#'s settings (the plan's C# case
//! and keyword policy, [`Language::CSharp`]), names kept clear of the `System` names generated
//! code uses unqualified, of the generated classes' own members, and of the class's own name
//! (a member may not share it).

use crate::Options;
use sbekit_codegen_managed::names::{DtoNames, NamingRules};
use sbekit_codegen_managed::upper_first;
use sbekit_plan::names::{assign, PlanNames};
use sbekit_plan::{Language, Plan};

/// Type names generated code refers to unqualified (the namespace's support classes and the
/// `System` types it names).
const TYPES: &[&str] = &[
    "System",
    "String",
    "Math",
    "Array",
    "ArraySegment",
    "BitConverter",
    "StringBuilder",
    "Exception",
    "InvalidOperationException",
    "ArgumentOutOfRangeException",
    "Object",
    "SbeDecodeException",
    "SbeDecodeErrorKind",
    "SbeEncodeException",
    "SbeEncodeErrorKind",
    "ISbeMessageDecoder",
    "SbeJson",
    "SbeSchema",
    "SbeWire",
    "SbeDispatcher",
    "SbeConformance",
    "SbeConformanceMain",
    "SbeEnums",
    "SbeDto",
];

/// Public member names of generated classes (and of `object`) that accessors must not take;
/// the [`TYPES`] too, since a member of that name would hide the type inside the class.
const MEMBERS: &[&str] = &[
    // `object`'s first: [`OBJECT`] is these.
    "ToString",
    "GetHashCode",
    "Equals",
    "GetType",
    "MemberwiseClone",
    "ReferenceEquals",
    "Finalize",
    "Wrap",
    "Buffer",
    "Offset",
    "Limit",
    "EncodedLength",
    "ActingVersion",
    "BlockLength",
    "AppendJson",
    "MoveNext",
    "Current",
    "GetEnumerator",
    "Next",
    "Count",
    "Raw",
    "Clear",
    "SbeTemplateId",
    "SbeCopyTo",
    "SbeBlockLength",
    "SbeWrap",
    "SbeEnd",
    "Version",
    "TemplateId",
    "System",
    "String",
    "Math",
    "Array",
    "ArraySegment",
    "BitConverter",
    "StringBuilder",
    "SbeDecodeException",
    "SbeDecodeErrorKind",
    "SbeEncodeException",
    "SbeEncodeErrorKind",
    "SbeJson",
    "SbeSchema",
    "SbeWire",
    "SbeEnums",
    "SbeDto",
];

/// The members every C# class has (`object`'s), which a DTO's own members keep clear of.
const OBJECT: &[&str] = MEMBERS.split_at(7).0;

/// The C# namespace of a schema package: each dot-separated part in upper camel case,
/// keywords escaped (`baseline` becomes `Baseline`, `b3.umdf.mbo.sbe` becomes
/// `B3.Umdf.Mbo.Sbe`, `my-schema` becomes `MySchema`).
pub fn csharp_namespace(package: &str) -> String {
    let parts: Vec<String> = package
        .split('.')
        .map(|p| {
            let s = sbekit_plan::names::camel(p);
            // `System` would hide the `System` namespace the generated code names.
            if Language::CSharp.is_reserved(&s) || s == "System" {
                format!("{s}_")
            } else {
                s
            }
        })
        .collect();
    parts.join(".")
}

/// A wanted name made legal. Keywords get a `_` rather than `@`: names are also built from them
/// (`HasClass`); the generator's `sbe_` and `Sbe` prefixes are kept for its own members.
fn escape(want: &str) -> String {
    let mut s = want.to_string();
    if Language::CSharp.is_reserved(&s) || s.starts_with("sbe_") || s.starts_with("Sbe") {
        s.push('_');
    }
    s
}

/// C#'s settings for the naming walk.
const RULES: NamingRules = NamingRules {
    language: Language::CSharp,
    types: TYPES,
    members: MEMBERS,
    enum_members: &["NullValue", "value__"],
    escape,
    member_not_class: true,
    package: csharp_namespace,
    verbs: ["Has", "Get", "Put"],
};

/// Every name of the project generated for `plan`.
pub fn names(plan: &Plan, opts: &Options) -> PlanNames {
    assign(plan, &RULES, opts.namespace.as_deref())
}

/// The names of the project's owned values (DTOs): the shared walk, members spelled in C#'s
/// upper camel case (`DecodeWith`, `ComputeEncodedLength`).
pub fn dto_names(plan: &Plan, n: &PlanNames) -> DtoNames {
    RULES.dto_names(plan, n, &|w| upper_first(w), OBJECT)
}
