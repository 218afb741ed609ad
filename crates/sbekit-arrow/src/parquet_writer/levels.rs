//! Definition and repetition levels of an Arrow column's Parquet leaves (Dremel's shredding),
//! and which of each leaf array's values are written.
//!
//! Struct, list and fixed-size-list nesting is followed from the top-level array down; every
//! leaf gets its levels and the positions (into the leaf array) of the values that are
//! present. A slot is a level entry under construction: its definition level so far, its
//! repetition level, and its position in the array at the current depth (or [`NONE`] once a
//! null or an empty list has ended it).

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, Field};
use std::cell::OnceCell;
use std::sync::Arc;

/// A slot ended above the current depth.
const NONE: u32 = u32::MAX;

/// A leaf's definition or repetition levels for a batch.
#[derive(Clone)]
pub(crate) enum Levels {
    /// The column has none (its maximum is 0).
    None,
    /// Every entry has this level (a column without nulls, a group never empty): counted,
    /// never materialized.
    Const(u16),
    /// Levels of this leaf alone.
    Owned(Vec<u16>),
    /// Levels shared with sibling leaves (those without nulls of their own under the same
    /// parent have the same levels; computed once).
    Shared(Arc<[u16]>),
}

impl Levels {
    /// `Const` when every level is the same, else shared.
    fn of(levels: Vec<u16>) -> Levels {
        match levels.first() {
            Some(&x) if levels.iter().all(|l| *l == x) => Levels::Const(x),
            _ => Levels::Shared(levels.into()),
        }
    }
}

/// One leaf's levels and values for a batch.
pub(crate) struct Leaf {
    /// The leaf array (positions index into it).
    pub array: ArrayRef,
    /// Definition levels, one per level entry.
    pub def: Levels,
    /// Repetition levels.
    pub rep: Levels,
    /// Level entries (rows for a flat column).
    pub levels: usize,
    /// The positions of the values written, or `None` for all of `0..array.len()`.
    pub values: Option<Arc<[u32]>>,
}

/// The maximum definition and repetition levels of each leaf of `field`, depth first (the
/// order of Parquet's columns); `None` for a type this writer does not shred.
pub(crate) fn max_levels(
    field: &Field,
    def: u16,
    rep: u16,
    out: &mut Vec<(u16, u16)>,
) -> Option<()> {
    let def = def + u16::from(field.is_nullable());
    match field.data_type() {
        DataType::Struct(children) => {
            if children.is_empty() {
                return None;
            }
            for c in children {
                max_levels(c, def, rep, out)?;
            }
        }
        DataType::List(item) | DataType::FixedSizeList(item, _) => {
            max_levels(item, def + 1, rep + 1, out)?;
        }
        t if super::column::Kind::of(t).is_some() => out.push((def, rep)),
        _ => return None,
    }
    Some(())
}

/// Appends the leaves of top-level `array` (its field `field`) to `out`.
pub(crate) fn shred(field: &Field, array: &ArrayRef, out: &mut Vec<Leaf>) {
    let n = array.len();
    if !matches!(
        field.data_type(),
        DataType::Struct(_) | DataType::List(_) | DataType::FixedSizeList(_, _)
    ) {
        // A flat column: its levels are its validity.
        let (def, values) = match (field.is_nullable(), array.logical_nulls()) {
            (false, _) => (Levels::None, None),
            (true, None) => (Levels::Const(1), None),
            (true, Some(nulls)) if nulls.null_count() == 0 => (Levels::Const(1), None),
            (true, Some(nulls)) => {
                let def: Vec<u16> = nulls.iter().map(u16::from).collect();
                let values = nulls.valid_indices().map(|i| i as u32).collect();
                (Levels::Owned(def), Some(values))
            }
        };
        out.push(Leaf {
            array: array.clone(),
            def,
            rep: Levels::None,
            levels: n,
            values,
        });
        return;
    }
    let slots = Slots {
        def: vec![0; n],
        rep: vec![0; n],
        at: (0..n as u32).collect(),
        ..Slots::default()
    };
    walk(field, array, &slots, 0, out);
}

