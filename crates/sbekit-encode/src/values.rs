//! What "the same values" means for two JSON documents of the shape `sbekit decode` prints:
//! the one equality that `sbekit conformance` and the generated-code tests judge by.

use serde_json::Value;

/// JSON documents compared as values: integers exactly, floats equal as `f64` or as `f32`
/// (a `float` field printed by a language that widens it differently), objects without regard
/// to key order; everything else exactly. Every member counts, `"$version"` included.
pub fn same_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(p), Some(q)) = (x.as_i64(), y.as_i64()) {
                return p == q;
            }
            if let (Some(p), Some(q)) = (x.as_u64(), y.as_u64()) {
                return p == q;
            }
            match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) => p == q || p as f32 == q as f32,
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_values(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_values(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::same_values;
    use serde_json::json;

    #[test]
    fn numbers_are_values_and_every_member_counts() {
        assert!(same_values(
            &json!({"a": 1, "b": 2.5}),
            &json!({"b": 2.5, "a": 1.0})
        ));
        // A float printed widened from f32 by another language is the same float.
        assert!(same_values(&json!(0.1f32 as f64), &json!(0.1)));
        assert!(!same_values(&json!(1), &json!(2)));
        assert!(!same_values(&json!(u64::MAX), &json!(-1)));
        assert!(!same_values(
            &json!({"$version": 0, "a": 1}),
            &json!({"a": 1})
        ));
        assert!(!same_values(&json!([1, 2]), &json!([1])));
        assert!(!same_values(&json!("1"), &json!(1)));
    }
}
