//! A builder for the small XML schemas tests write inline, so that the boilerplate (the
//! `messageSchema` element, the standard message header, group-size and var-data composites)
//! is written once.
//!
//! ```
//! let xml = sbekit_testdata::SchemaXml::new("p", 1, 0)
//!     .group_size("groupSizeEncoding", r#"primitiveType="uint16""#)
//!     .message("Tick", 1, r#"<field name="price" id="1" type="int64"/>"#)
//!     .build();
//! assert!(xml.contains(r#"<composite name="messageHeader">"#));
//! ```

use std::fmt::Write;

/// The standard message header's members (four `uint16`s).
pub const STANDARD_HEADER: &str = r#"<type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>"#;

/// A test schema's XML, built up part by part (see the module documentation).
#[derive(Debug, Clone)]
pub struct SchemaXml {
    package: String,
    id: u32,
    version: u32,
    byte_order: Option<String>,
    header: String,
    types: String,
    messages: String,
}

impl SchemaXml {
    /// A schema with the standard message header and nothing else.
    pub fn new(package: &str, id: u32, version: u32) -> Self {
        SchemaXml {
            package: package.into(),
            id,
            version,
            byte_order: None,
            header: STANDARD_HEADER.into(),
            types: String::new(),
            messages: String::new(),
        }
    }

    /// Sets the `byteOrder` attribute (`littleEndian`, `bigEndian`).
    pub fn byte_order(mut self, order: &str) -> Self {
        self.byte_order = Some(order.into());
        self
    }

    /// Replaces the message header's members (XML `<type>` elements).
    pub fn header(mut self, members: &str) -> Self {
        self.header = members.into();
        self
    }

    /// Adds a group dimension composite: `blockLength` `uint16` and a `numInGroup` with
    /// `num_in_group_attrs` (`primitiveType="uint8" maxValue="4"`).
    pub fn group_size(mut self, name: &str, num_in_group_attrs: &str) -> Self {
        let _ = write!(
            self.types,
            r#"
    <composite name="{name}">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" {num_in_group_attrs}/>
    </composite>"#
        );
        self
    }

    /// Adds a var-data composite: a `length` with `length_attrs` (`primitiveType="uint32"`)
    /// and a `varData` `uint8` of length 0 with `var_attrs` added (`characterEncoding="UTF-8"`,
    /// or empty).
    pub fn var_data(mut self, name: &str, length_attrs: &str, var_attrs: &str) -> Self {
        let sep = if var_attrs.is_empty() { "" } else { " " };
        let _ = write!(
            self.types,
            r#"
    <composite name="{name}">
      <type name="length" {length_attrs}/>
      <type name="varData" primitiveType="uint8" length="0"{sep}{var_attrs}/>
    </composite>"#
        );
        self
    }

    /// Adds XML inside `<types>` as it is.
    pub fn types(mut self, xml: &str) -> Self {
        self.types.push_str("\n    ");
        self.types.push_str(xml);
        self
    }

    /// Adds a message with `body` (its fields, groups and data, as XML).
    pub fn message(self, name: &str, id: u32, body: &str) -> Self {
        self.message_with(&format!(r#"name="{name}" id="{id}""#), body)
    }

    /// Adds a message whose opening tag carries `attrs` as they are
    /// (`name="Order" id="3" blockLength="40"`).
    pub fn message_with(mut self, attrs: &str, body: &str) -> Self {
        let _ = write!(
            self.messages,
            "\n  <sbe:message {attrs}>{body}</sbe:message>"
        );
        self
    }

    /// The schema's XML text (no XML declaration, so a test may put a DOCTYPE or a
    /// declaration of its own in front).
    pub fn build(&self) -> String {
        let order = self
            .byte_order
            .as_ref()
            .map(|o| format!(r#" byteOrder="{o}""#))
            .unwrap_or_default();
        format!(
            r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="{}" id="{}" version="{}"{order}>
  <types>
    <composite name="messageHeader">
      {}
    </composite>{}
  </types>{}
</sbe:messageSchema>
"#,
            self.package, self.id, self.version, self.header, self.types, self.messages
        )
    }
}
