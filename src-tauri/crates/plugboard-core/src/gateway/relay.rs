//! The gateway's resources, prompts and completions: gathered from every ready, enabled server at the client's
//! request (one server's trouble leaves the others' in the answer), with URIs mapped (uris.rs) and prompt names
//! namespaced like tools (`mcp__<server>__<prompt>`), and each read, get or completion routed back to the server
//! that offered it. Only the servers the client's catalog shows (its profile's) are asked. It must never route a
//! request to a server other than the one whose name or URI it carries, nor to one the client's profile leaves out.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, Prompt, ReadResourceRequestParams,
    ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate,
};

use super::catalog::Route;
use super::publish::CatalogFeed;
use super::uris::{from_gateway, to_gateway};
use crate::engine::Engine;
use crate::supervisor::{SupervisorError, expose};

/// Resources, prompts and completions across the engine's ready servers; cheap to clone.
#[derive(Clone)]
pub struct Relay {
    engine: Arc<Engine>,
    /// Which servers the client sees.
    catalog: CatalogFeed,
    /// Gateway prompt name → its server and own name, as of the last `prompts/list`.
    prompts: Arc<Mutex<HashMap<String, Route>>>,
}

impl Relay {
    pub fn new(engine: Arc<Engine>, catalog: CatalogFeed) -> Self {
        Self { engine, catalog, prompts: Arc::default() }
    }

    /// `server` of a gateway URI, when the client may reach it.
    fn shown<'a>(&self, server: &'a str, uri: &str) -> Result<&'a str, ErrorData> {
        if self.catalog.current().shows_server(server) { Ok(server) } else { Err(unknown("resource URI", uri)) }
    }

    pub async fn resources(&self) -> Vec<Resource> {
        let listed = self.ask_each(|server| async move {
            let supervisor = self.engine.supervisor();
            let resources = supervisor.relay_resources(&server).await?;
            let mapped = resources.into_iter().map(|mut r| {
                r.uri = to_gateway(&server, &r.uri);
                r
            });
            Ok(mapped.collect())
        });
        listed.await.into_iter().flatten().collect()
    }

    pub async fn resource_templates(&self) -> Vec<ResourceTemplate> {
        let listed = self.ask_each(|server| async move {
            let templates = self.engine.supervisor().relay_resource_templates(&server).await?;
            let mapped = templates.into_iter().map(|mut t| {
                t.uri_template = to_gateway(&server, &t.uri_template);
                t
            });
            Ok(mapped.collect())
        });
        listed.await.into_iter().flatten().collect()
    }

    /// Reads a gateway URI from the server it names; the contents carry gateway URIs too.
    pub async fn read_resource(&self, mut params: ReadResourceRequestParams) -> Result<ReadResourceResult, ErrorData> {
        let gateway_uri = params.uri.clone();
        let (server, own) = from_gateway(&gateway_uri).ok_or_else(|| unknown("resource URI", &gateway_uri))?;
        let server = self.shown(server, &gateway_uri)?;
        params.uri = own.to_owned();
        let mut read = self.engine.supervisor().relay_read_resource(server, params).await.map_err(|e| upstream(&e))?;
        for content in &mut read.contents {
            if let ResourceContents::TextResourceContents { uri, .. }
            | ResourceContents::BlobResourceContents { uri, .. } = content
            {
                *uri = to_gateway(server, uri);
            }
        }
        Ok(read)
    }

    /// Every server's prompts under gateway-wide unique names (remembered for `prompts/get`).
    pub async fn prompts(&self) -> Vec<Prompt> {
        let listed = self.ask_each(|server| async move {
            let prompts = self.engine.supervisor().relay_prompts(&server).await?;
            Ok(prompts.into_iter().map(|p| (server.clone(), p)).collect())
        });
        let listed: Vec<(String, Prompt)> = listed.await.into_iter().flatten().collect();
        let names = expose(&listed.iter().map(|(server, p)| (server.clone(), p.name.clone())).collect::<Vec<_>>());
        let mut routes = HashMap::new();
        let mut prompts = Vec::new();
        for (name, (_, prompt)) in names.into_iter().zip(listed) {
            routes.insert(name.exposed.clone(), Route { server: name.server, tool: name.tool });
            let mut prompt = prompt;
            prompt.name = name.exposed;
            prompts.push(prompt);
        }
        *self.prompts.lock().unwrap_or_else(PoisonError::into_inner) = routes;
        prompts
    }

    /// Gets a prompt by its gateway name from the server that offers it.
    pub async fn get_prompt(&self, mut params: GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
        let route = self.prompt_route(&params.name).await?;
        params.name = route.tool.clone();
        self.engine.supervisor().relay_get_prompt(&route.server, params).await.map_err(|e| upstream(&e))
    }

    /// Completes an argument of a gateway prompt or resource template at the server behind it.
    pub async fn complete(&self, mut params: CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
        let server = match &mut params.r#ref {
            Reference::Prompt(prompt) => {
                let route = self.prompt_route(&prompt.name).await?;
                prompt.name = route.tool;
                route.server
            }
            Reference::Resource(resource) => {
                let (server, own) =
                    from_gateway(&resource.uri).ok_or_else(|| unknown("resource URI", &resource.uri))?;
                let server = self.shown(server, &resource.uri)?.to_owned();
                resource.uri = own.to_owned();
                server
            }
            // A kind of reference newer than this gateway: it cannot know where it goes.
            _ => return Err(unknown("completion reference", "")),
        };
        self.engine.supervisor().relay_complete(&server, params).await.map_err(|e| upstream(&e))
    }

    /// The route of a gateway prompt name, listing the prompts again when it is not known yet (a client may get a
    /// prompt it listed in an earlier session).
    async fn prompt_route(&self, name: &str) -> Result<Route, ErrorData> {
        let known = |relay: &Self| relay.prompts.lock().unwrap_or_else(PoisonError::into_inner).get(name).cloned();
        if let Some(route) = known(self) {
            return Ok(route);
        }
        self.prompts().await;
        known(self).ok_or_else(|| unknown("prompt", name))
    }

    /// Asks every ready, enabled server at once; a server that fails is left out (and said in the log).
    async fn ask_each<'a, T, F, Fut>(&'a self, ask: F) -> Vec<Vec<T>>
    where
        F: Fn(String) -> Fut,
        Fut: Future<Output = Result<Vec<T>, SupervisorError>> + 'a,
    {
        let servers = self.catalog.current().servers().to_vec().into_iter();
        let answers = futures::future::join_all(servers.map(|server| {
            let asked = ask(server.clone());
            async move { (server, asked.await) }
        }));
        answers
            .await
            .into_iter()
            .filter_map(|(server, answer)| {
                answer.inspect_err(|e| tracing::warn!(server, "left out of the gateway's answer: {e}")).ok()
            })
            .collect()
    }
}

fn unknown(what: &str, name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Plugboard offers no {what} {name:?}; list them again"), None)
}

fn upstream(error: &SupervisorError) -> ErrorData {
    ErrorData::internal_error(format!("Plugboard could not get it from the server: {error}"), None)
}
