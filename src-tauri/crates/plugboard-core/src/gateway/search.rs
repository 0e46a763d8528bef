//! Search mode's index: the catalog's tools (gateway names, titles, descriptions, parameter names and
//! descriptions) in an SQLite FTS5 table in memory, rebuilt whenever the catalog changes, ranked by bm25. It must
//! never hold a tool the catalog does not offer, and never pass a client's text to FTS5 as query syntax.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::Tool;
use rusqlite::Connection;

use super::catalog::Catalog;

/// The most words of a query that are searched for (a client pasting a paragraph gets an answer, not a stall).
const MAX_QUERY_WORDS: usize = 32;

/// One tool found: its gateway name and the first line of its description.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Found {
    pub name: String,
    pub description: String,
}

/// Why the index could not be built or asked (SQLite itself failed: nothing a client's text can cause).
#[derive(Debug, thiserror::Error)]
#[error("the tool search index failed: {0}")]
pub struct SearchError(#[from] rusqlite::Error);

/// The full-text index of one catalog's tools.
pub struct ToolIndex {
    db: Mutex<Connection>,
    /// By rowid - 1: what a match answers.
    found: Vec<Found>,
}

impl ToolIndex {
    pub fn build(tools: &[Tool]) -> Result<Self, SearchError> {
        let db = Connection::open_in_memory()?;
        // porter: "creates" finds "create"; unicode61 splits `mcp__files__read_file` at the underscores.
        db.execute_batch(
            "CREATE VIRTUAL TABLE tools USING fts5(name, words, description, parameters, \
             tokenize = 'porter unicode61 remove_diacritics 2');",
        )?;
        let mut found = Vec::with_capacity(tools.len());
        {
            let mut insert = db.prepare(
                "INSERT INTO tools (rowid, name, words, description, parameters) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (row, tool) in (1_i64..).zip(tools) {
                let description = tool.description.as_deref().unwrap_or_default();
                let title = tool.title.as_deref().unwrap_or_default();
                let words = format!("{} {title}", split_camel_case(&tool.name));
                insert.execute((row, tool.name.as_ref(), words, description, parameters(tool)))?;
                found.push(Found { name: tool.name.to_string(), description: first_line(description) });
            }
        }
        Ok(Self { db: Mutex::new(db), found })
    }

    /// The best `limit` matches of `query`'s words, best first: the tools that match every word, then those that
    /// match some, each by bm25. A query without words lists the tools in order.
    pub fn find(&self, query: &str, limit: usize) -> Result<Vec<Found>, SearchError> {
        let words = query_words(query);
        if words.is_empty() {
            return Ok(self.found.iter().take(limit).cloned().collect());
        }
        let db = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        // The name counts most, then its words and title, then the description, then the parameters.
        let mut select = db.prepare_cached(
            "SELECT rowid FROM tools WHERE tools MATCH ?1 ORDER BY bm25(tools, 10.0, 5.0, 2.0, 1.0), rowid LIMIT ?2",
        )?;
        let wanted = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut rows: Vec<i64> = Vec::new();
        // bm25 alone lets one rare word outweigh several common ones (a catalog is small: a word in half its tools
        // weighs almost nothing), so the tools matching every word come first.
        for expression in [words.join(" AND "), words.join(" OR ")] {
            for row in select.query_map((expression, wanted), |row| row.get::<_, i64>(0))? {
                let row = row?;
                if !rows.contains(&row) {
                    rows.push(row);
                }
            }
        }
        let found = rows.into_iter().filter_map(|row| usize::try_from(row - 1).ok().and_then(|i| self.found.get(i)));
        Ok(found.take(limit).cloned().collect())
    }
}

/// A client's text as FTS5 terms, each word quoted (so `"`, `*`, `:`, `-`, `NEAR`, `AND` are only text) and a
/// prefix.
fn query_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(MAX_QUERY_WORDS)
        // Words hold letters and digits only, so no quote can end the quoted string early.
        .map(|w| format!("\"{}\"*", w.to_lowercase()))
        .collect()
}

