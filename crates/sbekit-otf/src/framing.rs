//! framing (todo)
