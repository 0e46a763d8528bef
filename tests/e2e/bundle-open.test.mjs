// A .mcpb bundle opened with Plugboard, as a file manager does through the file association (the desktop entry's
// `%u`: a path or a file: URL): handed to the running window by a second launch, it opens the install dialog with
// the bundle's manifest; once confirmed and approved, the server is Ready. A bundle the app is started with is
// offered as well, and Cancel installs nothing. A file that is not a bundle only gets the core's refusal. A bundle
// signed by the real `mcpb sign` shows its signer; the same bundle changed after signing is refused. And the way a
// file manager opens one on a double-click: the .deb's MIME type and desktop entry, installed into this sandbox's
// XDG folders, make GIO pick Plugboard for a `.mcpb` file and launch it with the file.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";

import { approveInWindow, configPath, launchApp, screenshot, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };

/** A minimal MCP server over stdio in plain Node (one `hello` tool), shared with the CLI's bundle test. */
const HELLO_SERVER = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "hello_bundle_server.js"), "utf8");

const MANIFEST = {
  manifest_version: "0.3",
  name: "hello-bundle",
  display_name: "Hello",
  version: "1.0.0",
  description: "Says hello.",
  author: { name: "Ada" },
  server: {
    type: "node",
    entry_point: "server/index.js",
    mcp_config: { command: "node", args: ["${__dirname}/server/index.js"], env: { API_KEY: "${user_config.api_key}" } },
  },
  tools: [{ name: "hello" }],
  user_config: { api_key: { type: "string", title: "API key", description: "Any text.", sensitive: true, required: true } },
};

/** Writes the bundle (a zip: the manifest and the server) at `path`, with Python's zipfile. */
function writeBundle(path) {
  const script = `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("manifest.json", sys.argv[2])
    z.writestr("server/index.js", sys.argv[3])`;
  execFileSync("python3", ["-c", script, path, JSON.stringify(MANIFEST), HELLO_SERVER]);
}

/** The bundle at `path`, signed where it lies by the real `mcpb sign --self-signed` (a fresh certificate each time). */
function signBundle(path) {
  const mcpb = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", ".bin", "mcpb");
  execFileSync(mcpb, ["sign", path, "--self-signed"], { cwd: dirname(path), stdio: "pipe" });
}

/** The texts of the alerts the window shows now. */
async function alerts(browser) {
  const texts = [];
  for (const alert of await browser.$$('[role="alert"]')) texts.push(await alert.getText());
  return texts;
}

/** Waits for the install dialog offering the bundle "Hello", cancels it, and checks nothing was installed. */
async function cancelOffer(browser) {
  const dialog = await browser.$('[role="dialog"][aria-labelledby]');
  await dialog.waitForDisplayed(WAIT);
  await browser.waitUntil(async () => /Install the bundle Hello\?/.test(await dialog.getText()), WAIT);
  await (await dialog.$("button=Cancel")).click();
  await dialog.waitForDisplayed({ ...WAIT, reverse: true });
  assert.deepEqual(saved(), {});
}

/** Launches the app binary a second time with `arg`, as a file manager does; the running window receives it. */
function openWithPlugboard(arg) {
  return new Promise((resolve) => {
    execFile(process.env.PLUGBOARD_APP_BIN, [arg], { env: process.env, timeout: 60_000 }, (error) =>
      resolve(error === null ? 0 : (error.code ?? -1)),
    );
  });
}

const saved = () => JSON.parse(readFileSync(configPath(), "utf8")).mcpServers;
const folder = mkdtempSync(join(tmpdir(), "plugboard-bundles-"));

