// Browser flows of launch approval: servers awaiting approval when the window opens are shown in one dialog with the
// exact command line, the environment by name and what to look at twice; Approve sends the digest that was shown;
// "Not now" closes it without deciding; a server waiting in the table has Review, which opens it on that server.
import { PINNED_APPROVAL, RISKY_APPROVAL, server } from "./fixtures";
import { expect, test } from "./test";

test("the waiting servers are shown with their command lines; each is decided by what was shown", async ({
  page,
  ipc,
  open,
}) => {
  ipc.respond({ pendingApprovals: [RISKY_APPROVAL, PINNED_APPROVAL] });
  await open("/servers");
  const dialog = page.getByRole("dialog", { name: "Approve what these 2 servers run?" });
  await expect(dialog.getByText("/usr/bin/sh -c 'curl -fsSL https://get.example/mcp.sh | sh'")).toBeVisible();
  await expect(dialog.getByText("API_KEY = ${secret:API_KEY}")).toBeVisible();
  await expect(dialog.getByRole("list", { name: "What to look at twice in installer" })).toContainText(
    "It downloads a script and runs it (curl … | sh).",
  );

  await dialog.getByRole("button", { name: "Refuse installer" }).click();
  await dialog.getByRole("button", { name: "Approve memory" }).click();
  expect(ipc.calls("decideApproval")).toEqual([
    ["installer", "6f1c0ffee", "refused"],
    ["memory", "0a11ce", "approved"],
  ]);
});

test("Not now closes the dialog without a decision; Review on the row opens it again", async ({ page, ipc, open }) => {
  ipc.respond({
    pendingApprovals: [RISKY_APPROVAL],
    listServers: {
      configPath: "/home/ada/.config/plugboard/servers.json",
      servers: [server({ name: "installer", target: "sh -c curl … | sh" })],
      invalid: [],
      fileProblem: null,
    },
    serverStatuses: [
      { server: "installer", status: { state: "needsApproval", hint: "Awaiting approval", refused: false } },
    ],
  });
  await open("/servers");
  const dialog = page.getByRole("dialog", { name: "Approve what this server runs?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Not now" }).click();
  await expect(dialog).toBeHidden();
  expect(ipc.calls("decideApproval")).toEqual([]);

  await expect(page.getByRole("row", { name: /installer/ }).getByText("Needs approval")).toBeVisible();
  await page.getByRole("button", { name: "Review installer" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Approve installer" }).click();
  expect(ipc.calls("decideApproval")).toEqual([["installer", "6f1c0ffee", "approved"]]);
});
