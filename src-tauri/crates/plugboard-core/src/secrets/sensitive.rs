//! `Sensitive<T>`: a value that must not leak through `Debug`, `Display` or logs.

use std::fmt;

/// Wraps a secret so that formatting it prints `[redacted]`; read it with [`Sensitive::expose`].
#[derive(Clone, PartialEq, Eq)]
pub struct Sensitive<T>(T);

impl<T> Sensitive<T> {
    pub fn new(value: T) -> Self {
        Self(value)
    }

    /// The secret itself; call it only where the value is handed to its one legitimate user.
    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Sensitive<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl<T> fmt::Display for Sensitive<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::Sensitive;

    /// Neither Debug nor Display, even nested in a struct's Debug, shows the value.
    #[test]
    fn formatting_never_shows_the_value() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct Holder {
            token: Sensitive<String>,
        }
        let token = Sensitive::new("ghp_supersecret".to_owned());
        assert_eq!(format!("{token:?} {token}"), "[redacted] [redacted]");
        let shown = format!("{:?}", Holder { token: token.clone() });
        assert!(!shown.contains("supersecret"), "{shown}");
        assert_eq!(token.expose(), "ghp_supersecret");
    }
}
