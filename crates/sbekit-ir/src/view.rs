//! Structured views over flat token lists.

use crate::{IrError, PrimitiveType, Signal, Token};

/// The parts of a message or group body, each a run of whole components.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Components<'a> {
    /// `BeginField` .. `EndField` components of the fixed block.
    pub fields: &'a [Token],
    /// `BeginGroup` .. `EndGroup` components.
    pub groups: &'a [Token],
    /// `BeginVarData` .. `EndVarData` components.
    pub var_data: &'a [Token],
}

/// Splits a body (the tokens inside a message's or group's begin/end pair, after a group's
/// dimension composite) into fields, groups and var data, which SBE requires in that order.
pub fn split_components(body: &[Token]) -> Result<Components<'_>, IrError> {
    let fields_end = run_end(body, 0, Signal::BeginField)?;
    let groups_end = run_end(body, fields_end, Signal::BeginGroup)?;
    let var_end = run_end(body, groups_end, Signal::BeginVarData)?;
    if var_end != body.len() {
        return Err(IrError::Malformed(format!(
            "unexpected {:?} token '{}' after var data",
            body[var_end].signal, body[var_end].name
        )));
    }
    Ok(Components {
        fields: &body[..fields_end],
        groups: &body[fields_end..groups_end],
        var_data: &body[groups_end..var_end],
    })
}

/// Index just past the run of components starting with `signal` from `start`.
fn run_end(body: &[Token], mut i: usize, signal: Signal) -> Result<usize, IrError> {
    while let Some(t) = body.get(i) {
        if t.signal != signal {
            break;
        }
        i = component_end(body, i)?;
    }
    Ok(i)
}

/// Index just past the component that starts at `i`, checked against the slice.
pub(crate) fn component_end(tokens: &[Token], i: usize) -> Result<usize, IrError> {
    let t = &tokens[i];
    let count = usize::try_from(t.component_token_count)
        .ok()
        .filter(|&c| c >= 1 && i + c <= tokens.len())
        .ok_or_else(|| {
            IrError::Malformed(format!(
                "token '{}' has component token count {} beyond its container",
                t.name, t.component_token_count
            ))
        })?;
    let end = &tokens[i + count - 1];
    if let Some(expected) = t.signal.matching_end() {
        if end.signal != expected {
            return Err(IrError::Malformed(format!(
                "component '{}' ends with {:?}, expected {:?}",
                t.name, end.signal, expected
            )));
        }
    }
    Ok(i + count)
}

/// The message header's layout, as a decoder needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct HeaderStructure {
    /// Size of the header in bytes.
    pub encoded_length: usize,
    /// The `blockLength` encoding token.
    pub block_length: Token,
    /// The `templateId` encoding token.
    pub template_id: Token,
    /// The `schemaId` encoding token.
    pub schema_id: Token,
    /// The `version` encoding token.
    pub version: Token,
}

impl HeaderStructure {
    /// Finds the four standard fields among the header composite's tokens.
    pub fn from_tokens(header: &[Token]) -> Result<Self, IrError> {
        let first = header
            .first()
            .ok_or_else(|| IrError::Malformed("empty message header".into()))?;
        let find = |name: &str| -> Result<Token, IrError> {
            header
                .iter()
                .find(|t| t.signal == Signal::Encoding && t.name == name)
                .filter(|t| t.encoding.primitive() != PrimitiveType::None)
                .cloned()
                .ok_or_else(|| IrError::Malformed(format!("message header has no '{name}'")))
        };
        Ok(HeaderStructure {
            encoded_length: usize::try_from(first.encoded_length).unwrap_or(0),
            block_length: find("blockLength")?,
            template_id: find("templateId")?,
            schema_id: find("schemaId")?,
            version: find("version")?,
        })
    }
}
