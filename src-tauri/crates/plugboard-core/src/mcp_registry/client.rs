//! The requests to a registry: `GET {base}/v0.1/servers?search=…&version=latest&limit=…[&cursor=…]`, answered
//! within a time limit and a size limit (a registry is a stranger on the network: a huge or endless answer is cut
//! off and reported). It never follows a redirect nor sends a credential.

use std::time::Duration;

use super::RegistryError;

/// The most a page may weigh.
pub const MAX_PAGE_BYTES: usize = 4 * 1024 * 1024;
/// How long one page may take.
const PAGE_TIMEOUT: Duration = Duration::from_secs(20);
/// Entries asked for per page.
pub const PAGE_SIZE: u32 = 30;

/// The list URL for one page.
pub fn page_url(base: &str, search: &str, cursor: Option<&str>) -> Result<url::Url, RegistryError> {
    let mut url = url::Url::parse(&format!("{base}/v0.1/servers"))
        .map_err(|e| RegistryError::Sources(format!("{base:?} cannot be a registry: {e}")))?;
    {
        let mut query = url.query_pairs_mut();
        if !search.trim().is_empty() {
            query.append_pair("search", search.trim());
        }
        query.append_pair("version", "latest").append_pair("limit", &PAGE_SIZE.to_string());
        if let Some(cursor) = cursor {
            query.append_pair("cursor", cursor);
        }
    }
    Ok(url)
}

/// The text of one page.
pub async fn fetch_page(
    http: &reqwest::Client,
    base: &str,
    search: &str,
    cursor: Option<&str>,
) -> Result<String, RegistryError> {
    let url = page_url(base, search, cursor)?;
    let unreachable =
        |e: reqwest::Error| RegistryError::Unreachable { registry: base.to_owned(), reason: e.to_string() };
    let mut response = tokio::time::timeout(PAGE_TIMEOUT, http.get(url).header("accept", "application/json").send())
        .await
        .map_err(|_| RegistryError::Unreachable {
            registry: base.to_owned(),
            reason: "it did not answer in 20 s".into(),
        })?
        .map_err(unreachable)?;
    if !response.status().is_success() {
        return Err(RegistryError::Unreachable {
            registry: base.to_owned(),
            reason: format!("it answered HTTP {}", response.status()),
        });
    }
    let mut body = Vec::new();
    loop {
        let chunk = tokio::time::timeout(PAGE_TIMEOUT, response.chunk()).await.map_err(|_| {
            RegistryError::Unreachable { registry: base.to_owned(), reason: "its answer stalled".into() }
        })?;
        match chunk.map_err(unreachable)? {
            Some(bytes) if body.len() + bytes.len() > MAX_PAGE_BYTES => {
                return Err(RegistryError::Unreachable {
                    registry: base.to_owned(),
                    reason: format!("its answer is larger than {} MiB", MAX_PAGE_BYTES / (1024 * 1024)),
                });
            }
            Some(bytes) => body.extend_from_slice(&bytes),
            None => break,
        }
    }
    String::from_utf8(body).map_err(|_| RegistryError::Unreachable {
        registry: base.to_owned(),
        reason: "its answer is not UTF-8 text".into(),
    })
}
