//! The console's call history: one SQLite file (`history.sqlite3` in the data dir, WAL), newest first, searchable,
//! pruned to the newest [`MAX_ROWS`]. It stores only what the caller already redacted; it must never see a raw
//! secret, and a damaged file is moved aside rather than failing the console. Only the window's open, which reads
//! every page ([`DamageCheck::Whole`]), moves a file aside; a command or a gateway never renames the file the window
//! has open.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

use super::cli_line::cli_command;
use super::types::{CallOutcome, CallStatus, HistoryEntry, HistoryPage, HistorySummary};

/// The file's name inside the data dir.
pub const FILE_NAME: &str = "history.sqlite3";
/// Older rows than the newest this many are pruned as new ones arrive.
pub const MAX_ROWS: u32 = 50_000;
/// A result (or failure message) longer than this is cut, and marked `truncated`.
pub const RESULT_CAP: usize = 256 * 1024;
/// How much of the arguments a summary carries.
pub const PREVIEW_CHARS: u32 = 120;
/// The most rows one page may ask for.
pub const MAX_PAGE: u32 = 500;

/// The WAL's size from which [`History::write_back`] copies it into the file. Each call's row adds about 8 KiB, so
/// a command pays the copy once in thirty-odd calls, not at each: the copy costs four fsyncs (the WAL's restart, the
/// folder, the WAL and the file: 0.4 ms of a cold `plugboard call` on the benchmark's VM, milliseconds on a
/// laptop's disk), while reading back a WAL this small at the next open costs tens of microseconds. Without a
/// bound, commands that exit without closing would grow the WAL that every open reads back.
pub const WRITE_BACK_AT_BYTES: u64 = 256 * 1024;

/// How long a statement waits for another process's connection (the window's, a gateway's) to let go of the file.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The schema version this code writes; older files are migrated step by step in [`migrate`].
const SCHEMA_VERSION: i32 = 2;

/// How much of the file an open reads to find damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DamageCheck {
    /// Every page (`PRAGMA quick_check`, whose time grows with the file: 40–70 ms for 10,000 rows of 2 kB results,
    /// seconds from a cold disk): the window, which owns the history and lives long enough to pay for it once.
    #[default]
    Whole,
    /// Only the header and the schema; damage elsewhere fails the read or write that meets it, with a
    /// [`HistoryError::Damaged`] saying the window sets the file aside. For a CLI command or a gateway, which append
    /// a row and must start at once.
    OnUse,
}

/// Why the history could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryError {
    #[error("the call history at {} cannot be opened: {message}", path.display())]
    Open { path: PathBuf, message: String },
    #[error("the call history could not be read or written: {message}")]
    Database { message: String },
    #[error(
        "the call history is damaged ({message}); Plugboard's window moves it aside and starts a new one when it next \
         starts"
    )]
    Damaged { message: String },
    #[error("there is no call {id} in the history")]
    NotFound { id: u32 },
}

impl From<rusqlite::Error> for HistoryError {
    fn from(e: rusqlite::Error) -> Self {
        if is_damage(&e) { Self::Damaged { message: e.to_string() } } else { Self::Database { message: e.to_string() } }
    }
}

/// A call to record; its arguments and outcome are already redacted.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCall {
    pub server: String,
    pub tool: String,
    /// JSON object text.
    pub arguments: String,
    pub started_at_ms: f64,
    pub duration_ms: u32,
    pub outcome: CallOutcome,
    /// The MCP client that called through the gateway (its `clientInfo` name); `None` for Plugboard's own console
    /// and CLI.
    pub origin: Option<String>,
}

/// The open history. Blocking: async callers use it from the blocking pool.
pub struct History {
    connection: Mutex<Connection>,
    max_rows: u32,
    moved_aside: Option<PathBuf>,
}

impl History {
    /// Opens (or creates) `history.sqlite3` in the data dir.
    pub fn open_default(check: DamageCheck) -> Result<Self, HistoryError> {
        Self::open_checking(&crate::paths::data_dir().join(FILE_NAME), MAX_ROWS, check)
    }

