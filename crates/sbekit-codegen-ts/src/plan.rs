//! What the emitters read from the codec plan ([`sbekit_plan`]), in the shapes they render:
//! a message's header slots (from its checks) and a body's groups.

use sbekit_plan::{Body, Check, Message, RequiredLengths, Section, Slot};

/// The header slots and root block table a message's checks read.
pub struct Header<'p> {
    /// The schema id slot.
    pub schema_id: &'p Slot,
    /// The template id slot and the message's template id.
    pub template_id: (&'p Slot, u64),
    /// The root block length slot.
    pub block_length: &'p Slot,
    /// The acting version slot.
    pub version: &'p Slot,
    /// The bytes the root block needs at each version.
    pub required: &'p RequiredLengths,
}

/// The header checks of a message; `None` if the plan lacks one (`generate` refuses such a
/// plan before any emitter runs).
pub fn header(pm: &Message) -> Option<Header<'_>> {
    let (mut sid, mut tid, mut root) = (None, None, None);
    for c in &pm.checks {
        match c {
            Check::SchemaId { slot, .. } => sid = Some(slot),
            Check::TemplateId { slot, expected } => tid = Some((slot, *expected)),
            Check::RootBlock {
                block_length,
                version,
                required,
            } => root = Some((block_length, version, required)),
            _ => {}
        }
    }
    let (block_length, version, required) = root?;
    Some(Header {
        schema_id: sid?,
        template_id: tid?,
        block_length,
        version,
        required,
    })
}

/// A group section, as the emitters render it.
pub struct GroupRef<'p> {
    /// Schema name.
    pub name: &'p str,
    /// Schema description.
    pub description: &'p Option<String>,
    /// `sinceVersion`.
    pub since: u32,
    /// Size of the dimension composite.
    pub dim_size: usize,
    /// The entries' block length slot.
    pub block_len: &'p Slot,
    /// The entry count slot.
    pub count: &'p Slot,
    /// The entry's body.
    pub body: &'p Body,
}

/// A body's groups, in wire order.
pub fn groups(body: &Body) -> impl Iterator<Item = GroupRef<'_>> {
    body.sections.iter().filter_map(|s| match s {
        Section::Group {
            name,
            description,
            since,
            dim_size,
            block_len,
            count,
            body,
        } => Some(GroupRef {
            name,
            description,
            since: *since,
            dim_size: *dim_size,
            block_len,
            count,
            body,
        }),
        Section::Var { .. } => None,
    })
}

/// A var-data section, as the emitters render it.
pub struct VarRef<'p> {
    /// Index of the section in the body's wire order.
    pub index: usize,
    /// Schema name.
    pub name: &'p str,
    /// Schema description.
    pub description: &'p Option<String>,
    /// `sinceVersion`.
    pub since: u32,
    /// The length prefix.
    pub len: &'p Slot,
    /// Where the data starts after the prefix.
    pub data_offset: usize,
    /// Declared character encoding.
    pub char_encoding: Option<&'p str>,
}

/// A body's var-data sections, in wire order.
pub fn vars(body: &Body) -> impl Iterator<Item = VarRef<'_>> {
    body.vars().filter_map(|(index, s)| match s {
        Section::Var {
            name,
            description,
            since,
            len,
            data_offset,
            char_encoding,
            ..
        } => Some(VarRef {
            index,
            name,
            description,
            since: *since,
            len,
            data_offset: *data_offset,
            char_encoding: char_encoding.as_deref(),
        }),
        Section::Group { .. } => None,
    })
}
