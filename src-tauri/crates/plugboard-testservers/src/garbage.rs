//! `--garbage-stdout`: a stdout that wraps every JSON-RPC line in lines that are not JSON, the way servers that
//! log to stdout by mistake behave. It must keep each valid message intact and on its own line.

use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};

const BEFORE: &[u8] = b"[testserver] about to answer (this line is not JSON)\n";
const AFTER: &[u8] = b"{ this is not JSON either\n";

/// A writer for rmcp; a task copies what it gets to the real stdout, one garbage line before and after each line.
pub fn stdout() -> impl AsyncWrite + Send + Unpin + 'static {
    let (writer, reader) = tokio::io::duplex(64 * 1024);
    tokio::spawn(copy_with_garbage(reader));
    writer
}

async fn copy_with_garbage(reader: DuplexStream) {
    let mut reader = BufReader::new(reader);
    let mut out = tokio::io::stdout();
    let mut line = Vec::new();
    if out.write_all(b"Starting plugboard-testserver in garbage mode...\n").await.is_err() {
        return;
    }
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let written = async {
            out.write_all(BEFORE).await?;
            out.write_all(&line).await?;
            out.write_all(AFTER).await?;
            out.flush().await
        };
        if written.await.is_err() {
            return;
        }
    }
}