#[derive(Default)]
struct Slots {
    def: Vec<u16>,
    rep: Vec<u16>,
    at: Vec<u32>,
    /// The levels and values of a leaf without nulls of its own at these slots, by whether
    /// the leaf is nullable (made by the first such leaf, shared by its siblings).
    leaf: [OnceCell<(Levels, Positions)>; 2],
    /// The repetition levels, shared by the leaves.
    shared_rep: OnceCell<Levels>,
}

impl Slots {
    fn with_capacity(n: usize) -> Self {
        Slots {
            def: Vec::with_capacity(n),
            rep: Vec::with_capacity(n),
            at: Vec::with_capacity(n),
            ..Slots::default()
        }
    }

    fn push(&mut self, def: u16, rep: u16, at: u32) {
        self.def.push(def);
        self.rep.push(rep);
        self.at.push(at);
    }
}

/// The positions of a leaf's values in its array.
#[derive(Clone)]
enum Positions {
    /// `len` positions from `start`, in order (the usual leaf of a group: its entries are
    /// consecutive values): the leaf array is sliced to them, and the column takes its values
    /// as they are, not gathered one by one.
    Range(usize, usize),
    At(Arc<[u32]>),
}

impl Positions {
    fn of(at: Vec<u32>) -> Positions {
        let start = at.first().map_or(0, |&s| s as usize);
        let range = at.iter().enumerate().all(|(i, &v)| v as usize == start + i);
        if range {
            Positions::Range(start, at.len())
        } else {
            Positions::At(at.into())
        }
    }

    /// The leaf as the column takes it: the array sliced to a range, or the array and the
    /// positions.
    fn leaf(self, array: &ArrayRef) -> (ArrayRef, Option<Arc<[u32]>>) {
        match self {
            Positions::Range(start, len) => (array.slice(start, len), None),
            Positions::At(at) => (array.clone(), Some(at)),
        }
    }
}

