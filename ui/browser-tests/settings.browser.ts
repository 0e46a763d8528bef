// Browser flows of Settings: the theme choice changes <html data-theme> and survives a reload; an unavailable
// keychain is explained with what to do about it; the gateway's HTTP endpoint is switched on, moved and its token
// replaced, the token never shown on the page.
import { expect, test } from "./test";

test("choosing Dark sets data-theme and is still chosen after a reload", async ({ page, open }) => {
  await open("/settings");
  const html = page.locator("html");
  await expect(page.getByRole("radio", { name: "Follow the system" })).toBeChecked();
  await expect(html).not.toHaveAttribute("data-theme");

  await page.getByRole("radio", { name: "Dark" }).check();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(23, 25, 29)");

  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(23, 25, 29)");

  await page.getByRole("radio", { name: "Follow the system" }).check();
  await expect(html).not.toHaveAttribute("data-theme");
});

test("an unavailable keychain says why and what to do", async ({ page, ipc, open }) => {
  ipc.respond({
    vaultStatus: {
      backend: "memoryOnly",
      persists: false,
      summary: "Secrets are kept in memory only and are lost when Plugboard quits.",
      keychainUnavailableReason: "No Secret Service provider is running.",
      whatToDo: "Install and start gnome-keyring, then restart Plugboard.",
      insecureFilePath: null,
    },
  });
  await open("/settings");
  const secrets = page.getByRole("region", { name: "Secrets" });
  await expect(secrets).toContainText("Memory only (lost when Plugboard quits)");
  await expect(secrets).toContainText("Why: No Secret Service provider is running.");
  await expect(secrets).toContainText("What to do: Install and start gnome-keyring, then restart Plugboard.");
});

test("the gateway's endpoint switches on with its URL, moves to another port, and its token is replaced after a confirmation", async ({
  page,
  ipc,
  open,
}) => {
  await open("/settings");
  const gateway = page.getByRole("region", { name: "Gateway for other apps" });
  await expect(gateway).toContainText("plugboard serve --stdio");
  await gateway.getByRole("checkbox", { name: "Serve over HTTP on this computer" }).check();
  await expect(gateway.getByText("http://127.0.0.1:7450/mcp", { exact: true })).toBeVisible();
  expect(ipc.calls("setGatewayEndpoint")).toEqual([[{ enabled: true, port: 7450 }]]);

  const port = gateway.getByRole("textbox", { name: "Port" });
  await port.fill("80");
  await expect(gateway).toContainText("A port is a number from 1024 to 65535.");
  await expect(gateway.getByRole("button", { name: "Use this port" })).toBeDisabled();
  await port.fill("9123");
  await gateway.getByRole("button", { name: "Use this port" }).click();
  await expect(gateway.getByText("http://127.0.0.1:9123/mcp", { exact: true })).toBeVisible();

  await gateway.getByRole("button", { name: "Replace token…" }).click();
  await gateway.getByRole("button", { name: /Replace the token: every app using it/ }).click();
  await expect(gateway.getByRole("status")).toContainText("The token was replaced");
  expect(ipc.calls("rotateGatewayToken")).toHaveLength(1);
  await expect(page.locator("body")).not.toContainText("pbg_");
});

test("an endpoint that cannot start says why", async ({ page, ipc, open }) => {
  ipc.respond({
    gatewayEndpoint: {
      settings: { enabled: true, port: 7450 },
      url: null,
      problem: "cannot listen on 127.0.0.1:7450: Address in use (is another Plugboard gateway running there? pick another port)",
    },
  });
  await open("/settings");
  await expect(page.getByRole("region", { name: "Gateway for other apps" }).getByRole("alert")).toContainText(
    "The endpoint is not running: cannot listen on 127.0.0.1:7450",
  );
});
