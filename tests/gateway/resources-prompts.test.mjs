// Resources, resource templates, prompts and completions through `plugboard serve --stdio`, with the official
// TypeScript SDK client against two copies of the reference server: URIs mapped so the two cannot collide and read
// back from the right one, prompt names namespaced like tools, and completions routed to the prompt's server; and
// an upstream's own resources/prompts list_changed passed on (Plugboard's testserver, whose lists grow), a prompt
// added after approval withheld until `plugboard approve`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, describe, test } from "node:test";

import { cliBin, everythingServer, testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, eventually, nextListChanged } from "./client.mjs";

describe("serve --stdio relays resources, prompts and completions", () => {
  let gateway;
  // Two servers that list the very same URIs and prompt names.
  const server = { command: everythingServer(), args: ["stdio"], tools: [] };
  before(async () => {
    writeConfig({ mcpServers: { alpha: server, beta: server } });
    gateway = await connectGateway();
  });
  after(async () => {
    await gateway?.close();
  });

  test("resources of both servers are listed under distinct gateway URIs and read from the right one", async () => {
    const { resources } = await gateway.client.listResources();
    const features = "demo://resource/static/document/features.md";
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes(`plugboard://alpha/${features}`), JSON.stringify(uris));
    assert.ok(uris.includes(`plugboard://beta/${features}`), JSON.stringify(uris));
    assert.equal(new Set(uris).size, uris.length, "no two listed URIs are the same");

    const read = await gateway.client.readResource({ uri: `plugboard://beta/${features}` });
    assert.equal(read.contents[0].uri, `plugboard://beta/${features}`);
    assert.ok(read.contents[0].text.length > 0, "the document's text is passed on");
    await assert.rejects(gateway.client.readResource({ uri: features }), /offers no resource URI/);
  });

  test("resource templates keep their variables under the gateway URI", async () => {
    const { resourceTemplates } = await gateway.client.listResourceTemplates();
    const templates = resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes("plugboard://alpha/demo://resource/dynamic/text/{resourceId}"), JSON.stringify(templates));
    const read = await gateway.client.readResource({ uri: "plugboard://alpha/demo://resource/dynamic/text/3" });
    assert.match(read.contents[0].text, /Resource 3/);
  });

  test("prompts are namespaced per server and got with their arguments", async () => {
    const { prompts } = await gateway.client.listPrompts();
    const names = prompts.map((p) => p.name);
    assert.ok(names.includes("mcp__alpha__args-prompt") && names.includes("mcp__beta__args-prompt"), JSON.stringify(names));
    const got = await gateway.client.getPrompt({ name: "mcp__beta__args-prompt", arguments: { city: "Lisbon" } });
    assert.match(JSON.stringify(got.messages), /Lisbon/);
    await assert.rejects(gateway.client.getPrompt({ name: "args-prompt" }), /offers no prompt/);
  });

  test("a completion of a gateway prompt's argument comes from its server", async () => {
    const completed = await gateway.client.complete({
      ref: { type: "ref/prompt", name: "mcp__alpha__completable-prompt" },
      argument: { name: "department", value: "Eng" },
    });
    assert.deepEqual(completed.completion.values, ["Engineering"]);
  });

  test("a server turned off takes its resources and prompts along, and clients are told", async () => {
    const resourcesChanged = nextListChanged(gateway.changes.resources);
    const promptsChanged = nextListChanged(gateway.changes.prompts);
    writeConfig({ mcpServers: { alpha: server, beta: { ...server, enabled: false } } });
    await Promise.all([resourcesChanged, promptsChanged]);
    const { resources } = await gateway.client.listResources();
    assert.ok(resources.length > 0 && resources.every((r) => r.uri.startsWith("plugboard://alpha/")), JSON.stringify(resources.map((r) => r.uri)));
    const { prompts } = await gateway.client.listPrompts();
    assert.ok(prompts.every((p) => p.name.startsWith("mcp__alpha__")), JSON.stringify(prompts.map((p) => p.name)));
  });
});

describe("serve --stdio passes on an upstream's own resources and prompts list_changed", () => {
  let gateway;
  before(async () => {
    const growing = { command: testServer(), args: ["--list-changed"], tools: ["add_resource", "add_prompt"] };
    writeConfig({ mcpServers: { growing } });
    gateway = await connectGateway();
  });
  after(async () => {
    await gateway?.client.close();
  });

  test("a resource the server adds is announced to the client and listed under the gateway's URI", async () => {
    const { tools } = await gateway.client.listTools();
    assert.ok(tools.some((t) => t.name === "mcp__growing__add_resource"), JSON.stringify(tools.map((t) => t.name)));
    const changed = nextListChanged(gateway.changes.resources);
    await gateway.client.callTool({ name: "mcp__growing__add_resource", arguments: { name: "fresh" } });
    await changed;
    const { resources } = await gateway.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ["plugboard://growing/test://fresh"]);
  });
});

describe("serve --stdio passes on an upstream's own prompts list_changed, and only that list's", () => {
  let gateway;
  before(async () => {
    const growing = { command: testServer(), args: ["--list-changed"], tools: ["add_resource", "add_prompt"] };
    writeConfig({ mcpServers: { growing } });
    gateway = await connectGateway();
    await gateway.client.listTools();
  });
  after(async () => {
    await gateway?.client.close();
  });

  test("a prompt the server adds is announced, withheld until approved (it was not there when the server was approved), then listed under its gateway name", async () => {
    // The server coming up may still be announced (both lists at once) while this runs: it leaves the difference
    // between the two counts as it was, where announcing resources for a prompt would not move it.
    const announced = gateway.changes;
    const difference = () => announced.prompts.count - announced.resources.count;
    const before = difference();
    const changed = nextListChanged(announced.prompts);
    await gateway.client.callTool({ name: "mcp__growing__add_prompt", arguments: { name: "fresh" } });
    await changed;
    assert.deepEqual((await gateway.client.listPrompts()).prompts, [], "withheld");
    await eventually(() => difference() === before + 1, "only the list that changed to be announced");

    // The approval reaches serve through its folder watch, so the release is announced some time after `approve`
    // returns. A late announcement of the server coming up (both lists) may arrive first: the client lists again on
    // every announcement, so what must hold is that one comes after the approval and the list then shows the prompt.
    const announcedBefore = gateway.changes.prompts.count;
    const approved = execFileSync(cliBin(), ["approve", "growing", "--yes"], { encoding: "utf8" });
    assert.match(approved, /approved growing's changes: prompt fresh/);
    await eventually(() => gateway.changes.prompts.count > announcedBefore, "the release to be announced");
    const listed = async () => (await gateway.client.listPrompts()).prompts.map((p) => p.name);
    await eventually(async () => (await listed()).length > 0, "the released prompt to be listed");
    assert.deepEqual(await listed(), ["mcp__growing__fresh"]);
  });
});