/// `array` (of `field`) at the slots' positions; `rep_depth` is the repetition level of the
/// lists above.
fn walk(field: &Field, array: &ArrayRef, slots: &Slots, rep_depth: u16, out: &mut Vec<Leaf>) {
    let nullable = field.is_nullable();
    let nulls = if nullable {
        array.logical_nulls()
    } else {
        None
    };
    let is_null = |i: u32| nulls.as_ref().is_some_and(|n| n.is_null(i as usize));
    let up = u16::from(nullable);
    match field.data_type() {
        DataType::Struct(children) => {
            let s = array.as_struct();
            if !nullable {
                // Nothing to add: the children see the same slots.
                for (c, child) in children.iter().zip(s.columns()) {
                    walk(c, child, slots, rep_depth, out);
                }
                return;
            }
            // The same slots, a level deeper where the struct is there: built column by
            // column (no push of three vectors per slot; the repetition levels are copied).
            let present = |at: u32| at != NONE && !is_null(at);
            let next = Slots {
                def: (slots.def.iter().zip(&slots.at))
                    .map(|(&d, &at)| if present(at) { d + up } else { d })
                    .collect(),
                rep: slots.rep.clone(),
                at: (slots.at.iter())
                    .map(|&at| if present(at) { at } else { NONE })
                    .collect(),
                ..Slots::default()
            };
            for (c, child) in children.iter().zip(s.columns()) {
                walk(c, child, &next, rep_depth, out);
            }
        }
        DataType::List(item) | DataType::FixedSizeList(item, _) => {
            // A list's entries by its offsets; a fixed-size list's by its size.
            let (offsets, first, size, values) = match array.data_type() {
                DataType::List(_) => {
                    let l = array.as_list::<i32>();
                    (Some(l.value_offsets()), 0, 0, l.values())
                }
                _ => {
                    let l = array.as_fixed_size_list();
                    let first = l.value_offset(0).max(0) as usize;
                    (None, first, l.value_length() as usize, l.values())
                }
            };
            let range = |i: usize| match offsets {
                Some(o) => (o[i] as usize, o[i + 1] as usize),
                None => (first + i * size, first + (i + 1) * size),
            };
            let mut next = Slots::with_capacity(slots.at.len());
            let inner = rep_depth + 1;
            for k in 0..slots.at.len() {
                let (d, r, at) = (slots.def[k], slots.rep[k], slots.at[k]);
                if at == NONE || is_null(at) {
                    next.push(d, r, NONE);
                    continue;
                }
                let (s, e) = range(at as usize);
                if s == e {
                    next.push(d + up, r, NONE);
                    continue;
                }
                next.push(d + up + 1, r, s as u32);
                for j in s + 1..e {
                    next.push(d + up + 1, inner, j as u32);
                }
            }
            walk(item, values, &next, inner, out);
        }
        _ => {
            let (def, values) = if nulls.is_none() {
                // Without nulls of its own (most leaves), a leaf's levels are its slots'.
                slots.leaf[usize::from(up)]
                    .get_or_init(|| {
                        let def = slots
                            .def
                            .iter()
                            .zip(&slots.at)
                            .map(|(d, at)| if *at == NONE { *d } else { d + up })
                            .collect();
                        let values = slots.at.iter().copied().filter(|at| *at != NONE);
                        (Levels::of(def), Positions::of(values.collect()))
                    })
                    .clone()
            } else {
                let mut def = Vec::with_capacity(slots.at.len());
                let mut values = Vec::with_capacity(slots.at.len());
                for k in 0..slots.at.len() {
                    let (d, at) = (slots.def[k], slots.at[k]);
                    if at == NONE || is_null(at) {
                        def.push(d);
                    } else {
                        def.push(d + up);
                        values.push(at);
                    }
                }
                (Levels::Owned(def), Positions::of(values))
            };
            let rep = if rep_depth > 0 {
                slots
                    .shared_rep
                    .get_or_init(|| Levels::of(slots.rep.clone()))
                    .clone()
            } else {
                Levels::None
            };
            let (array, values) = values.leaf(array);
            out.push(Leaf {
                array,
                def,
                rep,
                levels: slots.at.len(),
                values,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{shred, Positions};
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int32Type;
    use arrow_array::{Array, ArrayRef, ListArray};
    use arrow_schema::{DataType, Field};
    use std::sync::Arc;

    /// A leaf whose values are consecutive in its array (a list's entries, here in a slice
    /// of the batch) comes as its array sliced to them, without positions; one with a null
    /// inside the lists keeps its positions.
    #[test]
    fn consecutive_values_come_as_a_slice() {
        let item = Arc::new(Field::new("item", DataType::Int32, true));
        let field = Field::new("l", DataType::List(item.clone()), true);
        let lists = [
            vec![Some(1), Some(2)],
            vec![],
            vec![Some(3), Some(4), Some(5)],
        ];
        let list = ListArray::from_iter_primitive::<Int32Type, _, _>(
            lists.iter().map(|l| Some(l.clone())),
        );
        // Rows 1 and 2: the values 3, 4, 5 at positions 2..5 of the values array.
        let sliced: ArrayRef = Arc::new(list.slice(1, 2));
        let mut out = Vec::new();
        shred(&field, &sliced, &mut out);
        let leaf = &out[0];
        assert!(leaf.values.is_none());
        assert_eq!(leaf.levels, 4);
        let values = leaf.array.as_primitive::<Int32Type>();
        assert_eq!(values.values().as_ref(), [3, 4, 5]);

        let with_null = ListArray::from_iter_primitive::<Int32Type, _, _>([
            Some(vec![Some(1), None, Some(3)]),
            Some(vec![Some(4)]),
        ]);
        let mut out = Vec::new();
        shred(&field, &(Arc::new(with_null) as ArrayRef), &mut out);
        assert_eq!(out[0].values.as_deref(), Some(&[0u32, 2, 3][..]));
        assert_eq!(out[0].array.len(), 4);
    }

    #[test]
    fn positions_are_a_range_only_when_consecutive() {
        assert!(matches!(Positions::of(vec![]), Positions::Range(0, 0)));
        assert!(matches!(
            Positions::of(vec![7, 8, 9]),
            Positions::Range(7, 3)
        ));
        assert!(matches!(Positions::of(vec![7, 9]), Positions::At(_)));
        assert!(matches!(Positions::of(vec![2, 1]), Positions::At(_)));
    }
}
