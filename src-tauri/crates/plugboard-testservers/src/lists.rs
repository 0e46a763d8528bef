//! With `--list-changed`: resources and prompts that grow at run time (`add_resource`, `add_prompt`), each addition
//! announced with its `list_changed` notification, so a client (the gateway) can be checked to pass it on. It must
//! never announce a change it did not make.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Prompt, Resource};
use rmcp::{ErrorData, Peer, RoleServer, schemars, tool, tool_router};
use serde::Deserialize;

use crate::era::Change;
use crate::server::TestServer;

/// The resources' and prompts' names added so far (the lock is never held across an await).
#[derive(Clone, Default)]
pub struct Lists {
    resources: Arc<Mutex<Vec<String>>>,
    prompts: Arc<Mutex<Vec<String>>>,
}

impl Lists {
    /// `test://<name>` for every added resource.
    pub fn resources(&self) -> Vec<Resource> {
        let names = self.resources.lock().unwrap_or_else(PoisonError::into_inner).clone();
        names.into_iter().map(|name| Resource::new(format!("test://{name}"), name)).collect()
    }

    pub fn prompts(&self) -> Vec<Prompt> {
        let names = self.prompts.lock().unwrap_or_else(PoisonError::into_inner).clone();
        names.into_iter().map(|name| Prompt::new(name, Some("added at run time"), None)).collect()
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddNamedArgs {
    /// The new entry's name.
    name: String,
}

impl TestServer {
    /// Only routed with `--list-changed`, which sets the lists.
    fn lists(&self) -> Lists {
        self.lists.clone().unwrap_or_default()
    }
}

#[tool_router(router = lists_router, vis = "pub(crate)")]
impl TestServer {
    #[tool(description = "Adds a resource test://`name`, then sends notifications/resources/list_changed")]
    async fn add_resource(
        &self,
        Parameters(AddNamedArgs { name }): Parameters<AddNamedArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        self.lists().resources.lock().unwrap_or_else(PoisonError::into_inner).push(name.clone());
        self.announcer.announce(&peer, Change::Resources).await?;
        Ok(format!("added resource {name}"))
    }

    #[tool(description = "Adds a prompt `name`, then sends notifications/prompts/list_changed")]
    async fn add_prompt(
        &self,
        Parameters(AddNamedArgs { name }): Parameters<AddNamedArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        self.lists().prompts.lock().unwrap_or_else(PoisonError::into_inner).push(name.clone());
        self.announcer.announce(&peer, Change::Prompts).await?;
        Ok(format!("added prompt {name}"))
    }
}
