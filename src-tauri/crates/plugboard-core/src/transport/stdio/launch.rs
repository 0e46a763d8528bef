//! What Plugboard hands `plugboard-keeper` on its stdin, once the server is approved and planned: the program, its
//! arguments, its whole environment and its folder, as one frame (a little-endian `u32` length, then that many bytes
//! of JSON). The keeper reads exactly the frame and starts the server with the same stdin, so everything after the
//! frame is the server's. It must never read a byte past its frame, nor accept a frame longer than [`MAX_FRAME`].

use std::ffi::OsString;
use std::io::Read;

/// Far above any real command line and environment (Linux caps both together at a few MiB).
pub(crate) const MAX_FRAME: u32 = 16 << 20;

/// One server to start.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Launch {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Everything the server sees: the keeper starts it with this environment only.
    pub env: Vec<(OsString, OsString)>,
    pub cwd: Option<OsString>,
}

impl std::fmt::Debug for Launch {
    // Args and env values may carry expanded secrets: only their shape is printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Launch")
            .field("program", &self.program)
            .field("args", &format_args!("[{} args]", self.args.len()))
            .field("env", &self.env.iter().map(|(k, _)| k).collect::<Vec<_>>())
            .field("cwd", &self.cwd)
            .finish()
    }
}

impl Launch {
    /// The frame to write before anything else reaches the keeper's stdin.
    pub fn frame(&self) -> std::io::Result<Vec<u8>> {
        let body = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        let length = u32::try_from(body.len()).ok().filter(|n| *n <= MAX_FRAME).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "the command and its environment are too large")
        })?;
        let mut frame = Vec::with_capacity(4 + body.len());
        frame.extend_from_slice(&length.to_le_bytes());
        frame.extend_from_slice(&body);
        Ok(frame)
    }

    /// Reads one frame from `input`, which must not buffer ahead (a `File`, not a `BufReader`). `Ok(None)` when the
    /// input ends before a frame begins: nobody wants a server any more.
    pub fn read_from(input: &mut impl Read) -> std::io::Result<Option<Self>> {
        let mut length = [0_u8; 4];
        match input.read_exact(&mut length) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let length = u32::from_le_bytes(length);
        if length > MAX_FRAME {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a launch of {length} bytes is longer than {MAX_FRAME}"),
            ));
        }
        let mut body = vec![0_u8; length as usize];
        input.read_exact(&mut body)?;
        serde_json::from_slice(&body).map(Some).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch() -> Launch {
        #[cfg(unix)]
        let odd = {
            use std::os::unix::ffi::OsStringExt;
            OsString::from_vec(vec![b'a', 0xff, b'b'])
        };
        #[cfg(not(unix))]
        let odd = OsString::from("a-b");
        Launch {
            program: "/usr/bin/node".into(),
            args: vec!["--".into(), odd.clone(), "two words".into()],
            env: vec![("PATH".into(), "/usr/bin".into()), ("ODD".into(), odd)],
            cwd: Some("/tmp/a folder".into()),
        }
    }

    /// A frame reads back as it was written, bytes that are not UTF-8 included, and the reader stops exactly at its
    /// end: what follows is the server's.
    #[test]
    fn a_frame_reads_back_and_leaves_what_follows() {
        let mut stream = launch().frame().unwrap();
        stream.extend_from_slice(b"{\"jsonrpc\":\"2.0\"}\n");
        let mut input = std::io::Cursor::new(stream);
        assert_eq!(Launch::read_from(&mut input).unwrap(), Some(launch()));
        let mut rest = String::new();
        input.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "{\"jsonrpc\":\"2.0\"}\n");
    }

    /// Its debug form names the variables, never their values (they may be secrets), nor the arguments.
    #[test]
    fn debug_shows_no_value() {
        let shown = format!("{:?}", launch());
        assert!(shown.contains("PATH") && !shown.contains("/usr/bin\"") && !shown.contains("two words"), "{shown}");
    }

    /// An input that ends before a frame is nobody asking; one that ends inside a frame, announces more than the cap
    /// or carries no launch is an error, and nothing is started from it.
    #[test]
    fn an_empty_cut_oversized_or_foreign_frame_starts_nothing() {
        assert_eq!(Launch::read_from(&mut std::io::Cursor::new(Vec::new())).unwrap(), None);
        let frame = launch().frame().unwrap();
        let cut = &frame[..frame.len() - 3];
        assert!(Launch::read_from(&mut std::io::Cursor::new(cut)).is_err());
        let huge = (MAX_FRAME + 1).to_le_bytes();
        let error = Launch::read_from(&mut std::io::Cursor::new(huge)).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        let mut foreign = 2_u32.to_le_bytes().to_vec();
        foreign.extend_from_slice(b"{}");
        assert!(Launch::read_from(&mut std::io::Cursor::new(foreign)).is_err());
    }
}
