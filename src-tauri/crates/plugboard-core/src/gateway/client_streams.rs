//! The gateway's ends of its client's stdin and stdout, read and written on Tokio's reactor when they are pipes
//! (what the Rust and Python SDKs launch servers with) or sockets (Node's child processes). Tokio's own stdin and
//! stdout hand every read and write to a blocking thread, a cross-thread hop on each message of every call. It must
//! never change how the streams behave for another process: pipes are reopened on descriptions of their own, and a
//! socket's non-blocking flag stays with this process, whose children never inherit its stdin or stdout.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::FileTypeExt;

use tokio::io::{AsyncRead, AsyncWrite};

/// What the client's end of stdin or stdout is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StreamKind {
    Pipe,
    Socket,
    /// A terminal, a file, or anything else: read and written the blocking way.
    Other,
}

/// The reader and writer the gateway serves its client on.
pub type ClientStreams = (Box<dyn AsyncRead + Send + Unpin>, Box<dyn AsyncWrite + Send + Unpin>);

/// The client's stdin and stdout, on the reactor where they allow it. Call it inside the runtime.
pub fn client_streams() -> ClientStreams {
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    match (kind_of(stdin.as_fd()), kind_of(stdout.as_fd())) {
        (StreamKind::Pipe, StreamKind::Pipe) => {
            let (reader, writer) = rmcp::transport::stdio_pipes();
            (Box::new(reader), Box::new(writer))
        }
        (StreamKind::Socket, StreamKind::Socket) => match sockets(stdin.as_fd(), stdout.as_fd()) {
            Ok((reader, writer)) => (Box::new(reader), Box::new(writer)),
            Err(error) => {
                tracing::debug!(%error, "stdin and stdout are sockets Tokio could not take: read them the blocking way");
                blocking()
            }
        },
        _ => blocking(),
    }
}

/// Tokio's stdin and stdout, which read and write on its blocking threads.
fn blocking() -> ClientStreams {
    let (reader, writer) = rmcp::transport::stdio();
    (Box::new(reader), Box::new(writer))
}

fn kind_of(fd: BorrowedFd<'_>) -> StreamKind {
    let Ok(metadata) = fd.try_clone_to_owned().map(std::fs::File::from).and_then(|file| file.metadata()) else {
        return StreamKind::Other;
    };
    let file_type = metadata.file_type();
    if file_type.is_fifo() {
        StreamKind::Pipe
    } else if file_type.is_socket() {
        StreamKind::Socket
    } else {
        StreamKind::Other
    }
}

/// Both sockets as Tokio streams: a socket cannot be reopened apart from its description, so copies of the
/// descriptors are made non-blocking (which the process's fds 0 and 1 share: nothing else here reads or writes them
/// once the gateway serves).
fn sockets(
    stdin: BorrowedFd<'_>,
    stdout: BorrowedFd<'_>,
) -> std::io::Result<(tokio::net::UnixStream, tokio::net::UnixStream)> {
    let stream = |fd: OwnedFd| {
        let socket = std::os::unix::net::UnixStream::from(fd);
        socket.set_nonblocking(true)?;
        tokio::net::UnixStream::from_std(socket)
    };
    Ok((stream(stdin.try_clone_to_owned()?)?, stream(stdout.try_clone_to_owned()?)?))
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsFd;

    use super::{StreamKind, kind_of};

    /// Pipes, sockets and files are told apart by what the descriptor is, whatever opened it.
    #[test]
    fn kinds_by_descriptor() {
        let (reader, _writer) = std::io::pipe().unwrap();
        assert_eq!(kind_of(reader.as_fd()), StreamKind::Pipe);
        let (socket, _peer) = std::os::unix::net::UnixStream::pair().unwrap();
        assert_eq!(kind_of(socket.as_fd()), StreamKind::Socket);
        let file = tempfile::tempfile().unwrap();
        assert_eq!(kind_of(file.as_fd()), StreamKind::Other);
    }
}
