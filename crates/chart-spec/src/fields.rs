//! Reading one key of a JSON object of the config, the lookup every stage repeats per data
//! point.

use serde_json::{Map, Value};

/// Objects of at most this many keys are searched key by key rather than through their hash
/// table.
const SMALL_OBJECT: usize = 8;

/// `m[key]`, without hashing `key` when `m` is small. serde_json's map hashes every lookup
/// with SipHash (keyed, so that a request cannot choose colliding keys), which costs more
/// than comparing a handful of short keys: a data point `{x, y}` is read with three lookups,
/// 30,000 of them for a 10,000-point dataset. Keys are unique, so both find the same entry;
/// larger objects keep the hash table, whose cost does not grow with the object.
pub(crate) fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if m.len() <= SMALL_OBJECT {
        m.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        m.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_objects_answer_as_the_map() {
        for n in [0usize, 1, 2, 3, SMALL_OBJECT, SMALL_OBJECT + 1, 40] {
            let mut m = Map::new();
            for i in 0..n {
                m.insert(format!("k{i}"), Value::from(i));
            }
            // A repeated key keeps one entry, as parsing leaves it.
            m.insert("k0".into(), Value::from("again"));
            for key in ["k0", "k1", "k2", "k8", "k39", "x", "", "k"] {
                assert_eq!(field(&m, key), m.get(key), "{n} keys, {key}");
            }
        }
    }
}
