//! Synthetic DEEP capture generator (placeholder, filled in below).
