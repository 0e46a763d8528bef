// Browser flows of the Clients screen: each client's state and budget; connecting shows the exact diff first and
// writes only on confirmation, sending back the digest of what was shown, then says what to do next; a file
// changed meanwhile is shown again, not written; the profile and the limit are chosen on the screen.
import { CONNECT_DIFF, preview } from "../src/features/clients/clientFixtures";
import { rejectWith } from "./ipc";
import { expect, test } from "./test";

test("connecting shows the diff, writes only what was confirmed, and says what to do next", async ({ page, ipc, open }) => {
  await open("/clients");
  const cursor = page.getByRole("article", { name: "Cursor" });
  await expect(cursor).toContainText("Over budget");
  await expect(cursor).toContainText("57 tools through Plugboard · limit 40 (documented by Cursor) · over by 17");
  await expect(cursor).toContainText("Not counted yet: linear");
  await expect(page.getByRole("article", { name: "Claude Desktop" })).toContainText("Connected");
  await expect(page.getByRole("article", { name: "VS Code" })).toContainText("Not found");

  await cursor.getByRole("button", { name: "Connect Cursor" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect Cursor" });
  await expect(dialog.getByLabel("The change to the file")).toContainText('+    "plugboard": {');
  expect(ipc.calls("applyClientChange")).toEqual([]);
  await dialog.getByRole("button", { name: "Write this change" }).click();
  await expect(dialog).toContainText("Next: open Cursor's Settings → MCP");
  expect(ipc.calls("planClientChange")).toEqual([[{ kind: "connect", client: "cursor", profile: null, moveDuplicates: false }]]);
  expect(ipc.calls("applyClientChange")).toEqual([[{ kind: "connect", client: "cursor", profile: null, moveDuplicates: false }, "d1"]]);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("a file changed under the shown diff is not written: the new change is shown to confirm", async ({ page, ipc, open }) => {
  let plans = 0;
  ipc.respond({
    planClientChange: () => (plans++ === 0 ? preview() : preview({ digest: "d2", diff: `${CONNECT_DIFF} // edited\n` })),
    applyClientChange: rejectWith({ code: "ChangedOnDisk", message: "changed since the change was shown" }),
  });
  await open("/clients");
  await page.getByRole("button", { name: "Connect Cursor" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect Cursor" });
  await dialog.getByRole("button", { name: "Write this change" }).click();
  await expect(dialog).toContainText("The file changed since you saw the change, so nothing was written.");
  await expect(dialog.getByLabel("The change to the file")).toContainText("// edited");
  ipc.respond({ applyClientChange: () => preview({ digest: "d2" }) });
  await dialog.getByRole("button", { name: "Write this change" }).click();
  await expect(dialog).toContainText("Cursor is connected to Plugboard.");
  expect(ipc.calls("applyClientChange").map((args) => args[1])).toEqual(["d1", "d2"]);
});

test("a trim connects with the profile that fits; a limit of one's own is chosen on the screen", async ({ page, ipc, open }) => {
  await open("/clients");
  const cursor = page.getByRole("article", { name: "Cursor" });
  await cursor.getByRole("button", { name: "Connect with profile coding (5 tools)" }).click();
  await expect(page.getByRole("dialog", { name: "Connect Cursor" })).toBeVisible();
  expect(ipc.calls("planClientChange")).toEqual([[{ kind: "connect", client: "cursor", profile: "coding", moveDuplicates: false }]]);
  await page.getByRole("button", { name: "Cancel" }).click();

  await cursor.getByText("Tool limit", { exact: true }).click();
  await cursor.getByRole("textbox", { name: "Your tool limit" }).fill("60");
  await cursor.getByRole("button", { name: "Use this limit" }).click();
  await expect.poll(() => ipc.calls("chooseClientLimit")).toEqual([["cursor", 60]]);
});