    pub fn open(path: &Path) -> Result<Self, HistoryError> {
        Self::open_with_limit(path, MAX_ROWS)
    }

    /// Opens with another row limit (tests prune without writing 50,000 rows).
    pub fn open_with_limit(path: &Path, max_rows: u32) -> Result<Self, HistoryError> {
        Self::open_checking(path, max_rows, DamageCheck::Whole)
    }

    /// Opens, reading as much of the file for damage as `check` says.
    pub fn open_checking(path: &Path, max_rows: u32, check: DamageCheck) -> Result<Self, HistoryError> {
        let open_error = |message: String| HistoryError::Open { path: path.to_owned(), message };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| open_error(e.to_string()))?;
        }
        let (connection, moved_aside) = match open_checked(path, check) {
            Ok(connection) => (connection, None),
            Err(e) if is_damage(&e) => {
                let aside = move_aside(path).map_err(|io| open_error(format!("{e}; moving it aside failed: {io}")))?;
                tracing::warn!(damaged = %aside.display(), "the call history was damaged ({e}); it was moved aside and a new one started");
                (open_checked(path, check).map_err(|e| open_error(e.to_string()))?, Some(aside))
            }
            Err(e) => return Err(open_error(e.to_string())),
        };
        Ok(Self { connection: Mutex::new(connection), max_rows, moved_aside })
    }

    /// A history that lives only as long as this process: for a CLI call whose data dir cannot hold the file, so the
    /// call still runs (it is just not remembered).
    pub fn in_memory() -> Result<Self, HistoryError> {
        let open_error = |e: rusqlite::Error| HistoryError::Open { path: ":memory:".into(), message: e.to_string() };
        let connection = Connection::open_in_memory().map_err(open_error)?;
        migrate(&connection).map_err(open_error)?;
        Ok(Self { connection: Mutex::new(connection), max_rows: MAX_ROWS, moved_aside: None })
    }

    /// Where a damaged file was moved when this open replaced it (the UI may mention it).
    pub fn moved_aside(&self) -> Option<&Path> {
        self.moved_aside.as_deref()
    }

    /// Stores a call (capping its result) and prunes the oldest rows past the limit; returns the saved entry.
    pub fn record(&self, mut call: NewCall) -> Result<HistoryEntry, HistoryError> {
        let outcome = cap(std::mem::replace(&mut call.outcome, CallOutcome::Cancelled));
        let id = self.insert(&call, &outcome)?;
        Ok(entry_of(call, outcome, id, None))
    }

    /// [`History::record`], except that a call the history cannot take (a full disk, a read-only data dir) is still
    /// returned whole, with id 0 and the reason in `unrecorded`: the person must not lose a result because it could
    /// not be remembered.
    pub fn record_or_keep(&self, mut call: NewCall) -> HistoryEntry {
        let outcome = cap(std::mem::replace(&mut call.outcome, CallOutcome::Cancelled));
        match self.insert(&call, &outcome) {
            Ok(id) => entry_of(call, outcome, id, None),
            Err(e) => {
                tracing::warn!(error = %e, "a call could not be written to the history; its result is still returned");
                entry_of(call, outcome, 0, Some(e.to_string()))
            }
        }
    }

    /// Stores every call of `calls` in one transaction (one set of locks and one commit for them all), then prunes
    /// past the limit once: the gateway's writer hands over whatever rows waited meanwhile.
    pub fn record_all(&self, calls: Vec<NewCall>) -> Result<(), HistoryError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let mut last = 0;
        for mut call in calls {
            let outcome = cap(std::mem::replace(&mut call.outcome, CallOutcome::Cancelled));
            last = insert_row(&transaction, &call, &outcome)?;
        }
        prune(&transaction, last, self.max_rows)?;
        transaction.commit()?;
        Ok(())
    }

    /// Writes one row (with `outcome`, `call`'s own already taken) and prunes past the limit; its id.
    fn insert(&self, call: &NewCall, outcome: &CallOutcome) -> Result<u32, HistoryError> {
        let mut connection = self.lock();
        // One transaction for the row and the prune: one set of locks and one commit, not two.
        let transaction = connection.transaction()?;
        let id = insert_row(&transaction, call, outcome)?;
        prune(&transaction, id, self.max_rows)?;
        transaction.commit()?;
        Ok(id)
    }

    /// Makes the database refuse every further write as a read-only data dir does (SQLITE_READONLY), for tests of
    /// what a call does when it cannot be remembered (a file mode cannot do it: the tests may run as root).
    #[cfg(test)]
    pub(crate) fn refuse_writes(&self, refused: bool) {
        self.lock().pragma_update(None, "query_only", refused).expect("query_only");
    }

    /// Newest first: rows whose server, tool, arguments or origin contain `query` (any case; empty matches all), with ids
    /// below `before_id` when given; at most `limit` (≤ [`MAX_PAGE`]) of them, and how many match in all.
    pub fn page(&self, query: &str, before_id: Option<u32>, limit: u32) -> Result<HistoryPage, HistoryError> {
        let needle = query.to_lowercase();
        let limit = limit.min(MAX_PAGE);
        let connection = self.lock();
        // Without a query SQLite counts from the table's b-tree alone; a filtered count has to read every row.
        let total: u32 = if needle.is_empty() {
            connection.query_row("SELECT count(*) FROM calls", [], |row| row.get(0))?
        } else {
            connection
                .query_row("SELECT count(*) FROM calls WHERE instr(haystack, ?1) > 0", [&needle], |row| row.get(0))?
        };
        let mut statement = connection.prepare_cached(
            "SELECT id, server, tool, substr(arguments, 1, ?4), started_at_ms, duration_ms, status, origin FROM calls
             WHERE id < ?2 AND (?1 = '' OR instr(haystack, ?1) > 0)
             ORDER BY id DESC LIMIT ?3",
        )?;
        // A plain `id < ?2` (no NULL case) lets SQLite seek the rowid range instead of walking down to it.
        let before = before_id.map_or(i64::MAX, i64::from);
        let rows = statement.query_map(params![needle, before, limit, PREVIEW_CHARS], |row| {
            Ok(HistorySummary {
                id: row.get(0)?,
                server: row.get(1)?,
                tool: row.get(2)?,
                arguments_preview: row.get(3)?,
                started_at_ms: row.get(4)?,
                duration_ms: row.get(5)?,
                status: CallStatus::parse(&row.get::<_, String>(6)?),
                origin: row.get(7)?,
            })
        })?;
        let entries = rows.collect::<Result<Vec<_>, _>>()?;
        Ok(HistoryPage { entries, total })
    }

    /// One call in full.
    pub fn get(&self, id: u32) -> Result<HistoryEntry, HistoryError> {
        let connection = self.lock();
        let entry = connection
            .query_row(
                "SELECT server, tool, arguments, started_at_ms, duration_ms, status, result, truncated, origin
                 FROM calls WHERE id = ?1",
                [id],
                |row| {
                    let status = CallStatus::parse(&row.get::<_, String>(5)?);
                    let result: Option<String> = row.get(6)?;
                    let outcome = match status {
                        CallStatus::Ok | CallStatus::ToolError => CallOutcome::Result {
                            is_error: status == CallStatus::ToolError,
                            result: result.unwrap_or_default(),
                            truncated: row.get(7)?,
                        },
                        CallStatus::Failed => CallOutcome::Failed { message: result.unwrap_or_default() },
                        CallStatus::Cancelled => CallOutcome::Cancelled,
                    };
                    let (server, tool, arguments): (String, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
                    Ok(HistoryEntry {
                        id,
                        cli_command: cli_command(&server, &tool, &arguments),
                        server,
                        tool,
                        arguments,
                        started_at_ms: row.get(3)?,
                        duration_ms: row.get(4)?,
                        outcome,
                        origin: row.get(8)?,
                        unrecorded: None,
                    })
                },
            )
            .optional()?;
        entry.ok_or(HistoryError::NotFound { id })
    }

    /// Once the WAL holds [`WRITE_BACK_AT_BYTES`] or more, copies its rows into the file and, when no other
    /// connection is using the history, empties it; returns whether it copied. Below that it does nothing: a command
    /// that exits without closing leaves its rows in the WAL, and the next open reads them back. It never waits: with
    /// another process's connection open it copies what it can, and that connection keeps the WAL's index. A command
    /// calls it while its server stops (the copy's fsyncs then overlap the stop).
    pub fn write_back(&self) -> Result<bool, HistoryError> {
        let connection = self.lock();
        if wal_bytes(&connection) < WRITE_BACK_AT_BYTES {
            return Ok(false);
        }
        connection.busy_timeout(Duration::ZERO)?;
        // Its first column says whether another connection kept it from finishing.
        let busy = connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get::<_, bool>(0));
        connection.busy_timeout(BUSY_TIMEOUT)?;
        if busy? {
            tracing::debug!("the history's WAL is not empty: another connection has the file open");
        }
        Ok(true)
    }

    /// Forgets every call.
    pub fn clear(&self) -> Result<(), HistoryError> {
        self.lock().execute("DELETE FROM calls", [])?;
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A statement either ran or not: a panic elsewhere cannot leave the connection half-used.
        self.connection.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The size of the connection's WAL file (0 when it has none yet, or for a history in memory).
fn wal_bytes(connection: &Connection) -> u64 {
    connection.path().filter(|p| !p.is_empty()).map_or(0, |file| wal_size(Path::new(file)))
}

/// The size of the WAL beside the history file at `path` (0 when there is none).
fn wal_size(path: &Path) -> u64 {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).map_or(0, |m| m.len())
}

