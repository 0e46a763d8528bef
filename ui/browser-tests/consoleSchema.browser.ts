// Browser flows of the Console's arguments editor under the app's real CSP (no 'unsafe-eval'): schema errors show
// next to their fields as you type and in the JSON view, Run waits for required arguments, and a pick-several list is
// one checkbox group, with no policy violation (test.ts fails on any).
import { tool } from "./fixtures";
import { expect, test } from "./test";

/** A tool schema the way MCP servers write them: 2020-12, $defs/$ref, required, enum, format, nesting. */
const SEARCH_SCHEMA = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: { limit: { type: "integer", minimum: 1, maximum: 50, title: "Limit" } },
  properties: {
    query: { type: "string", title: "Query", minLength: 2 },
    limit: { $ref: "#/$defs/limit" },
    mode: { type: "string", enum: ["fast", "thorough"], title: "Mode" },
    scopes: { type: "array", title: "Scopes", items: { anyOf: [{ const: "s-doc", title: "Docs" }, { const: "s-code", title: "Code" }] } },
    notify: {
      type: "object",
      title: "Notify",
      properties: { email: { type: "string", format: "email", title: "Email" } },
    },
  },
  required: ["query"],
  additionalProperties: false,
});

test.beforeEach(({ ipc }) => {
  ipc.respond({
    serverTools: (name) => (name === "files" ? [tool("files", { name: "search", inputSchema: SEARCH_SCHEMA })] : []),
    callHistory: { entries: [], total: 0 },
  });
});

test("a schema error shows next to its field as you type, without breaking the CSP", async ({ page, open }) => {
  await open("/console?server=files&tool=search");
  const limit = page.getByRole("spinbutton", { name: "Limit" });
  await limit.fill("99");
  // The error sits in the Limit field's own block (its label, input and errors), not in a list elsewhere.
  const limitField = page.locator("div.flex-col", { has: limit }).last();
  await expect(limitField.getByText("99 is greater than 50.")).toBeVisible();
  const queryField = page.locator("div.flex-col", { has: page.getByRole("textbox", { name: "Query" }) }).last();
  await expect(queryField).toContainText("is a required property");

  const email = page.getByRole("textbox", { name: "Email" });
  await email.fill("nobody");
  await expect(page.locator("div.flex-col", { has: email }).last().getByText("must be a valid email")).toBeVisible();

  await limit.fill("5");
  await expect(limitField.getByText("99 is greater than 50.")).toHaveCount(0);
});

test("the JSON view checks the arguments against the schema as you type", async ({ page, open }) => {
  await open("/console?server=files&tool=search");
  await page.getByRole("tab", { name: "JSON" }).click();
  await page.getByRole("textbox", { name: "Arguments of search as JSON" }).fill('{ "query": "mcp", "mode": "slow" }');
  await expect(page.getByText(`Schema: 'Mode' must be one of ["fast","thorough"]`)).toBeVisible();
  await page.getByRole("textbox", { name: "Arguments of search as JSON" }).fill('{ "query": "mcp", "mode": "fast" }');
  await expect(page.getByText("Valid arguments.")).toBeVisible();
});

// Pins: Run with the required Query empty calls no tool: the Query field says it is required and the page names it;
// filled in, Run sends it with the boxes ticked in the Scopes group.
test("Run waits for a required argument, marked at its field", async ({ page, ipc, open }) => {
  await open("/console?server=files&tool=search");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const queryField = page.locator("div.flex-col", { has: page.getByRole("textbox", { name: "Query" }) }).last();
  await expect(queryField).toContainText("is a required property");
  await expect(page.getByRole("alert").filter({ hasText: "Fill in the required argument first: Query." })).toBeVisible();
  expect(ipc.calls("runToolCall")).toEqual([]);

  await page.getByRole("textbox", { name: "Query" }).fill("mcp");
  await page.getByRole("group", { name: "Scopes" }).getByRole("checkbox", { name: "Code" }).check();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect.poll(() => ipc.calls("runToolCall").length).toBe(1);
  expect(JSON.parse(ipc.calls("runToolCall")[0]?.[3] ?? "null")).toStrictEqual({ query: "mcp", scopes: ["s-code"] });
});
