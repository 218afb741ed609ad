//! What the plan's test files share.

use sbekit_plan::Plan;
use std::path::Path;

/// The plan of `schema`, a path from the workspace's root.
pub fn plan(schema: &str) -> Plan {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(schema);
    let layout = sbekit_schema::load_layout(&p).expect("schema compiles");
    Plan::new(&layout).expect("plan")
}
