// Browser flows of Settings: the theme choice changes <html data-theme> and survives a reload; an unavailable
// keychain is explained with what to do about it.
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
