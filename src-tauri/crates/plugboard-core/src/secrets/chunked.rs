//! One logical value over one or more store entries, so a long token fits Windows Credential Manager's 2,560-byte
//! blobs: `<key>` holds the value itself, or a manifest `plugboard-chunks:v1:<n>:<sha256 prefix>` with the value in
//! `<key>#1..n`. Reading verifies every chunk against the manifest. This layer must never return a partial value.

use std::fmt::Write as _;
use std::thread;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::{SecretStore, Sensitive, VaultError};

/// The most UTF-16 code units one entry holds: 2,000 bytes as Windows counts, under its 2,560, leaving room for
/// whatever a store adds around the value.
pub const CHUNK_UTF16_UNITS: usize = 1_000;

/// A bound on what a damaged manifest can make the reader loop over: 4,096 chunks is about 8 MB of UTF-16.
const MAX_CHUNKS: usize = 4_096;

/// Any value starting with this is stored as chunks, so a short secret that happens to look like a manifest is
/// never mistaken for one, and a manifest from a newer Plugboard is recognised as such.
const MANIFEST_PREFIX: &str = "plugboard-chunks:";
const MANIFEST_V1: &str = "plugboard-chunks:v1:";
const DIGEST_HEX_LEN: usize = 16;

/// Pauses before re-reading a value whose chunks did not match: another process may be halfway through writing it.
const REREAD_PAUSES: [Duration; 2] = [Duration::from_millis(50), Duration::from_millis(200)];

/// What `<key>` holds for a chunked value: how many chunks, and a digest of the whole value to check them against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Manifest {
    count: usize,
    digest: String,
}

impl Manifest {
    fn of(value: &str, count: usize) -> Self {
        Self { count, digest: digest(value) }
    }

    fn encode(&self) -> String {
        format!("{MANIFEST_V1}{}:{}", self.count, self.digest)
    }

    /// `None` when `text` is a plain value; `Some(Err)` when it claims to be a manifest but is not a valid v1 one.
    fn parse(text: &str) -> Option<Result<Self, &'static str>> {
        if !text.starts_with(MANIFEST_PREFIX) {
            return None;
        }
        let Some(rest) = text.strip_prefix(MANIFEST_V1) else {
            return Some(Err("its chunk manifest has a format this version does not know"));
        };
        let parsed = rest.split_once(':').and_then(|(count, digest)| {
            let count: usize = count.parse().ok().filter(|n| *n <= MAX_CHUNKS)?;
            let hex = digest.len() == DIGEST_HEX_LEN && digest.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            hex.then(|| Self { count, digest: digest.to_owned() })
        });
        Some(parsed.ok_or("its chunk manifest is malformed"))
    }
}

