//! A text buffer with indentation and the dialect's documentation comments.

/// How a documentation comment is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocStyle {
    /// `/** ... */`, HTML-escaped (Java).
    Javadoc,
    /// `/// <summary>...</summary>`, XML-escaped (C#).
    XmlDoc,
}

/// A text buffer with indentation.
pub struct Out {
    /// The text written so far.
    pub s: String,
    indent: usize,
    style: DocStyle,
}

impl Out {
    /// An empty buffer whose documentation comments are written in `style`.
    pub fn new(style: DocStyle) -> Out {
        Out {
            s: String::new(),
            indent: 0,
            style,
        }
    }

    /// Writes one line; a line ending in `{` indents the next, one starting with `}` outdents.
    pub fn line(&mut self, text: &str) {
        let t = text.trim();
        if t.starts_with('}') {
            self.indent = self.indent.saturating_sub(1);
        }
        if !t.is_empty() {
            self.push_indent();
            self.s.push_str(t);
        }
        self.s.push('\n');
        if t.ends_with('{') {
            self.indent += 1;
        }
    }

    fn push_indent(&mut self) {
        for _ in 0..self.indent {
            self.s.push_str("    ");
        }
    }

    /// Writes one line at the current indentation, whatever it starts or ends with.
    fn raw(&mut self, t: &str) {
        self.push_indent();
        self.s.push_str(t);
        self.s.push('\n');
    }

    /// Writes a documentation comment (escaped: descriptions are text, never markup).
    pub fn doc(&mut self, text: &str) {
        let javadoc = self.style == DocStyle::Javadoc;
        let lines: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let l = l.replace('&', "&amp;");
                // Javadoc also reads `*/`, `@` tags and `\u` escapes inside a comment.
                let l = if javadoc {
                    l.replace("*/", "*&#47;")
                        .replace('@', "&#64;")
                        .replace('\\', "&#92;")
                } else {
                    l
                };
                l.replace('<', "&lt;").replace('>', "&gt;")
            })
            .collect();
        let (open, one, each, close) = match self.style {
            DocStyle::Javadoc => ("/**", ("/** ", " */"), " * ", " */"),
            DocStyle::XmlDoc => (
                "/// <summary>",
                ("/// <summary>", "</summary>"),
                "/// ",
                "/// </summary>",
            ),
        };
        match lines.as_slice() {
            [] => {}
            [l] => self.raw(&format!("{}{l}{}", one.0, one.1)),
            many => {
                self.raw(open);
                for l in many {
                    self.raw(&format!("{each}{l}"));
                }
                self.raw(close);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_indent_by_braces() {
        let mut o = Out::new(DocStyle::Javadoc);
        o.line("class A {");
        o.line("int x;");
        o.line("}");
        assert_eq!(o.s, "class A {\n    int x;\n}\n");
    }

    #[test]
    fn javadoc_escapes_what_javadoc_reads() {
        let mut o = Out::new(DocStyle::Javadoc);
        o.doc("a <b> & @c */ \\u");
        assert_eq!(o.s, "/** a &lt;b&gt; &amp; &#64;c *&#47; &#92;u */\n");
        let mut o = Out::new(DocStyle::Javadoc);
        o.doc("one\n\ntwo");
        assert_eq!(o.s, "/**\n * one\n * two\n */\n");
    }

    #[test]
    fn xml_doc_escapes_markup_only() {
        let mut o = Out::new(DocStyle::XmlDoc);
        o.doc("a <b> & @c");
        assert_eq!(o.s, "/// <summary>a &lt;b&gt; &amp; @c</summary>\n");
        let mut o = Out::new(DocStyle::XmlDoc);
        o.doc("one\ntwo");
        assert_eq!(o.s, "/// <summary>\n/// one\n/// two\n/// </summary>\n");
    }
}