/// Opens, checks that it is a sound SQLite file (its header and schema always; every page for
/// [`DamageCheck::Whole`]), and brings its schema up to date.
fn open_checked(path: &Path, check: DamageCheck) -> rusqlite::Result<Connection> {
    let connection = Connection::open(path)?;
    connection.busy_timeout(BUSY_TIMEOUT)?;
    if check == DamageCheck::Whole {
        let verdict: String = connection.query_row("PRAGMA quick_check", [], |row| row.get(0))?;
        if verdict != "ok" {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
                Some(verdict),
            ));
        }
    }
    // Reads the header and the schema: a file that is not a database fails here whichever the check.
    connection.pragma_update(None, "journal_mode", "WAL")?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    migrate(&connection)?;
    Ok(connection)
}

/// Steps the schema from the file's `user_version` to [`SCHEMA_VERSION`]; a newer file is left alone.
fn migrate(connection: &Connection) -> rusqlite::Result<()> {
    let version: i32 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version < 1 {
        // AUTOINCREMENT: ids never come back after a prune or clear, so a UI holding an old id cannot get another
        // call, and pruning by id range stays exact. `haystack` is the lower-cased search text (SQLite's own
        // lower() knows only ASCII).
        connection.execute_batch(
            "BEGIN;
             CREATE TABLE IF NOT EXISTS calls (
                 id INTEGER PRIMARY KEY AUTOINCREMENT,
                 server TEXT NOT NULL,
                 tool TEXT NOT NULL,
                 arguments TEXT NOT NULL,
                 haystack TEXT NOT NULL,
                 started_at_ms REAL NOT NULL,
                 duration_ms INTEGER NOT NULL,
                 status TEXT NOT NULL,
                 result TEXT,
                 truncated INTEGER NOT NULL DEFAULT 0
             );
             PRAGMA user_version = 1;
             COMMIT;",
        )?;
    }
    if version < 2 {
        // Who made the call: NULL for Plugboard's own console and CLI, else the MCP client (its clientInfo name)
        // that called through the gateway.
        connection.execute_batch(
            "BEGIN;
             ALTER TABLE calls ADD COLUMN origin TEXT;
             PRAGMA user_version = 2;
             COMMIT;",
        )?;
    }
    const { assert!(SCHEMA_VERSION == 2, "add the next migration step above") };
    Ok(())
}

fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt))
}

/// Renames the damaged file (and its WAL side files) to `history.sqlite3.damaged-<unix seconds>`.
fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let aside = PathBuf::from(format!("{}.damaged-{stamp}", path.display()));
    std::fs::rename(path, &aside)?;
    for side in ["-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{side}", path.display()));
        if file.exists() {
            std::fs::rename(&file, format!("{}{side}", aside.display()))?;
        }
    }
    Ok(aside)
}

/// The entry `call` (its `outcome` taken out and capped) makes as row `id`.
/// Writes one row in `connection`'s open transaction; its id. The statement is prepared once per connection.
fn insert_row(connection: &Connection, call: &NewCall, outcome: &CallOutcome) -> Result<u32, HistoryError> {
    let (result, truncated) = match outcome {
        CallOutcome::Result { result, truncated, .. } => (Some(result.as_str()), *truncated),
        CallOutcome::Failed { message } => (Some(message.as_str()), false),
        CallOutcome::Cancelled => (None, false),
    };
    let haystack = haystack(&call.server, &call.tool, &call.arguments, call.origin.as_deref());
    let mut insert = connection.prepare_cached(
        "INSERT INTO calls
             (server, tool, arguments, haystack, started_at_ms, duration_ms, status, result, truncated, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    insert.execute(params![
        call.server,
        call.tool,
        call.arguments,
        haystack,
        call.started_at_ms,
        call.duration_ms,
        outcome.status().as_str(),
        result,
        truncated,
        call.origin
    ])?;
    Ok(u32::try_from(connection.last_insert_rowid()).unwrap_or(u32::MAX))
}

/// Deletes what is past `max_rows` once row `newest` is in. Ids only grow and only the oldest (or all) rows are ever
/// deleted, so the newest `max_rows` are exactly those above `newest - max_rows`: one indexed range delete, no
/// counting.
fn prune(connection: &Connection, newest: u32, max_rows: u32) -> Result<(), HistoryError> {
    let mut delete = connection.prepare_cached("DELETE FROM calls WHERE id <= ?1")?;
    delete.execute([i64::from(newest) - i64::from(max_rows)])?;
    Ok(())
}

fn entry_of(call: NewCall, outcome: CallOutcome, id: u32, unrecorded: Option<String>) -> HistoryEntry {
    let cli_command = cli_command(&call.server, &call.tool, &call.arguments);
    HistoryEntry {
        id,
        server: call.server,
        tool: call.tool,
        arguments: call.arguments,
        started_at_ms: call.started_at_ms,
        duration_ms: call.duration_ms,
        outcome,
        cli_command,
        origin: call.origin,
        unrecorded,
    }
}

fn haystack(server: &str, tool: &str, arguments: &str, origin: Option<&str>) -> String {
    format!("{server}\n{tool}\n{arguments}\n{}", origin.unwrap_or_default()).to_lowercase()
}

/// Cuts a text outcome at [`RESULT_CAP`] bytes (on a character boundary).
fn cap(outcome: CallOutcome) -> CallOutcome {
    match outcome {
        CallOutcome::Result { is_error, mut result, truncated } if result.len() > RESULT_CAP => {
            result.truncate(floor_char_boundary(&result, RESULT_CAP));
            let _ = truncated;
            CallOutcome::Result { is_error, result, truncated: true }
        }
        CallOutcome::Failed { mut message } if message.len() > RESULT_CAP => {
            message.truncate(floor_char_boundary(&message, RESULT_CAP));
            CallOutcome::Failed { message }
        }
        other => other,
    }
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