/// `getWeatherForecast` → `get Weather Forecast`, so a camel-cased name is found by its words.
fn split_camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && previous_lower {
            out.push(' ');
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        out.push(c);
    }
    out
}

/// The parameters' names and descriptions (the top level of the input schema), one text.
fn parameters(tool: &Tool) -> String {
    let Some(serde_json::Value::Object(properties)) = tool.input_schema.get("properties") else {
        return String::new();
    };
    let each = properties.iter().map(|(name, schema)| {
        let description = schema.get("description").and_then(serde_json::Value::as_str).unwrap_or_default();
        format!("{} {description}", split_camel_case(name))
    });
    each.collect::<Vec<_>>().join("\n")
}

fn first_line(text: &str) -> String {
    const LONGEST: usize = 200;
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
    match line.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

/// The index of the catalog clients see now, rebuilt the first time it is asked after the catalog changed.
#[derive(Default)]
pub struct ToolSearch {
    built: Mutex<Option<(Arc<Catalog>, Arc<ToolIndex>)>>,
}

impl ToolSearch {
    pub fn index(&self, catalog: &Arc<Catalog>) -> Result<Arc<ToolIndex>, SearchError> {
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((from, index)) = &*built
            && Arc::ptr_eq(from, catalog)
        {
            return Ok(Arc::clone(index));
        }
        let index = Arc::new(ToolIndex::build(catalog.tools())?);
        *built = Some((Arc::clone(catalog), Arc::clone(&index)));
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, description: &str, parameters: &serde_json::Value) -> Tool {
        let mut tool = Tool::default();
        tool.name = name.to_owned().into();
        tool.description = Some(description.to_owned().into());
        let schema = serde_json::json!({"type": "object", "properties": parameters});
        tool.input_schema = Arc::new(schema.as_object().cloned().unwrap_or_default());
        tool
    }

    fn index() -> ToolIndex {
        ToolIndex::build(&[
            tool(
                "mcp__files__read_file",
                "Read the complete contents of a file.\nMore detail.",
                &serde_json::json!({
                    "path": {"type": "string", "description": "Where the file is"}
                }),
            ),
            tool(
                "mcp__gh__create_issue",
                "Opens an issue in a repository",
                &serde_json::json!({
                    "title": {"type": "string"}, "body": {"type": "string", "description": "Markdown text of the issue"}
                }),
            ),
            tool(
                "mcp__weather__getForecast",
                "Tomorrow's weather for a city",
                &serde_json::json!({
                    "cityName": {"type": "string"}
                }),
            ),
            tool("mcp__files__open_file", "Opens a file for reading", &serde_json::json!({})),
            tool(
                "mcp__alerts__subscribe",
                "Subscribes to severe weather alerts for a region and files an issue in the tracker each time a new \
                 alert is published by the national service",
                &serde_json::json!({"region": {"type": "string", "description": "The area to watch"}}),
            ),
            tool(
                "mcp__notes__write",
                "Writes a note",
                &serde_json::json!({
                    "ref": {"type": "string", "description": "The issue the note belongs to"}
                }),
            ),
        ])
        .expect("index")
    }

    fn names(found: &[Found]) -> Vec<&str> {
        found.iter().map(|f| f.name.as_str()).collect()
    }

    /// A word of the name ranks its tool above one that has the word only in its description or a parameter; a word of
    /// the description, a stem, a camel-cased part and a parameter name each find their tool.
    #[test]
    fn finds_and_ranks() {
        let index = index();
        let read = index.find("read", 10).expect("find");
        assert_eq!(names(&read), ["mcp__files__read_file", "mcp__files__open_file"], "the name first: {read:?}");
        let issue = index.find("issue", 10).expect("find");
        assert_eq!((names(&issue)[0], issue.len()), ("mcp__gh__create_issue", 3), "{issue:?}");
        assert_eq!(names(&index.find("repositories", 10).expect("stem")), ["mcp__gh__create_issue"]);
        assert_eq!(names(&index.find("forecast", 10).expect("camel")), ["mcp__weather__getForecast"]);
        assert_eq!(names(&index.find("city", 10).expect("parameter")), ["mcp__weather__getForecast"]);
        assert_eq!(names(&index.find("markdown", 10).expect("parameter text")), ["mcp__gh__create_issue"]);
        assert!(index.find("spaceship", 10).expect("nothing").is_empty());
        assert_eq!(index.find("", 2).expect("no words").len(), 2, "no words lists the tools");
        assert_eq!(read[0].description, "Read the complete contents of a file.", "one line of the description");
    }

    /// A tool matching every word of the query ranks above one matching fewer of them more strongly (bm25 alone
    /// puts the short weather forecast first), and `limit` cuts the answer.
    #[test]
    fn every_word_matching_ranks_first_and_limit_cuts() {
        let index = index();
        let found = index.find("weather issue", 10).expect("find");
        assert_eq!(names(&found)[..2], ["mcp__alerts__subscribe", "mcp__weather__getForecast"], "{found:?}");
        assert_eq!(found.len(), 4, "tools matching some of the words follow: {found:?}");
        assert_eq!(index.find("a the of issue weather", 1).expect("find").len(), 1);
    }

    /// FTS5 syntax in a client's text is only text: quotes, stars, column filters, NEAR and operators neither fail
    /// nor change which tools match.
    #[test]
    fn query_syntax_in_the_text_is_escaped() {
        let index = index();
        let sorted = |found: &[Found]| {
            let mut names = names(found);
            names.sort_unstable();
            names.join(" ")
        };
        let issue = sorted(&index.find("issue", 10).expect("find"));
        for query in [
            "\"",
            "*",
            "\"issue",
            "issue\"*",
            "title:issue",
            "NEAR(issue",
            "issue AND",
            "-issue",
            "^issue",
            "(issue",
            "'",
        ] {
            let found = index.find(query, 10).unwrap_or_else(|e| panic!("{query:?}: {e}"));
            if query.contains("issue") {
                assert_eq!(sorted(&found), issue, "{query:?}");
            } else {
                assert_eq!(found.len(), 6, "a text without words lists the tools: {query:?}");
            }
        }
    }

    /// Only the catalog's tools are in the index: a tool the profile hides cannot be found, and a new catalog
    /// gets a new index.
    #[test]
    fn hidden_tools_are_not_found() {
        use crate::config::model::ToolFilter;
        use crate::config::{Profile, ProfileMode};
        use crate::supervisor::CuratedServer;
        let curated = vec![CuratedServer {
            name: "gh".into(),
            read_only: false,
            tools: vec![
                tool("create_issue", "Opens an issue", &serde_json::json!({})),
                tool("delete_repo", "Deletes a repository", &serde_json::json!({})),
            ],
        }];
        let servers = [("gh".to_owned(), ToolFilter::Only(vec!["create_issue".into()]))].into_iter().collect();
        let profile = Profile { name: "p".into(), servers, mode: ProfileMode::Search };
        let search = ToolSearch::default();
        let narrowed = Arc::new(Catalog::build(&curated, Some(&profile)));
        let index = search.index(&narrowed).expect("index");
        assert!(index.find("delete repository", 10).expect("find").is_empty());
        assert_eq!(names(&index.find("", 10).expect("all")), ["mcp__gh__create_issue"]);
        let everything = Arc::new(Catalog::build(&curated, None));
        assert_eq!(search.index(&everything).expect("rebuilt").find("delete", 10).expect("find").len(), 1);
        assert!(Arc::ptr_eq(&search.index(&everything).expect("kept"), &search.index(&everything).expect("kept")));
    }
}
