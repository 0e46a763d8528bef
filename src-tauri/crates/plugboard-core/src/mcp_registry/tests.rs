//! The registry client against a loopback server serving recorded pages of the v0.1 list shape: pagination, a
//! deprecated entry, a malformed one and an unrunnable one skipped with their reasons, the offline copy, limits,
//! and adding an entry as a server that waits for approval.

use std::collections::BTreeMap;

use super::*;
use crate::config::ConfigStore;
use crate::testing::{LoopbackServer, Reply, memory_vault};

const PAGE_1: &str = include_str!("fixtures/page-1.json");
const PAGE_2: &str = include_str!("fixtures/page-2.json");

/// A registry serving page 1, then page 2 at the cursor page 1 names.
async fn recorded_registry() -> LoopbackServer {
    LoopbackServer::replying(|_method, path, _base| {
        let page = if path.contains("cursor=") { PAGE_2 } else { PAGE_1 };
        Reply { status: 200, headers: vec![("content-type".into(), "application/json".into())], body: page.into() }
    })
    .await
}

struct Setup {
    _dir: tempfile::TempDir,
    context: RegistryContext,
    registry: Registry,
}

/// A config, a cache and a registries file listing exactly `urls`.
fn setup(urls: &[&str]) -> Setup {
    let dir = tempfile::tempdir().expect("dir");
    let sources_path = dir.path().join("registries.json");
    let listed: Vec<RegistrySource> = urls
        .iter()
        .enumerate()
        .map(|(i, url)| RegistrySource { name: format!("test {i}"), url: (*url).to_owned() })
        .collect();
    std::fs::write(&sources_path, serde_json::json!({ "registries": listed }).to_string()).expect("write");
    let context = RegistryContext {
        sources_path,
        cache: Cache::new(dir.path().join("cache")),
        http: crate::net::pooled_http_client(),
    };
    let store = ConfigStore::open(dir.path().join("servers.json")).expect("config");
    Setup { context, registry: Registry::new(store, memory_vault()), _dir: dir }
}

fn names(results: &RegistryResults) -> Vec<&str> {
    results.listings.iter().map(|l| l.listing.preset.name.as_str()).collect()
}

/// The first page offers only the active, runnable entry; the deprecated, malformed and .NET-only ones are
/// skipped, each with its reason; the request asks for the latest versions matching the search.
#[tokio::test]
async fn a_page_offers_active_runnable_entries_and_says_what_it_skipped() {
    let server = recorded_registry().await;
    let s = setup(&[&server.base]);
    let results = search(&s.context, &s.registry, "weather", None, None).await.expect("search");
    let [results] = results.as_slice() else { panic!("one registry: {results:?}") };
    assert_eq!(names(results), ["io.github.example/weather"]);
    let listing = &results.listings[0];
    assert_eq!((listing.version.as_str(), listing.listing.suggested_name.as_str()), ("1.4.0", "weather"));
    let skipped: Vec<(&str, &str)> = results.skipped.iter().map(|s| (s.name.as_str(), s.reason.as_str())).collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    assert_eq!(skipped[0].0, "io.github.example/old-weather");
    assert!(skipped[0].1.contains("\"deprecated\""), "{skipped:?}");
    assert_eq!(skipped[1].0, "entry 3");
    assert!(skipped[1].1.contains("not a registry entry") || skipped[1].1.contains("malformed"), "{skipped:?}");
    assert_eq!(skipped[2].0, "io.github.example/dotnet-weather");
    assert!(skipped[2].1.contains("a nuget package over stdio"), "{skipped:?}");
    assert_eq!(results.next_cursor.as_deref(), Some("io.github.example/dotnet-weather:2.0.0"));
    assert_eq!((results.cached_at, results.problem.as_deref()), (None, None));
    let asked = &server.requests()[0].path;
    assert_eq!(asked, "/v0.1/servers?search=weather&version=latest&limit=30");
}

/// "More" fetches the page at the cursor from that registry only, and the last page has no cursor.
#[tokio::test]
async fn the_cursor_fetches_the_next_page() {
    let server = recorded_registry().await;
    let other = recorded_registry().await;
    let s = setup(&[&server.base, &other.base]);
    let results =
        search(&s.context, &s.registry, "weather", Some(&server.base), Some("io.github.example/dotnet-weather:2.0.0"))
            .await
            .expect("search");
    let [results] = results.as_slice() else { panic!("only the asked registry: {results:?}") };
    assert_eq!(names(results), ["com.example/weather-remote"]);
    assert_eq!(results.next_cursor, None);
    assert!(server.requests()[0].path.ends_with("&cursor=io.github.example%2Fdotnet-weather%3A2.0.0"));
    assert!(other.requests().is_empty(), "the other registry was not asked");
}

/// Offline, a search answers from the copy kept by the last one, saying when it was fetched and why it is shown.
#[tokio::test]
async fn offline_answers_from_the_cache() {
    let server = recorded_registry().await;
    let s = setup(&[&server.base]);
    search(&s.context, &s.registry, "weather", None, None).await.expect("online");
    drop(server);
    let results = search(&s.context, &s.registry, "weather", None, None).await.expect("offline");
    assert_eq!(names(&results[0]), ["io.github.example/weather"]);
    assert!(results[0].cached_at.is_some_and(|at| at > 1_700_000_000), "{:?}", results[0].cached_at);
    assert!(
        results[0].problem.as_deref().is_some_and(|p| p.contains("cannot be searched")),
        "{:?}",
        results[0].problem
    );
    // A search never made has nothing to fall back on: it says why, and offers nothing.
    let never = search(&s.context, &s.registry, "other words", None, None).await.expect("offline");
    assert!(never[0].listings.is_empty() && never[0].cached_at.is_none() && never[0].problem.is_some());
}

