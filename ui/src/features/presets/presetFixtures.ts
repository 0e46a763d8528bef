// Test fixtures of the preset catalog, in the shape the generated bindings promise.
import type { PresetListing } from "../../ipc/bindings";

/** An npm preset with one required folder input, not yet added. */
export const FILESYSTEM: PresetListing = {
  preset: {
    name: "io.github.modelcontextprotocol/filesystem",
    title: "Filesystem",
    description: "Read and write files\u202e in one folder.",
    version: "2026.8.31",
    websiteUrl: null,
    repositoryUrl: "https://github.com/modelcontextprotocol/servers",
    launch: {
      kind: "package",
      registry: "npm",
      identifier: "@modelcontextprotocol/server-filesystem",
      version: "2026.8.31",
      runtimeArgs: [],
      args: [["{allowed_folder}"]],
      env: [],
    },
    inputs: [
      {
        key: "allowed_folder",
        description: "The folder it may use.",
        required: true,
        secret: false,
        default: null,
        path: "folder",
        placeholder: null,
        choices: [],
      },
    ],
    authNote: null,
    sources: ["https://github.com/modelcontextprotocol/servers/tree/main/src/filesystem"],
  },
  addedAs: [],
  suggestedName: "filesystem",
};

/** A remote preset with an optional secret header input, already added as "github". */
export const GITHUB: PresetListing = {
  preset: {
    name: "io.github.github/github-mcp-server",
    title: "GitHub",
    description: "<img src=x onerror=alert(1)> GitHub's hosted server.",
    version: "1.0.0",
    websiteUrl: "https://github.com/github/github-mcp-server",
    repositoryUrl: null,
    launch: {
      kind: "remote",
      transport: "streamable-http",
      url: "https://api.githubcopilot.com/mcp/",
      headers: [{ name: "Authorization", template: "Bearer {github_token}" }],
      oauth: { clientIdInput: "oauth_client_id", clientSecretInput: "oauth_client_secret", scopes: null },
    },
    inputs: [
      {
        key: "github_token",
        description: "A personal access token.",
        required: false,
        secret: true,
        default: null,
        path: null,
        placeholder: null,
        choices: [],
      },
      {
        key: "oauth_client_id",
        description: "The client id of your own GitHub OAuth app.",
        required: false,
        secret: false,
        default: null,
        path: null,
        placeholder: null,
        choices: [],
      },
      {
        key: "oauth_client_secret",
        description: "The client secret of that GitHub OAuth app.",
        required: false,
        secret: true,
        default: null,
        path: null,
        placeholder: null,
        choices: [],
      },
    ],
    authNote: "GitHub does not let a new app register itself for OAuth, so one-click login cannot work for Plugboard.",
    sources: ["https://github.com/github/github-mcp-server/blob/main/docs/remote-server.md"],
  },
  addedAs: ["github"],
  suggestedName: "github-2",
};
