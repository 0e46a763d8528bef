// Browser flows of the preset catalog: the search, the Add dialog showing the exact command before anything is saved
// and sending add_preset with the inputs typed (a secret's value never leaves for the preview), then the new server's
// page; where the dialog puts focus; a long "Added as" badge inside its card.
import { FILESYSTEM, GITHUB } from "../src/features/presets/presetFixtures";
import { CONFIG_PATH, SERVERS, server } from "./fixtures";
import { expect, test } from "./test";

test("the search keeps only the presets whose text matches", async ({ page, open }) => {
  await open("/presets");
  const grid = page.getByRole("list", { name: "Presets" });
  await expect(grid.getByRole("listitem")).toHaveCount(2);

  await page.getByRole("searchbox", { name: "Search presets" }).fill("folder");
  await expect(grid.getByRole("listitem")).toHaveCount(1);
  await expect(grid.getByRole("heading", { name: "Filesystem" })).toBeVisible();

  await page.getByRole("searchbox", { name: "Search presets" }).fill("nothing like it");
  await expect(page.getByText('No preset matches "nothing like it".')).toBeVisible();
});

test("the Add dialog shows the exact command before adding, then add_preset gets the name and inputs", async ({
  page,
  ipc,
  open,
}) => {
  ipc.respond({
    addPreset: (_preset, name) => {
      ipc.respond({
        listServers: {
          configPath: CONFIG_PATH,
          servers: [...SERVERS, server({ name, target: "npx -y @modelcontextprotocol/server-filesystem@2026.8.31 /home/ada" })],
          invalid: [],
          fileProblem: null,
        },
      });
      return name;
    },
  });
  await open("/presets");
  await page.getByRole("button", { name: "Add Filesystem" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Filesystem" });
  await dialog.getByRole("textbox", { name: /Server name/ }).fill("fs-home");
  await dialog.getByRole("textbox", { name: /allowed_folder/ }).fill("/home/ada");

  const preview = dialog.getByRole("region", { name: "Plugboard will run" });
  await expect(preview).toContainText("npx -y @modelcontextprotocol/server-filesystem@2026.8.31 /home/ada");
  expect(ipc.calls("previewPreset").at(-1)).toEqual(["io.github.modelcontextprotocol/filesystem", { allowed_folder: "/home/ada" }]);
  expect(ipc.calls("addPreset")).toEqual([]);

  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect(page).toHaveURL(/#\/servers\/fs-home$/);
  await expect(page.getByRole("heading", { level: 1, name: "fs-home" })).toBeVisible();
  expect(ipc.calls("addPreset")).toEqual([
    ["io.github.modelcontextprotocol/filesystem", "fs-home", { allowed_folder: "/home/ada" }],
  ]);
});

test("a secret input never reaches the preview, only whether it is set", async ({ page, ipc, open }) => {
  await open("/presets");
  await page.getByRole("button", { name: "Add another GitHub" }).click();
  const dialog = page.getByRole("dialog", { name: "Add GitHub" });
  await dialog.getByLabel(/github_token/).fill("ghp_secret");
  await expect.poll(() => ipc.calls("previewPreset").at(-1)).toEqual(["io.github.github/github-mcp-server", { github_token: "set" }]);
  expect(JSON.stringify(ipc.calls("previewPreset"))).not.toContain("ghp_secret");
});

// Pins: the Add dialog opens on its Server name field (not the ✕), Escape gives focus back to the Add button, and
// after Add the new server's page heading has it.
test("the Add dialog opens on its first field and gives focus back", async ({ page, open }) => {
  await open("/presets");
  const opener = page.getByRole("button", { name: "Add Filesystem" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Add Filesystem" });
  await expect(dialog.getByRole("textbox", { name: /Server name/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();

  await opener.press("Enter");
  await dialog.getByRole("textbox", { name: /allowed_folder/ }).fill("/home/ada");
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "filesystem" })).toBeFocused();
});

// Pins: an "Added as" badge naming many servers stays inside its card at 1024 px and at 800 px.
for (const width of [1024, 800]) {
  test(`a long Added as badge stays inside its card at ${width} px`, async ({ page, ipc, open }) => {
    await page.setViewportSize({ width, height: 768 });
    const names = ["github", "github-work-enterprise-account", "github-personal-projects", "github-2", "github-3"];
    ipc.respond({ listPresets: [FILESYSTEM, { ...GITHUB, addedAs: names }] });
    await open("/presets");
    const card = page.getByRole("article", { name: "GitHub" });
    const badge = card.getByText(/^Added as /);
    await expect(badge).toContainText("github-personal-projects");
    const [cardBox, badgeBox] = [await card.boundingBox(), await badge.boundingBox()];
    expect(cardBox).not.toBeNull();
    expect(badgeBox).not.toBeNull();
    expect(badgeBox!.x).toBeGreaterThanOrEqual(cardBox!.x);
    expect(badgeBox!.x + badgeBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
  });
}
