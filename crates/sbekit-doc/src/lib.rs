//! `sbekit doc`: a static HTML reference of an SBE schema, or of several versions of one.
//!
//! [`site`] renders the newest version's codec plan ([`sbekit_plan::Plan`]) as plain HTML,
//! one stylesheet and one small script, with no server and no network: it works from
//! `file://`. The pages:
//! - `index.html`: the schema's identity and header, a table of its messages (template id,
//!   block length, smallest and largest encoded size, since-version) and of its types, and a
//!   search box over every message, field, type and enum value;
//! - `message-<name>.html`: the fields in wire order (offset, size, type, presence, null value,
//!   semantic type, since-version, description), groups and var data nested as on the wire, and
//!   a byte map per block ([`bytemap`]);
//! - `types.html`: enums, sets and composites (with byte maps), and the messages using each;
//! - `versions.html`, given several versions: per step, what `sbekit compat` finds and its
//!   effect on old and new readers.
//!
//! Offsets, sizes and versions come from the plan; the changes from `sbekit-compat`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bytemap;
mod html;
mod pages;
mod sizes;

use sbekit_compat::Schema;
pub use sbekit_plan::package::{write_files, GenError, GeneratedFile};
use sbekit_plan::{Plan, PlanError};
use std::fmt;

/// Why a site could not be made.
#[derive(Debug)]
pub enum DocError {
    /// No schema was given.
    NoSchema,
    /// A schema's codec plan could not be built (its label, and why).
    Plan(String, PlanError),
    /// A schema's decoder tables could not be built (its label, and why).
    Decoder(String, String),
    /// The schemas given share neither a package nor a schema id: not versions of one schema
    /// (two of their labels and packages).
    NotVersions(String, String, String, String),
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocError::NoSchema => write!(f, "no schema to document"),
            DocError::Plan(label, e) => write!(f, "{label}: {e}"),
            DocError::Decoder(label, e) => write!(f, "{label}: {e}"),
            DocError::NotVersions(a, pa, b, pb) => write!(
                f,
                "{a} (package {pa}) and {b} (package {pb}) are not versions of one schema: \
                 document them separately"
            ),
        }
    }
}

impl std::error::Error for DocError {}

/// The in-page decoder (`decoder.js`): it prints what `sbekit decode` prints, from the tables
/// in `decoder-model.js` (`sbekit_otf::Decoder::model_json`).
pub const DECODER_JS: &str = include_str!("../assets/decoder.js");

/// One version of the documented schema.
pub struct Version<'a> {
    /// The schema as loaded (its label, layout and source positions).
    pub schema: &'a Schema,
    /// Its codec plan.
    pub plan: Plan,
}

/// The site's files for `schemas`: one schema, or several versions of one (documented is the
/// newest by `version`; the others give the version history).
pub fn site(schemas: &[Schema]) -> Result<Vec<GeneratedFile>, DocError> {
    let mut versions = schemas
        .iter()
        .map(|schema| {
            Plan::new(&schema.layout)
                .map(|plan| Version { schema, plan })
                .map_err(|e| DocError::Plan(schema.label.clone(), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Versions of one schema share its package or its id (a venue may keep one and change
    // the other); schemas that share neither are not one schema's history.
    let first_of = |v: &Version| (v.plan.package.clone(), v.plan.id);
    let same_package = versions
        .windows(2)
        .all(|w| w[0].plan.package == w[1].plan.package);
    let same_id = versions.windows(2).all(|w| w[0].plan.id == w[1].plan.id);
    if let Some(other) = versions
        .iter()
        .find(|v| !same_package && !same_id && first_of(v) != first_of(&versions[0]))
    {
        let first = &versions[0];
        return Err(DocError::NotVersions(
            first.schema.label.clone(),
            first.plan.package.clone(),
            other.schema.label.clone(),
            other.plan.package.clone(),
        ));
    }
    // Oldest first: a venue may start a new schema id at a breaking change (Binance's spot
    // schemas go from id 1 to 3), so by id, then version; equal ones keep the order given.
    versions.sort_by_key(|v| (v.plan.id, v.plan.version));
    let newest = versions.last().ok_or(DocError::NoSchema)?;
    // The in-page decoder walks the tables `sbekit decode` walks.
    let decoder = sbekit_otf::Decoder::from_layout(&newest.schema.layout)
        .map_err(|e| DocError::Decoder(newest.schema.label.clone(), e.to_string()))?;
    let mut files = vec![
        file(
            "decoder-model.js",
            format!(
                "// The decoder tables of this schema (sbekit doc), for decoder.js.\nwindow.SBEKIT_MODEL = {};\n",
                decoder.model_json()
            ),
        ),
        file("decoder.js", DECODER_JS.to_string()),
        file("index.html", pages::index(newest, &versions)),
        file("types.html", pages::types(&newest.plan, &newest.schema.layout)),
        file("search-index.js", pages::search_index(&newest.plan)),
        file("style.css", include_str!("../assets/style.css").to_string()),
        file("search.js", include_str!("../assets/search.js").to_string()),
    ];
    for m in &newest.plan.messages {
        files.push(file(
            &pages::message_file(&m.body.name),
            pages::message(&newest.plan, &newest.schema.layout, m),
        ));
    }
    if versions.len() > 1 {
        files.push(file("versions.html", pages::versions(&versions)));
    }
    Ok(files)
}

fn file(path: &str, text: String) -> GeneratedFile {
    GeneratedFile {
        path: path.into(),
        text,
    }
}