describe("a bundle opened with Plugboard while the window runs", () => {
  let browser;
  // A space in the path: a file: URL carries it encoded.
  const bundle = join(folder, "my hello.mcpb");
  before(async () => {
    writeBundle(bundle);
    writeConfig({ mcpServers: {} });
    browser = await launchApp();
  });
  after(async () => {
    await browser?.deleteSession();
  });

  // The install dialog shows the manifest before anything is installed; Add installs it, and once approved it runs.
  test("as a file: URL, it is shown, installed, approved and Ready", async () => {
    assert.equal(await openWithPlugboard(pathToFileURL(bundle).href), 0);
    const dialog = await browser.$('[role="dialog"][aria-labelledby]');
    await dialog.waitForDisplayed(WAIT);
    await browser.waitUntil(async () => /Install the bundle Hello\?/.test(await dialog.getText()), WAIT);
    const about = await dialog.$('[aria-label="About the bundle"]');
    assert.match(await about.getText(), /Author\s*Ada/);
    assert.match(await about.getText(), /Declares\s*hello/);
    assert.deepEqual(saved(), {}, "nothing is installed before the person confirms");
    await (await dialog.$('input[type="password"]')).setValue("abcde");
    await screenshot(browser, "bundle-opened-with-plugboard");
    await (await dialog.$("button=Add server")).click();

    await browser.waitUntil(() => Object.keys(saved()).length === 1, { ...WAIT, timeoutMsg: "the bundle was not added" });
    const name = Object.keys(saved())[0];
    await approveInWindow(browser, name);
    await (await browser.$("a=Servers")).click();
    const row = await browser.$(`//tr[th[normalize-space()="${name}"]]`);
    await browser.waitUntil(async () => /Ready · 1 tool/.test(await row.getText()), {
      ...WAIT,
      timeoutMsg: `${name} did not become Ready`,
    });
    assert.ok(!readFileSync(configPath(), "utf8").includes("abcde"), "the key is not in servers.json");
  });

  // A file named .mcpb that is no zip reaches the core, which refuses it with the reason; nothing is added.
  test("a file that is not a bundle is refused", async () => {
    const before = Object.keys(saved());
    const fake = join(folder, "fake.mcpb");
    writeFileSync(fake, "not a zip");
    assert.equal(await openWithPlugboard(fake), 0);
    await browser.waitUntil(async () => (await alerts(browser)).some((text) => /bundle|zip|archive/i.test(text)), {
      ...WAIT,
      timeoutMsg: "no refusal was shown",
    });
    assert.deepEqual(Object.keys(saved()), before);
  });

  // `mcpb sign` (node-forge's PKCS #7) is read as Plugboard reads any signature: the dialog names the signer and
  // says nobody vouches for a self-signed key.
  test("a bundle signed with mcpb sign shows who signed it", async () => {
    const signed = join(folder, "signed.mcpb");
    writeBundle(signed);
    signBundle(signed);
    assert.equal(await openWithPlugboard(signed), 0);
    const dialog = await browser.$('[role="dialog"][aria-labelledby]');
    await dialog.waitForDisplayed(WAIT);
    const about = await dialog.$('[aria-label="About the bundle"]');
    await browser.waitUntil(async () => /Signature/.test(await about.getText()), WAIT);
    assert.match(
      await about.getText(),
      /Signature\s*Self-signed by "MCPB Self-Signed Certificate": unchanged since that key signed it, but nobody vouches for who holds the key\s*Certificate SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}/,
    );
    await screenshot(browser, "bundle-self-signed");
    await (await dialog.$("button=Cancel")).click();
    await dialog.waitForDisplayed({ ...WAIT, reverse: true });
  });

  // One byte of the signed zip changed (in the manifest's stored text): the signature no longer covers it, so the
  // bundle is refused before anything is shown or unpacked.
  test("a signed bundle changed after signing is refused", async () => {
    const before = Object.keys(saved());
    const changed = join(folder, "changed.mcpb");
    writeBundle(changed);
    signBundle(changed);
    const bytes = readFileSync(changed);
    const at = bytes.indexOf("Says hello.");
    assert.ok(at > 0, "the manifest is stored uncompressed");
    bytes[at] = "Z".charCodeAt(0);
    writeFileSync(changed, bytes);
    assert.equal(await openWithPlugboard(changed), 0);
    await browser.waitUntil(async () => (await alerts(browser)).some((text) => /changed after it was signed/.test(text)), {
      ...WAIT,
      timeoutMsg: "the changed bundle was not refused for its signature",
    });
    assert.deepEqual(Object.keys(saved()), before);
  });
});

