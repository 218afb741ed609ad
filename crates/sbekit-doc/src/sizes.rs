//! How small and how large a message can be, at the schema's version.

use sbekit_plan::{Body, Section};

/// The bytes of `b` at the schema's version, its header excluded: the fewest (every group
/// empty, every var data empty) and the most (every group and length at its slot's maximum),
/// `None` for a most beyond 64 bits.
pub fn body_range(b: &Body) -> (u64, Option<u64>) {
    let mut min = b.block_length as u128;
    let mut max = b.block_length as u128;
    for s in &b.sections {
        match s {
            Section::Group {
                dim_size,
                count,
                body,
                ..
            } => {
                let (_, entry_max) = body_range(body);
                min += *dim_size as u128;
                max = max.saturating_add((*dim_size as u128).saturating_add(
                    u128::from(count.max).saturating_mul(entry_max.map_or(u128::MAX, u128::from)),
                ));
            }
            Section::Var { len, .. } => {
                let prefix = s.data_offset() as u128;
                min += prefix;
                max = max.saturating_add(prefix.saturating_add(u128::from(len.max)));
            }
        }
    }
    (
        u64::try_from(min).unwrap_or(u64::MAX),
        u64::try_from(max).ok(),
    )
}