/// The first 64 bits of the value's SHA-256, in hex: enough to catch a missing, stale or damaged chunk.
fn digest(value: &str) -> String {
    let hash = Sha256::digest(value.as_bytes());
    hash.iter().take(DIGEST_HEX_LEN / 2).fold(String::with_capacity(DIGEST_HEX_LEN), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

pub(crate) fn chunk_key(key: &str, index: usize) -> String {
    format!("{key}#{index}")
}

/// Whether `value` goes into chunks rather than straight into `<key>`. Empty values go too: not every keychain
/// accepts an empty password, and a manifest of zero chunks says "empty" to all of them.
fn needs_chunks(value: &str) -> bool {
    value.is_empty() || value.starts_with(MANIFEST_PREFIX) || value.encode_utf16().count() > CHUNK_UTF16_UNITS
}

/// Splits at character boundaries into pieces of at most [`CHUNK_UTF16_UNITS`] UTF-16 units, so a surrogate pair
/// (an emoji) is never cut in half and every piece is valid text on its own.
fn split(value: &str) -> Vec<&str> {
    let mut chunks = Vec::new();
    let (mut start, mut units) = (0, 0);
    for (at, c) in value.char_indices() {
        if units + c.len_utf16() > CHUNK_UTF16_UNITS {
            chunks.push(&value[start..at]);
            (start, units) = (at, 0);
        }
        units += c.len_utf16();
    }
    if start < value.len() {
        chunks.push(&value[start..]);
    }
    chunks
}

/// The value under `key`, reassembled and verified; `Ok(None)` when there is none; `Corrupt` when a chunk is
/// missing or does not match, after giving a concurrent writer in another process a moment to finish.
pub(crate) fn read(store: &dyn SecretStore, key: &str) -> Result<Option<Sensitive<String>>, VaultError> {
    let mut pauses = REREAD_PAUSES.iter();
    loop {
        let Some(head) = store.get(key)? else { return Ok(None) };
        let manifest = match Manifest::parse(head.expose()) {
            None => return Ok(Some(head)),
            Some(Err(reason)) => return Err(VaultError::Corrupt { key: key.to_owned(), reason: reason.to_owned() }),
            Some(Ok(manifest)) => manifest,
        };
        match assemble(store, key, &manifest)? {
            Ok(value) => return Ok(Some(value)),
            Err(reason) => match pauses.next() {
                Some(pause) => thread::sleep(*pause),
                None => return Err(VaultError::Corrupt { key: key.to_owned(), reason }),
            },
        }
    }
}

/// The chunks concatenated, or why they do not make up the value the manifest describes.
fn assemble(
    store: &dyn SecretStore,
    key: &str,
    manifest: &Manifest,
) -> Result<Result<Sensitive<String>, String>, VaultError> {
    let mut value = String::with_capacity(manifest.count * CHUNK_UTF16_UNITS);
    for index in 1..=manifest.count {
        match store.get(&chunk_key(key, index))? {
            Some(chunk) => value.push_str(chunk.expose()),
            None => return Ok(Err(format!("chunk {index} of {} is missing", manifest.count))),
        }
    }
    if digest(&value) != manifest.digest {
        return Ok(Err(format!("its {} chunks do not match their manifest", manifest.count)));
    }
    Ok(Ok(Sensitive::new(value)))
}

/// Stores `value` under `key`, chunked when it needs to be. Chunks are written before the manifest that points
/// at them, and chunks the previous value had beyond the new count are removed afterwards.
pub(crate) fn write(store: &dyn SecretStore, key: &str, value: &str) -> Result<(), VaultError> {
    let previous = Previous::of(store, key)?;
    let count = if needs_chunks(value) {
        let chunks = split(value);
        if chunks.len() > MAX_CHUNKS {
            return Err(VaultError::TooLong { key: key.to_owned(), limit_bytes: MAX_CHUNKS * CHUNK_UTF16_UNITS * 2 });
        }
        for (index, chunk) in chunks.iter().enumerate() {
            store.set(&chunk_key(key, index + 1), chunk)?;
        }
        store.set(key, &Manifest::of(value, chunks.len()).encode())?;
        chunks.len()
    } else {
        store.set(key, value)?;
        0
    };
    // A plain value replacing a plain (or no) value is the common case: it costs no extra keychain call.
    if count > 0 || matches!(previous, Previous::Chunks(_) | Previous::Unreadable) {
        remove_chunks_after(store, key, count, previous.known_chunks())?;
    }
    Ok(())
}

/// Deletes the value and all its chunks; `Ok(false)` when there was nothing under `key`. Chunks go first, so an
/// interrupted delete leaves a manifest that reads as `Corrupt` (and is deleted by trying again), never
/// unreachable chunks.
pub(crate) fn delete(store: &dyn SecretStore, key: &str) -> Result<bool, VaultError> {
    let previous = Previous::of(store, key)?;
    match previous {
        Previous::Absent => return Ok(false),
        Previous::Plain => {}
        Previous::Chunks(_) | Previous::Unreadable => remove_chunks_after(store, key, 0, previous.known_chunks())?,
    }
    store.delete(key)
}

/// What `<key>` holds before a write or delete changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Previous {
    Absent,
    Plain,
    Chunks(usize),
    /// A manifest that cannot be parsed: how many chunks it had is unknown.
    Unreadable,
}

impl Previous {
    fn of(store: &dyn SecretStore, key: &str) -> Result<Self, VaultError> {
        let Some(head) = store.get(key)? else { return Ok(Self::Absent) };
        Ok(match Manifest::parse(head.expose()) {
            None => Self::Plain,
            Some(Ok(manifest)) => Self::Chunks(manifest.count),
            Some(Err(_)) => Self::Unreadable,
        })
    }

    fn known_chunks(self) -> usize {
        match self {
            Self::Chunks(count) => count,
            _ => 0,
        }
    }
}

/// Deletes chunks `keep + 1` onwards: up to the `known` previous count, then on until one is absent, which also
/// sweeps up chunks left by a write that was interrupted after its chunks but before its manifest.
fn remove_chunks_after(store: &dyn SecretStore, key: &str, keep: usize, known: usize) -> Result<(), VaultError> {
    for index in keep + 1..=MAX_CHUNKS + 1 {
        if !store.delete(&chunk_key(key, index))? && index > known {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{CHUNK_UTF16_UNITS, Manifest, chunk_key, delete, read, split, write};
    use crate::secrets::{MemoryStore, SecretStore, VaultError, WindowsSizeLimitFake};

    fn read_back(store: &dyn SecretStore, key: &str) -> Option<String> {
        read(store, key).expect("read").map(|v| v.expose().clone())
    }

    fn entry_count(store: &dyn SecretStore, key: &str) -> usize {
        usize::from(store.get(key).expect("get").is_some())
            + (1..=20).filter(|i| store.get(&chunk_key(key, *i)).expect("get").is_some()).count()
    }

    /// Values of 0, 1, 1279, 1280, 1281 and 10,000 characters — ASCII, accented, CJK and emoji — round-trip
    /// through a store with Windows' size limit.
    #[test]
    fn round_trips_every_length_through_the_windows_limit() {
        let store = WindowsSizeLimitFake::new();
        for len in [0, 1, 999, 1_000, 1_001, 1_279, 1_280, 1_281, 10_000] {
            for unit in ["a", "é", "語", "😀", "a😀é"] {
                let value: String = unit.chars().cycle().take(len).collect();
                write(&store, "srv/token", &value).unwrap_or_else(|e| panic!("{len} × {unit:?}: {e}"));
                assert_eq!(read_back(&store, "srv/token").as_deref(), Some(value.as_str()), "{len} × {unit:?}");
            }
        }
    }

    /// A value over the chunk size is really split (the fake would reject it whole), and each chunk stays within
    /// the chunk size without cutting an emoji in half.
    #[test]
    fn long_values_are_split_at_character_boundaries() {
        let value = format!("x{}", "😀".repeat(2_000));
        let chunks = split(&value);
        assert_eq!(chunks.concat(), value);
        assert!(chunks.iter().all(|c| c.encode_utf16().count() <= CHUNK_UTF16_UNITS), "chunk too long");
        assert_eq!(chunks.len(), 5, "4,001 units in chunks of at most 1,000 (999 when an emoji would straddle)");
        let store = WindowsSizeLimitFake::new();
        write(&store, "srv/token", &value).expect("write");
        let head = store.get("srv/token").expect("get").expect("manifest");
        assert!(head.expose().starts_with("plugboard-chunks:v1:5:"), "the manifest names five chunks");
    }

    /// A short value that looks like a manifest is stored as chunks, so it reads back as itself.
    #[test]
    fn a_value_that_looks_like_a_manifest_reads_back_as_itself() {
        let store = MemoryStore::new();
        let sneaky = Manifest::of("other", 3).encode();
        write(&store, "srv/n", &sneaky).expect("write");
        assert_eq!(read_back(&store, "srv/n"), Some(sneaky));
    }

    /// A missing middle chunk is `Corrupt`, naming the chunk, not a shorter value.
    #[test]
    fn a_missing_middle_chunk_is_corrupt() {
        let store = WindowsSizeLimitFake::new();
        write(&store, "srv/token", &"t".repeat(3_500)).expect("write");
        assert!(store.delete(&chunk_key("srv/token", 2)).expect("delete"));
        let err = read(&store, "srv/token").expect_err("corrupt");
        assert_eq!(err, VaultError::Corrupt { key: "srv/token".into(), reason: "chunk 2 of 4 is missing".into() });
    }

    /// A chunk with different content, a malformed manifest and one from an unknown version are all `Corrupt`.
    #[test]
    fn a_damaged_chunk_or_manifest_is_corrupt() {
        let store = MemoryStore::new();
        write(&store, "srv/token", &"t".repeat(2_500)).expect("write");
        store.set(&chunk_key("srv/token", 1), &"u".repeat(1_000)).expect("tamper");
        assert!(
            matches!(read(&store, "srv/token"), Err(VaultError::Corrupt { reason, .. }) if reason.contains("match"))
        );
        for head in ["plugboard-chunks:v1:x:0011223344556677", "plugboard-chunks:v1:2:XYZ", "plugboard-chunks:v9:1:ab"]
        {
            store.set("srv/token", head).expect("set");
            assert!(matches!(read(&store, "srv/token"), Err(VaultError::Corrupt { .. })), "{head}");
        }
        store.set("srv/token", "plugboard-chunks:v1:999999999:0011223344556677").expect("set");
        assert!(matches!(read(&store, "srv/token"), Err(VaultError::Corrupt { .. })), "absurd counts are refused");
    }

    /// Deleting a chunked value removes the manifest and every chunk; deleting nothing is `Ok(false)`.
    #[test]
    fn delete_removes_every_chunk() {
        let store = WindowsSizeLimitFake::new();
        write(&store, "srv/token", &"😀".repeat(5_000)).expect("write");
        assert_eq!(entry_count(&store, "srv/token"), 1 + 10);
        assert!(delete(&store, "srv/token").expect("delete"));
        assert_eq!(entry_count(&store, "srv/token"), 0);
        assert!(!delete(&store, "srv/token").expect("delete again"));
    }

    /// Replacing a long value with a shorter (or plain) one leaves no stale chunk behind.
    #[test]
    fn overwriting_removes_stale_chunks() {
        let store = MemoryStore::new();
        write(&store, "srv/token", &"a".repeat(5_500)).expect("write");
        assert_eq!(entry_count(&store, "srv/token"), 1 + 6);
        write(&store, "srv/token", &"b".repeat(1_500)).expect("shorter");
        assert_eq!(entry_count(&store, "srv/token"), 1 + 2);
        write(&store, "srv/token", "short").expect("plain");
        assert_eq!(entry_count(&store, "srv/token"), 1);
        assert_eq!(read_back(&store, "srv/token").as_deref(), Some("short"));
    }

    /// Chunks orphaned by an interrupted write (written, but the manifest never was) are swept by the next write
    /// and by delete.
    #[test]
    fn orphaned_chunks_are_swept() {
        let store = MemoryStore::new();
        for i in 1..=3 {
            store.set(&chunk_key("srv/token", i), "orphan").expect("set");
        }
        write(&store, "srv/token", &"c".repeat(1_200)).expect("write");
        assert_eq!(entry_count(&store, "srv/token"), 1 + 2);
        store.set(&chunk_key("srv/token", 3), "orphan").expect("set");
        assert!(delete(&store, "srv/token").expect("delete"));
        assert_eq!(entry_count(&store, "srv/token"), 0);
    }

    /// A store that starts refusing writes after a number of successful ones, like a keychain that goes away.
    #[derive(Debug)]
    struct FailsAfter {
        inner: MemoryStore,
        writes_left: std::sync::atomic::AtomicUsize,
    }

    impl SecretStore for FailsAfter {
        fn kind(&self) -> crate::secrets::BackendKind {
            self.inner.kind()
        }
        fn get(&self, key: &str) -> Result<Option<crate::secrets::Sensitive<String>>, VaultError> {
            self.inner.get(key)
        }
        fn set(&self, key: &str, value: &str) -> Result<(), VaultError> {
            use std::sync::atomic::Ordering;
            if self.writes_left.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_err() {
                return Err(VaultError::Backend { reason: "write refused".into() });
            }
            self.inner.set(key, value)
        }
        fn delete(&self, key: &str) -> Result<bool, VaultError> {
            self.inner.delete(key)
        }
    }

    /// A write that fails partway returns the store's error, and the value then reads as the old one or as
    /// `Corrupt`, never as a mix of old and new chunks.
    #[test]
    fn a_failed_write_never_yields_a_wrong_value() {
        let old = "o".repeat(2_500);
        for writes_before_failure in 0..=3 {
            let store = FailsAfter { inner: MemoryStore::new(), writes_left: usize::MAX.into() };
            write(&store, "srv/token", &old).expect("first write");
            store.writes_left.store(writes_before_failure, std::sync::atomic::Ordering::SeqCst);
            let err = write(&store, "srv/token", &"n".repeat(2_600)).expect_err("refused");
            assert_eq!(err, VaultError::Backend { reason: "write refused".into() });
            match read(&store, "srv/token") {
                Ok(Some(value)) => assert_eq!(value.expose(), &old, "after {writes_before_failure} writes"),
                Err(VaultError::Corrupt { .. }) => assert!(writes_before_failure > 0),
                other => panic!("after {writes_before_failure} writes: {other:?}"),
            }
        }
    }
}
