// Browser flows of installing from outside the catalog: an install link's consent dialog and a dropped bundle's
// dialog (their backend events emitted by the mocked IPC), each saved as a screenshot in the test's output folder to
// look at, and Add sending the link back.
import { FILESYSTEM } from "../src/features/presets/presetFixtures";
import { expect, test } from "./test";

const PREVIEW = { target: "npx -y some-server", env: [{ name: "API_KEY", template: "${secret:API_KEY}" }], headers: [] };
const PRESET = {
  ...FILESYSTEM.preset,
  name: "link/weather",
  title: "weather",
  description: "Offered by an install link: add it only if you trust where it came from. Nothing runs until you approve it.",
  launch: { kind: "command" as const, command: "npx", args: [["-y"], ["some-server"]], env: [{ name: "API_KEY", template: "{API_KEY}" }] },
  inputs: [{ key: "API_KEY", description: "Asked for by the link (env.API_KEY).", required: true, secret: true, default: null, path: null, placeholder: null, choices: [] }],
};

test("an install link opens its consent dialog; Add sends the link back", async ({ page, ipc, open }) => {
  ipc.respond({ previewInstallLink: PREVIEW, addFromInstallLink: (_link, name) => name });
  await open("/servers");
  await ipc.emitWhenHeard("installOffered", {
    offer: {
      link: "plugboard://install?name=weather&config=e30",
      preset: PRESET,
      suggestedName: "weather",
      preview: PREVIEW,
      flags: [{ id: "unpinned", message: "some-server has no pinned version: whatever is published next runs at the next start." }],
    },
  });
  const dialog = page.getByRole("dialog", { name: "Add weather from a link?" });
  await expect(dialog.getByTestId("preset-target")).toHaveText("npx -y some-server");
  await page.screenshot({ path: test.info().outputPath("install-link.png") });
  await dialog.getByLabel(/API_KEY \(required\)/).fill("k");
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect.poll(() => ipc.calls("addFromInstallLink")).toEqual([["plugboard://install?name=weather&config=e30", "weather", { API_KEY: "k" }]]);
});

test("a dropped bundle shows its manifest before it is installed", async ({ page, ipc, open }) => {
  ipc.respond({
    openBundle: (path) => ({
      path,
      displayName: "Hello",
      version: "1.0.0",
      author: "Ada Lovelace",
      description: "Says hello.",
      spec: "0.3",
      tools: [{ name: "hello", description: "Greets." }, { name: "wave", description: null }],
      signature: {
        status: "verified",
        signer: {
          publisher: "Ada Lovelace Ltd",
          issuer: "Example Code Signing CA",
          fingerprint: "3F:9A:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD",
          validUntil: "Dec  2 14:00:00 2027 GMT",
        },
      },
      compatibility: "platforms: darwin, linux, win32; node >=18",
      preset: { ...PRESET, name: "mcpb/hello-bundle", title: "Hello", description: "Says hello." },
      suggestedName: "hello-bundle",
      preview: { ...PREVIEW, target: "node /home/ada/.local/share/plugboard/bundles/hello-bundle-1.0.0/server/index.js" },
      flags: [],
    }),
    previewBundle: { ...PREVIEW, target: "node /home/ada/.local/share/plugboard/bundles/hello-bundle-1.0.0/server/index.js" },
    addBundle: (_path, name) => name,
  });
  await open("/servers");
  await ipc.emitWhenHeard("bundleDropped", { path: "/home/ada/Downloads/hello.mcpb" });
  const dialog = page.getByRole("dialog", { name: "Install the bundle Hello?" });
  await expect(dialog.getByLabel("About the bundle")).toContainText("Ada Lovelace");
  await expect(dialog.getByLabel("About the bundle")).toContainText('Signed by "Ada Lovelace Ltd", vouched for by "Example Code Signing CA"');
  await page.screenshot({ path: test.info().outputPath("install-bundle.png") });
});
