//! Byte maps: a block (a message's, a group entry's, a composite's) drawn as an SVG, every field
//! a box at its offset and as wide as its bytes, in rows of [`ROW_BYTES`]; bytes no field covers
//! are drawn as padding.

use crate::html::esc;
use std::fmt::Write;

/// Bytes per row.
pub const ROW_BYTES: usize = 16;
/// Width of one byte, in SVG units.
pub const BYTE_WIDTH: usize = 40;
/// Height of one row's boxes.
const ROW_HEIGHT: usize = 34;
/// Room under each row for the offsets.
const LABEL_HEIGHT: usize = 14;

/// One field of a byte map.
#[derive(Debug, Clone)]
pub struct Cell<'a> {
    /// The field's name (and what a box's tooltip says).
    pub name: &'a str,
    /// Offset in the block.
    pub offset: usize,
    /// Size in bytes (a constant, 0 bytes, has no box).
    pub size: usize,
    /// `sinceVersion`: boxes of newer fields are shaded by version.
    pub since: u32,
    /// Where the field's row is (`#field-...`), for a click on its box.
    pub link: String,
}

/// The SVG of a block of `length` bytes holding `cells`, titled `title`.
pub fn svg(title: &str, length: usize, cells: &[Cell]) -> String {
    let rows = length.div_ceil(ROW_BYTES).max(1);
    let height = rows * (ROW_HEIGHT + LABEL_HEIGHT);
    let width = ROW_BYTES * BYTE_WIDTH;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg class=\"bytemap\" role=\"img\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" data-length=\"{length}\" \
         data-byte-width=\"{BYTE_WIDTH}\" data-row-bytes=\"{ROW_BYTES}\">\n<title>{}</title>",
        esc(title)
    );
    // Padding first: every byte no field covers.
    let mut covered = vec![false; length];
    for c in cells {
        for b in covered.iter_mut().skip(c.offset).take(c.size) {
            *b = true;
        }
    }
    let mut at = 0;
    while at < length {
        if covered[at] {
            at += 1;
            continue;
        }
        let start = at;
        while at < length && !covered[at] {
            at += 1;
        }
        s.push_str("<g class=\"pad\"><title>padding</title>");
        rects(&mut s, start, at - start, "");
        s.push_str("</g>\n");
    }
    for c in cells.iter().filter(|c| c.size > 0) {
        let _ = write!(
            s,
            "<a href=\"{}\"><g class=\"field since-{}\" data-field=\"{}\" data-offset=\"{}\" \
             data-size=\"{}\"><title>{}: offset {}, {} byte{}{}</title>",
            esc(&c.link),
            c.since.min(9),
            esc(c.name),
            c.offset,
            c.size,
            esc(c.name),
            c.offset,
            c.size,
            if c.size == 1 { "" } else { "s" },
            if c.since > 0 {
                format!(", since version {}", c.since)
            } else {
                String::new()
            }
        );
        rects(&mut s, c.offset, c.size, c.name);
        s.push_str("</g></a>\n");
    }
    for r in 0..rows {
        let y = r * (ROW_HEIGHT + LABEL_HEIGHT) + ROW_HEIGHT + LABEL_HEIGHT - 3;
        let _ = writeln!(
            s,
            "<text class=\"offset\" x=\"2\" y=\"{y}\">{}</text>",
            r * ROW_BYTES
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The boxes of bytes `offset..offset + size`, one per row they cross; the first wide enough
/// carries `label`.
fn rects(s: &mut String, offset: usize, size: usize, label: &str) {
    let mut at = offset;
    let end = offset + size;
    let mut labelled = label.is_empty();
    while at < end {
        let row = at / ROW_BYTES;
        let col = at % ROW_BYTES;
        let n = (ROW_BYTES - col).min(end - at);
        let (x, y, w) = (
            col * BYTE_WIDTH,
            row * (ROW_HEIGHT + LABEL_HEIGHT),
            n * BYTE_WIDTH,
        );
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{ROW_HEIGHT}\" rx=\"3\"/>"
        );
        if !labelled && n >= 2 {
            // About 7 units a character at the stylesheet's size; cut longer names.
            let fit = (w / 7).saturating_sub(1).max(1);
            let text: String = if label.chars().count() > fit {
                label
                    .chars()
                    .take(fit.saturating_sub(1))
                    .chain(['…'])
                    .collect()
            } else {
                label.to_string()
            };
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                x + 4,
                y + ROW_HEIGHT / 2 + 4,
                esc(&text)
            );
            labelled = true;
        }
        at += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str, offset: usize, size: usize) -> Cell<'_> {
        Cell {
            name,
            offset,
            size,
            since: 0,
            link: format!("#field-{name}"),
        }
    }

    #[test]
    fn fields_sit_at_their_offsets_and_gaps_are_padding() {
        let s = svg(
            "Car",
            20,
            &[cell("serialNumber", 0, 8), cell("code", 12, 8)],
        );
        assert!(s.contains("data-field=\"serialNumber\" data-offset=\"0\" data-size=\"8\""));
        assert!(s.contains("<rect x=\"0\" y=\"0\" width=\"320\""));
        // `code` crosses into the second row: two boxes.
        assert!(s.contains(&format!(
            "<rect x=\"{}\" y=\"0\" width=\"160\"",
            12 * BYTE_WIDTH
        )));
        assert!(s.contains("<rect x=\"0\" y=\"48\" width=\"160\""));
        // Bytes 8..12 are padding.
        assert!(s.contains("<g class=\"pad\"><title>padding</title><rect x=\"320\""));
    }

    #[test]
    fn constants_take_no_box_and_names_are_escaped() {
        let s = svg("<x>", 4, &[cell("a<b", 0, 4), cell("k", 4, 0)]);
        assert!(s.contains("<title>&lt;x&gt;</title>"));
        assert!(s.contains("data-field=\"a&lt;b\""));
        assert!(!s.contains("data-field=\"k\""));
    }
}
