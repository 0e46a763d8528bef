// What servers ask of a person, through the gateway over both wires (`serve --stdio`, `serve --http`): a client that declared elicitation and sampling
// gets the upstream server's requests and its answers reach the server; a client that declared neither is never
// asked, and the server hears a decline; a page to open (URL mode) goes only to a client that declared URL mode. The
// official TypeScript SDK client against server-everything and Plugboard's test server (a 2026-07-28 one asks in rounds).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

import { everythingServer, testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, eventually, firstText, startHttpGateway } from "./client.mjs";

const TOOLS = ["trigger-elicitation-request", "trigger-sampling-request"];

for (const wire of ["stdio", "http"]) describe(`servers' requests for a person go to the gateway's client (${wire})`, () => {
  before(() => {
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: TOOLS } } });
  });

  describe("a client that takes them", () => {
    let gateway;
    const asked = [];
    before(async () => {
      gateway = await connectGateway({
        wire,
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
      await gateway?.close();
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
      gateway = await connectGateway({ wire, name: "plain-client" });
    });
    after(async () => {
      await gateway?.close();
    });

    test("is never asked, and the server hears a decline", async () => {
      const result = await gateway.client.callTool({ name: "mcp__everything__trigger-elicitation-request", arguments: {} });
      assert.match(firstText(result), /declined/i);
    });
  });
});

describe("with two clients on one serve --http, a server's form goes to the client whose call asked", () => {
  let endpoint;
  const clients = [];
  const asked = { first: 0, second: 0 };
  const answering = (who, name) => [
    ElicitRequestSchema,
    () => {
      asked[who] += 1;
      return { action: "accept", content: { name } };
    },
  ];
  before(async () => {
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: TOOLS } } });
    endpoint = await startHttpGateway();
    const capabilities = { elicitation: { form: {} } };
    clients.push(await connectGateway({ wire: "http", endpoint, name: "first", capabilities, requestHandlers: [answering("first", "Ada")] }));
    // The second connects last: without the routing by call it would be asked for the first one's call.
    clients.push(await connectGateway({ wire: "http", endpoint, name: "second", capabilities, requestHandlers: [answering("second", "Bob")] }));
  });
  after(async () => {
    for (const client of clients) await client.close();
    await endpoint?.stop();
  });

  test("the first client's call is answered by the first client only", async () => {
    const result = await clients[0].client.callTool({ name: "mcp__everything__trigger-elicitation-request", arguments: {} });
    assert.match(JSON.stringify(result.content), /Ada/);
    assert.deepEqual(asked, { first: 1, second: 0 });
  });
});

describe("a server's page to open goes only to a client that declared URL mode", () => {
  const link = "https://accounts.example.com/connect?state=gateway";
  const call = (gateway) =>
    gateway.client.callTool({ name: "mcp__linker__open_link", arguments: { url: link } });
  before(() => {
    writeConfig({ mcpServers: { linker: { command: testServer(), tools: ["open_link", "needs_page"] } } });
  });

  test("a client that takes pages is asked with the page's address, and the server hears its answer", async () => {
    const asked = [];
    const completed = () => gateway.received.filter((m) => m.method === "notifications/elicitation/complete");
    const gateway = await connectGateway({
      name: "url-client",
      capabilities: { elicitation: { form: {}, url: {} } },
      requestHandlers: [
        [
          ElicitRequestSchema,
          (request) => {
            asked.push(request.params);
            return { action: "accept" };
          },
        ],
      ],
    });
    try {
      assert.equal(firstText(await call(gateway)), "accept");
      assert.equal(asked.length, 1);
      assert.equal(asked[0].mode, "url");
      assert.equal(asked[0].url, link);
      // The server says the page was completed: the client that opened it hears so, with the same id.
      const done = await gateway.client.callTool({
        name: "mcp__linker__open_link",
        arguments: { url: link, complete_after_accept: true },
      });
      assert.equal(firstText(done), "accept");
      await eventually(() => completed().length === 1, "the completion reaching the client");
      assert.equal(completed()[0].params.elicitationId, asked[1].elicitationId);
      // A call the server refuses until a page is opened (-32042) reaches this client as that error, with the page.
      const refused = await gateway.client
        .callTool({ name: "mcp__linker__needs_page", arguments: { url: link } })
        .then(() => null, (error) => error);
      assert.equal(refused?.code, -32042, `the call failed with the page to open (got ${refused})`);
      const [page] = refused.data.elicitations;
      assert.deepEqual([page.mode, page.url, page.message], ["url", link, "Authorize access to your files first."]);
      assert.match(page.elicitationId, /^page-/);
    } finally {
      await gateway.close();
    }
  });

  test("a client that declared forms alone is never asked, and the server hears a decline", async () => {
    let asked = 0;
    const gateway = await connectGateway({
      name: "form-client",
      capabilities: { elicitation: { form: {} } },
      requestHandlers: [
        [
          ElicitRequestSchema,
          () => {
            asked += 1;
            return { action: "accept", content: {} };
          },
        ],
      ],
    });
    try {
      assert.equal(firstText(await call(gateway)), "decline");
      assert.equal(asked, 0);
      // Not even sent (the SDK would refuse it on the client's side, which would also read as a decline).
      const sent = gateway.received.filter((message) => message.method === "elicitation/create");
      assert.deepEqual(sent, [], "the gateway sent the client a request it never declared it takes");
      // A page the call needs is said in the result's text instead, for the person to open.
      const refused = await gateway.client.callTool({ name: "mcp__linker__needs_page", arguments: { url: link } });
      assert.equal(refused.isError, true);
      assert.match(firstText(refused), /open the page in their browser/);
      assert.ok(firstText(refused).includes(link), firstText(refused));
    } finally {
      await gateway.close();
    }
  });
});

describe("a 2026-07-28 server's questions before it answers reach the gateway's client in rounds", () => {
  before(() => {
    writeConfig({ mcpServers: { asker: { command: testServer(), args: ["--era", "modern"], tools: ["ask_person"] } } });
  });

  test("the client answers each form, and the tool's result and the resource's contents carry its answers", async () => {
    const asked = [];
    const gateway = await connectGateway({
      name: "answering-client",
      capabilities: { elicitation: { form: {} } },
      requestHandlers: [
        [
          ElicitRequestSchema,
          (request) => {
            asked.push(request.params.message);
            return { action: "accept", content: { name: `Ada ${asked.length}` } };
          },
        ],
      ],
    });
    try {
      const called = await gateway.client.callTool({ name: "mcp__asker__ask_person", arguments: { message: "Who calls?" } });
      assert.equal(firstText(called), 'accept {"name":"Ada 1"}');
      const read = await gateway.client.readResource({ uri: "plugboard://asker/ask://person" });
      assert.equal(read.contents[0].text, 'accept {"name":"Ada 2"}');
      assert.deepEqual(asked, ["Who calls?", "Who reads this?"]);
    } finally {
      await gateway.close();
    }
  });
});
