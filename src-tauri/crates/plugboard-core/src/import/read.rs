//! Reading a client's config file defensively: a size cap, regular files only, UTF-8 only, each failure in words.

use std::io::Read;
use std::path::Path;

/// Config files larger than this are refused (real ones are a few KB; this bounds memory on a hostile path).
pub const MAX_IMPORT_FILE_BYTES: u64 = 5 * 1024 * 1024;

/// Why a file could not be read for import.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    #[error("it is a directory, not a file")]
    Directory,
    #[error("it is not a regular file")]
    NotAFile,
    #[error("it is {size} bytes; files over {MAX_IMPORT_FILE_BYTES} bytes are not imported")]
    TooLarge { size: u64 },
    #[error("it could not be read: {0}")]
    Unreadable(#[source] std::io::Error),
    #[error("it is UTF-16 text; save it as UTF-8 and import again")]
    Utf16,
    #[error("it is not UTF-8 text")]
    NotUtf8,
    #[error("it is empty")]
    Empty,
}

/// Reads `path` as text, or says why it cannot be imported.
pub fn read_source_file(path: &Path) -> Result<String, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Unreadable)?;
    if meta.is_dir() {
        return Err(ReadError::Directory);
    }
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    if meta.len() > MAX_IMPORT_FILE_BYTES {
        return Err(ReadError::TooLarge { size: meta.len() });
    }
    let mut bytes = Vec::new();
    // take() bounds the read even when the file grows between metadata() and read.
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_IMPORT_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(ReadError::Unreadable)?;
    if bytes.len() as u64 > MAX_IMPORT_FILE_BYTES {
        return Err(ReadError::TooLarge { size: bytes.len() as u64 });
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ReadError::Utf16);
    }
    let text = String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)?;
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(ReadError::Empty);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of bad path gets its own error, and a good file reads.
    #[test]
    fn bad_paths_are_told_apart() {
        let dir = tempfile::tempdir().expect("dir");
        let p = |name: &str| dir.path().join(name);
        std::fs::write(p("ok.json"), "{}").expect("write");
        std::fs::write(p("empty.json"), " \n").expect("write");
        std::fs::write(p("latin1.json"), [b'{', 0xE9, b'}']).expect("write");
        std::fs::write(p("utf16.json"), [0xFF, 0xFE, b'{', 0, b'}', 0]).expect("write");
        std::fs::write(p("huge.json"), vec![b' '; (MAX_IMPORT_FILE_BYTES + 1) as usize]).expect("write");
        assert_eq!(read_source_file(&p("ok.json")).expect("ok"), "{}");
        assert!(matches!(read_source_file(&p("empty.json")), Err(ReadError::Empty)));
        assert!(matches!(read_source_file(&p("latin1.json")), Err(ReadError::NotUtf8)));
        assert!(matches!(read_source_file(&p("utf16.json")), Err(ReadError::Utf16)));
        assert!(matches!(read_source_file(&p("huge.json")), Err(ReadError::TooLarge { .. })));
        assert!(matches!(read_source_file(dir.path()), Err(ReadError::Directory)));
        assert!(matches!(read_source_file(&p("missing.json")), Err(ReadError::Unreadable(_))));
    }
}
