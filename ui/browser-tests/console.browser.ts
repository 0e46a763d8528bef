// Browser flows of the Console: server and tool picked by keyboard, Run sends exactly the form's arguments, the
// call's progress and logs stream in over its Channel, results by outcome (a tool error stands apart, HTML in a
// result stays text), Cancel names the running call, a history row runs again, another pick clears the result, and
// the pick and arguments outlive a visit to another page.
import { historyEntry, textResult } from "./fixtures";
import { channelOf } from "./ipc";
import { expect, test } from "./test";

test("picking by keyboard, filling the form and Ctrl+Enter runs the tool with exactly those arguments", async ({
  page,
  ipc,
  open,
}) => {
  await open("/console");
  await page.getByRole("button", { name: /^Server/ }).focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.type("fil");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Server files" })).toBeFocused();

  await page.getByRole("button", { name: /^Tool/ }).focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.type("read");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Tool read_file" })).toBeVisible();

  await page.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
  await page.getByRole("spinbutton", { name: /lines/ }).fill("3");
  await page.keyboard.press("ControlOrMeta+Enter");

  await expect(page.getByText("hello from the tool")).toBeVisible();
  const [run, ...more] = ipc.calls("runToolCall");
  expect(more).toEqual([]);
  expect(run?.slice(1, 4)).toEqual(["files", "read_file", JSON.stringify({ path: "/etc/hosts", lines: 3 }, null, 2)]);
  // The same text the JSON tab shows.
  await page.getByRole("tab", { name: "JSON" }).click();
  await expect(page.getByRole("textbox", { name: "Arguments of read_file as JSON" })).toContainText('"lines": 3');
});

test("progress and log events stream in while the call runs, then the result shows", async ({ page, ipc, open }) => {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  ipc.respond({
    runToolCall: async (_callId, server, tool, args, onEvent) => {
      const channel = channelOf(onEvent);
      await channel.send([{ kind: "progress", progress: 1, total: 4, message: "reading" }]);
      await channel.send([{ kind: "log", level: "info", logger: "fs", message: "opened /etc/hosts" }]);
      await finished;
      await channel.send([{ kind: "progress", progress: 4, total: 4, message: "done" }]);
      return historyEntry({ id: 9, server, tool, arguments: args, durationMs: 1500 });
    },
  });
  await open("/console?server=files&tool=read_file");
  await page.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
  await page.getByRole("button", { name: "Run", exact: true }).click();

  await expect(page.getByText("Running… (Escape cancels)")).toBeVisible();
  await expect(page.getByText("1 of 4 · reading")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Progress" })).toHaveAttribute("value", "1");
  await expect(page.getByRole("list", { name: "Notifications" })).toContainText("opened /etc/hosts");

  finish();
  await expect(page.getByText("127.0.0.1 localhost")).toBeVisible();
  await expect(page.getByText("4 of 4 · done")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Done in" })).toBeVisible();
});

test("a tool error is announced apart from a success, and HTML in the result or a log line stays inert", async ({
  page,
  ipc,
  open,
}) => {
  const payload = `<img src=x onerror="window.__xss='img'"><script>window.__xss='script'</script>`;
  ipc.respond({
    runToolCall: async (_callId, server, tool, args, onEvent) => {
      await channelOf(onEvent).send([{ kind: "log", level: "error", logger: null, message: payload }]);
      const result = textResult(payload, true);
      return historyEntry({ id: 9, server, tool, arguments: args, outcome: { kind: "result", isError: true, result, truncated: false } });
    },
  });
  await open("/console?server=files&tool=read_file");
  await page.getByRole("textbox", { name: /path/ }).fill("/etc/shadow");
  await page.getByRole("button", { name: "Run", exact: true }).click();

  await expect(page.getByRole("alert").filter({ hasText: "The tool reported an error" })).toBeVisible();
  await expect(page.getByText("Done in")).toHaveCount(0);
  const call = page.getByRole("region", { name: "Tool call" });
  await expect(call.getByText(payload, { exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Notifications" })).toContainText(payload);
  expect(await call.locator("img, script").count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
});

for (const how of ["the Cancel button", "Escape"] as const) {
  test(`${how} sends cancel_tool_call with the running call's id`, async ({ page, ipc, open }) => {
    let release!: () => void;
    const cancelled = new Promise<void>((resolve) => (release = resolve));
    ipc.respond({
      runToolCall: async (_callId, server, tool, args) => {
        await cancelled;
        return historyEntry({ id: 9, server, tool, arguments: args, outcome: { kind: "cancelled" } });
      },
      cancelToolCall: () => {
        release();
        return true;
      },
    });
    await open("/console?server=files&tool=read_file");
    await page.getByRole("textbox", { name: /path/ }).fill("/dev/zero");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByText("Running… (Escape cancels)")).toBeVisible();

    if (how === "Escape") await page.keyboard.press("Escape");
    else await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByText(/The call was cancelled after/)).toBeVisible();
    const [callId] = ipc.calls("runToolCall")[0] ?? [];
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ipc.calls("cancelToolCall")).toEqual([[callId]]);
  });
}

test("a history row shows the saved call and Re-run calls it again with its arguments", async ({ page, ipc, open }) => {
  await open("/console");
  await page.getByRole("list", { name: "Calls" }).getByRole("button", { name: /\/etc\/hostname/ }).click();
  const saved = page.getByRole("article", { name: "Call 2" });
  await expect(saved.getByLabel("Arguments")).toHaveText('{"path":"/etc/hostname"}');

  await saved.getByRole("button", { name: "Re-run" }).click();
  await expect(page.getByText("hello from the tool")).toBeVisible();
  expect(ipc.calls("runToolCall").map((args) => args.slice(1, 4))).toEqual([
    ["files", "read_file", '{"path":"/etc/hostname"}'],
  ]);
  await expect(page.getByRole("button", { name: "Tool read_file" })).toBeVisible();
});

// Pins: picking another tool after a call shows none of the last tool's result or events.
test("picking another tool clears the last tool's result and events", async ({ page, open }) => {
  await open("/console?server=files&tool=read_file");
  await page.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByText("hello from the tool")).toBeVisible();
  await expect(page.getByRole("list", { name: "Notifications" })).toBeVisible();

  await page.getByRole("button", { name: /^Tool/ }).click();
  await page.getByRole("option", { name: /write_file/ }).click();
  await expect(page.getByRole("button", { name: "Tool write_file" })).toBeVisible();
  await expect(page.getByText("hello from the tool")).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Notifications" })).toHaveCount(0);
});

// Pins: going to Servers and back to the Console by the sidebar keeps the server, tool and typed arguments.
test("the pick and the typed arguments are kept across a visit to another page", async ({ page, ipc, open }) => {
  await open("/console?server=files&tool=read_file");
  await page.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Servers" }).click();
  await expect(page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();
  await nav.getByRole("link", { name: "Console" }).click();

  await expect(page.getByRole("button", { name: "Tool read_file" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Server files" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: /path/ })).toHaveValue("/etc/hosts");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByText("hello from the tool")).toBeVisible();
  expect(ipc.calls("runToolCall").map((args) => args[3])).toEqual([JSON.stringify({ path: "/etc/hosts" }, null, 2)]);
});
