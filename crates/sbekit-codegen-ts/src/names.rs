//! TypeScript identifiers from schema names: the TypeScript policy of
//! [`sbekit_plan::names`] (sanitised names, never a reserved word or a global the generated
//! code uses, unique within their scope), where every target language's rules live.

pub use sbekit_plan::names::typescript::{class_scope, module_scope, pascal};
pub use sbekit_plan::names::Scope;