/// An oversized answer is cut off with the reason; a non-list answer is malformed: nothing offered either way.
#[tokio::test]
async fn oversized_and_malformed_answers_are_refused() {
    let huge = LoopbackServer::replying(|_, _, _| Reply {
        status: 200,
        headers: Vec::new(),
        body: format!(r#"{{"servers":[],"pad":"{}"}}"#, "x".repeat(MAX_PAGE_BYTES)),
    })
    .await;
    let not_a_list = LoopbackServer::replying(|_, _, _| Reply::json(serde_json::json!({"servers": "no"}))).await;
    let failing = LoopbackServer::replying(|_, _, _| Reply::status(503)).await;
    let s = setup(&[&huge.base, &not_a_list.base, &failing.base]);
    let results = search(&s.context, &s.registry, "", None, None).await.expect("search");
    let problems: Vec<&str> = results.iter().map(|r| r.problem.as_deref().unwrap_or_default()).collect();
    assert!(problems[0].contains("larger than 4 MiB"), "{problems:?}");
    assert!(problems[1].contains("not a list of servers"), "{problems:?}");
    assert!(problems[2].contains("HTTP 503"), "{problems:?}");
    assert!(results.iter().all(|r| r.listings.is_empty()));
}

/// An offered entry is added from what the search kept (no second request): its secret goes to the vault, the entry
/// runs the pinned package, and it waits for the person's approval; an entry no search offered is refused.
#[tokio::test]
async fn an_entry_is_added_like_a_preset() {
    let server = recorded_registry().await;
    let s = setup(&[&server.base]);
    search(&s.context, &s.registry, "weather", None, None).await.expect("search");
    let target =
        EntryRef { registry: server.base.clone(), name: "io.github.example/weather".into(), version: "1.4.0".into() };
    let inputs: BTreeMap<String, String> = [("WEATHER_API_KEY".to_owned(), "wk_live_123".to_owned())].into();
    let preview = preview(&s.context, &target, &inputs).expect("preview");
    assert_eq!(preview.target, "npx -y @example/weather-mcp@1.4.0");
    let added = add(&s.context, &s.registry, &target, "weather", &inputs).expect("add");
    assert_eq!(added, "weather");
    let entry = s.registry.get("weather").expect("entry");
    assert_eq!(entry.args.as_deref(), Some(&["-y".to_owned(), "@example/weather-mcp@1.4.0".to_owned()][..]));
    assert_eq!(entry.env.expect("env")["WEATHER_API_KEY"], "${secret:WEATHER_API_KEY}");
    assert_eq!(
        s.registry.vault().get("weather", "WEATHER_API_KEY").expect("vault").map(|v| v.expose().clone()),
        Some("wk_live_123".to_owned())
    );
    assert_eq!(server.requests().len(), 1, "adding asked the registry nothing");
    let approvals = crate::trust::Approvals::at(s._dir.path().join("trust.json"));
    let config = s.registry.store().snapshot();
    let config = crate::config::validate_server("weather", config.servers.get("weather").expect("raw")).expect("valid");
    assert!(matches!(crate::trust::gate(&approvals, &config), Err(crate::trust::Unapproved::Pending { .. })));

    let unknown = EntryRef { version: "9.9.9".into(), ..target };
    assert!(matches!(add(&s.context, &s.registry, &unknown, "w2", &inputs), Err(RegistryError::UnknownEntry { .. })));
}

/// The registries file: the official registry by default (an added one joins it); https only (http on loopback);
/// several kept in order; removing an unknown one is an error that changes nothing.
#[test]
fn registry_sources() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("registries.json");
    assert_eq!(load_sources(&path).expect("default")[0].url, OFFICIAL_REGISTRY);
    for bad in
        ["http://registry.example.com", "ftp://x.example", "https://x.example/?q=1", "https://u:p@x.example", "nope"]
    {
        assert!(add_source(&path, "", bad).is_err(), "{bad}");
    }
    assert!(!path.exists(), "a refused URL wrote nothing");
    add_source(&path, "Ours", "https://mcp.internal.example/").expect("add");
    let both = add_source(&path, "", "http://127.0.0.1:9000").expect("add");
    let urls: Vec<&str> = both.iter().map(|s| s.url.as_str()).collect();
    assert_eq!(urls, [OFFICIAL_REGISTRY, "https://mcp.internal.example", "http://127.0.0.1:9000"]);
    assert!(remove_source(&path, "https://nowhere.example").is_err());
    let left = remove_source(&path, "https://mcp.internal.example/").expect("remove");
    assert_eq!(left.len(), 2);
}

/// The page parser accepts the older `next_cursor` spelling and treats an entry without registry metadata (a
/// minimal registry) as active.
#[test]
fn page_parser_leniency() {
    let text = r#"{"servers":[{"server":{"name":"a.b/c","description":"d","version":"1",
        "remotes":[{"type":"sse","url":"https://c.example/sse"}]}}],"metadata":{"next_cursor":"n"}}"#;
    let page = parse_page(text).expect("page");
    assert_eq!((page.entries.len(), page.next_cursor.as_deref()), (1, Some("n")));
    assert!(parse_page("[]").is_err());
}
