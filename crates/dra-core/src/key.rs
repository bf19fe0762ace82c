//! Interned mapping keys (issue 37): a key is one pointer into a table
//! that lives as long as the process, so the language server's table grows
//! with the distinct keys it has read (bounded by what it was given).

/// A mapping key, interned: keys repeat on every device of every slice,
/// and an interned key is one pointer (8 bytes) instead of a 24-byte
/// string (issue 37). Interned strings live as long as the process. It
/// reads, prints and compares as the string it is.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(ustr::Ustr);

impl Key {
    pub fn as_str(&self) -> &'static str {
        self.0.as_str()
    }
}

impl std::ops::Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        self.0.as_str() == other
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == other.0.as_str()
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == other.0.as_str()
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        self == other.0.as_str()
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        key(s)
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        key(&s)
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Self {
        key(s)
    }
}

/// The key for `s`, through a small per-thread cache: the same few keys
/// come again and again, and the cache spares the global table's hash and lock.
pub fn key(s: &str) -> Key {
    use std::cell::RefCell;
    const SLOTS: usize = 256;
    thread_local! {
        static RECENT: RefCell<[Option<Key>; SLOTS]> = const { RefCell::new([None; SLOTS]) };
    }
    let b = s.as_bytes();
    let slot = (b.len()
        ^ usize::from(b.first().copied().unwrap_or(0)) << 3
        ^ usize::from(b.last().copied().unwrap_or(0)) << 5
        ^ usize::from(b.get(b.len() / 2).copied().unwrap_or(0)))
        % SLOTS;
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        match r[slot] {
            Some(k) if k.as_str() == s => k,
            _ => {
                let k = Key(ustr::Ustr::from(s));
                r[slot] = Some(k);
                k
            }
        }
    })
}

#[cfg(test)]
mod key_tests {
    use super::*;

    /// Messages format keys with `{:?}` and `{}`: an interned key prints
    /// exactly as the string it is (not as the interner's own form).
    #[test]
    fn a_key_prints_and_compares_as_its_string() {
        let k = key("gpu.example.com/model");
        assert_eq!(format!("{k:?}"), "\"gpu.example.com/model\"");
        assert_eq!(format!("{k}"), "gpu.example.com/model");
        assert_eq!(k, "gpu.example.com/model");
        assert_eq!(k, key(&String::from("gpu.example.com/model")));
        assert!(key("a") < key("b"));
        assert_eq!(Key::default().as_str(), "");
    }
}