describe("a bundle the app is started with", () => {
  let browser;
  after(async () => {
    await browser?.deleteSession();
  });

  // Opened with Plugboard while it was not running: the bundle waits for the page, then Cancel installs nothing.
  test("is offered, and Cancel installs nothing", async () => {
    const bundle = join(folder, "cold.mcpb");
    writeBundle(bundle);
    writeConfig({ mcpServers: {} });
    browser = await launchApp([bundle]);
    await cancelOffer(browser);
  });
});

/** The repo's root. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The desktop entry the .deb installs, rendered from its template (src-tauri/linux/plugboard.desktop) with the values
 * the Tauri bundler fills in from tauri.conf.json: the file associations' MIME types and the deep-link schemes, and
 * the binary under test as `exec` (the .deb has it on PATH). A placeholder this does not know fails the test.
 */
function desktopEntry() {
  const config = JSON.parse(readFileSync(join(ROOT, "tauri.conf.json"), "utf8"));
  const mimeTypes = [
    ...config.bundle.fileAssociations.map((association) => association.mimeType),
    ...config.plugins["deep-link"].desktop.schemes.map((scheme) => `x-scheme-handler/${scheme}`),
  ];
  const values = {
    name: config.productName,
    comment: config.bundle.shortDescription,
    categories: "Development;",
    icon: config.mainBinaryName,
    exec: process.env.PLUGBOARD_APP_BIN,
    mime_type: `${mimeTypes.join(";")};`,
  };
  return readFileSync(join(ROOT, "src-tauri", "linux", "plugboard.desktop"), "utf8")
    .split("\n")
    .filter((line) => !/^\{\{[#/]if/.test(line))
    .map((line) =>
      line.replace(/\{\{(\w+)\}\}/g, (_, key) => {
        assert.ok(key in values, `the desktop template names {{${key}}}, which this test does not fill`);
        return values[key];
      }),
    )
    .join("\n");
}

describe("a bundle double-clicked in a file manager", () => {
  let browser;
  const data = process.env.XDG_DATA_HOME;
  before(async () => {
    assert.ok(data?.includes("plugboard-test"), "runs only inside tests/harness/isolated-env.sh");
    // What the .deb installs, into this sandbox's XDG folders instead of /usr/share.
    mkdirSync(join(data, "mime", "packages"), { recursive: true });
    copyFileSync(join(ROOT, "src-tauri", "linux", "plugboard-mime.xml"), join(data, "mime", "packages", "plugboard.xml"));
    execFileSync("update-mime-database", [join(data, "mime")]);
    mkdirSync(join(data, "applications"), { recursive: true });
    writeFileSync(join(data, "applications", "plugboard-desktop.desktop"), desktopEntry());
    execFileSync("update-desktop-database", [join(data, "applications")]);
    writeConfig({ mcpServers: {} });
    browser = await launchApp();
  });
  after(async () => {
    await browser?.deleteSession();
  });

  // GIO (what GNOME Files, Nemo and xdg-open run) finds the type by the file's name and Plugboard as its only
  // handler, and launches the desktop entry's command with the file; the running window offers the bundle.
  test("is recognised as an MCP bundle, opened with Plugboard and offered", async () => {
    const bundle = join(folder, "downloaded.mcpb");
    writeBundle(bundle);
    const type = execFileSync("gio", ["info", "--attributes=standard::content-type", bundle], { encoding: "utf8" });
    assert.match(type, /standard::content-type: application\/x-mcpb/);
    const handlers = execFileSync("gio", ["mime", "application/x-mcpb"], { encoding: "utf8" });
    assert.match(handlers, /plugboard-desktop\.desktop/);
    execFileSync("gio", ["open", bundle], { env: process.env, timeout: 60_000 });
    await cancelOffer(browser);
  });
});
