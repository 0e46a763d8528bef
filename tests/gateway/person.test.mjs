// What servers ask of a person, through `plugboard serve --stdio`: a client that declared elicitation and sampling
// gets the upstream server's requests and its answers reach the server; a client that declared neither is never
// asked, and the server hears a decline. The official TypeScript SDK client against server-everything.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

import { everythingServer, writeConfig } from "../support/system.mjs";
import { connectGateway, firstText } from "./client.mjs";

const TOOLS = ["trigger-elicitation-request", "trigger-sampling-request"];

describe("servers' requests for a person go to the gateway's client", () => {
  before(() => {
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: TOOLS } } });
  });

  describe("a client that takes them", () => {
    let gateway;
    const asked = [];
    before(async () => {
      gateway = await connectGateway({
        name: "answering-client",
        capabilities: { elicitation: { form: {} }, sampling: {} },
        requestHandlers: [
          [
            ElicitRequestSchema,
            (request) => {
              asked.push(request.params.message);
              return { action: "accept", content: { name: "Ada Lovelace" } };
            },
          ],
          [
            CreateMessageRequestSchema,
            () => ({ role: "assistant", content: { type: "text", text: "a reply from the client's model" }, model: "test-model" }),
          ],
        ],
      });
    });
    after(async () => {
      await gateway?.client.close();
    });

    test("answers a server's form, and the server gets the answer", async () => {
      const result = await gateway.client.callTool({ name: "mcp__everything__trigger-elicitation-request", arguments: {} });
      assert.equal(asked.length, 1, "the client was asked once");
      assert.match(JSON.stringify(result.content), /Ada Lovelace/);
    });

    test("answers a server's sampling request with its model", async () => {
      const result = await gateway.client.callTool({
        name: "mcp__everything__trigger-sampling-request",
        arguments: { prompt: "hello", maxTokens: 10 },
      });
      assert.match(JSON.stringify(result.content), /a reply from the client's model/);
    });
  });

  describe("a client that declared neither", () => {
    let gateway;
    before(async () => {
      gateway = await connectGateway({ name: "plain-client" });
    });
    after(async () => {
      await gateway?.client.close();
    });

    test("is never asked, and the server hears a decline", async () => {
      const result = await gateway.client.callTool({ name: "mcp__everything__trigger-elicitation-request", arguments: {} });
      assert.match(firstText(result), /declined/i);
    });
  });
});
