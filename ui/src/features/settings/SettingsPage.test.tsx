// Tests for the Settings screen: the keychain status in each backend, the paths, and the theme choice.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type VaultStatus } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import SettingsPage from "./SettingsPage";

vi.mock("../../ipc/bindings", () => ({
  commands: {
    vaultStatus: vi.fn(),
    appPaths: vi.fn(),
    gatewayEndpoint: vi.fn(),
    setGatewayEndpoint: vi.fn(),
    launchAtLogin: vi.fn(),
    setLaunchAtLogin: vi.fn(),
    showInFolder: vi.fn(),
  },
}));

const vaultStatus = vi.mocked(commands.vaultStatus);
const appPaths = vi.mocked(commands.appPaths);

const KEYCHAIN: VaultStatus = {
  backend: "keychain",
  persists: true,
  summary: "Secrets are kept in the OS keychain.",
  keychainUnavailableReason: null,
  whatToDo: null,
  insecureFilePath: null,
};

describe("SettingsPage", () => {
  beforeEach(() => {
    vi.mocked(commands.gatewayEndpoint).mockResolvedValue({
      status: "ok",
      data: { settings: { enabled: false, port: 7450 }, url: null, problem: null },
    });
    vaultStatus.mockResolvedValue({ status: "ok", data: KEYCHAIN });
    vi.mocked(commands.launchAtLogin).mockResolvedValue({ status: "ok", data: false });
    vi.mocked(commands.showInFolder).mockResolvedValue({ status: "ok", data: null });
    appPaths.mockResolvedValue({
      status: "ok",
      data: {
        configFile: "/home/ada/.config/plugboard/servers.json",
        dataDir: "/home/ada/.local/share/plugboard",
        logDir: "/home/ada/.local/share/plugboard/logs",
        version: "0.1.0",
      },
    });
  });
  afterEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });

  // Pins: with the keychain in use the page says so, and lists the config file, data and log folders and version.
  it("shows the keychain and the paths", async () => {
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText("OS keychain")).toBeInTheDocument();
    expect(screen.getByText("/home/ada/.config/plugboard/servers.json")).toBeInTheDocument();
    expect(screen.getByText("/home/ada/.local/share/plugboard/logs")).toBeInTheDocument();
    expect(screen.getByText("0.1.0")).toBeInTheDocument();
    expect(screen.queryByText("What to do:")).not.toBeInTheDocument();
  });

  // Pins: "Show in folder" names a place, never a path: the config file's button sends {place: "configFile"}; a
  // folder that cannot be shown is said beside the button.
  it("shows a folder by its place", async () => {
    renderWithProviders(<SettingsPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Show in folder: the config file" }));
    expect(commands.showInFolder).toHaveBeenCalledWith({ place: "configFile" });
    vi.mocked(commands.showInFolder).mockResolvedValue({
      status: "error",
      error: { code: "NotFound", message: "/home/ada/.local/share/plugboard/logs does not exist yet" },
    });
    await userEvent.click(screen.getByRole("button", { name: "Show in folder: the log folder" }));
    expect(commands.showInFolder).toHaveBeenLastCalledWith({ place: "logDir" });
    expect(await screen.findByRole("alert")).toHaveTextContent("does not exist yet");
  });

  // Pins: without a keychain the page says secrets are memory-only, why, and what to do — as plain text.
  it("explains an unavailable keychain", async () => {
    vaultStatus.mockResolvedValue({
      status: "ok",
      data: {
        ...KEYCHAIN,
        backend: "memoryOnly",
        persists: false,
        summary: "Secrets are kept in memory only and are lost when Plugboard quits.",
        keychainUnavailableReason: "no Secret Service on the session bus <b>x</b>",
        whatToDo: "Install and unlock gnome-keyring.",
      },
    });
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText("Memory only (lost when Plugboard quits)")).toBeInTheDocument();
    expect(screen.getByText("no Secret Service on the session bus <b>x</b>")).toBeInTheDocument();
    expect(screen.getByText("Install and unlock gnome-keyring.")).toBeInTheDocument();
  });

  // Pins: the theme radio group starts on "Follow the system"; picking Dark pins it on <html> and remembers it.
  it("chooses a theme with the keyboard", async () => {
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    const system = screen.getByRole("radio", { name: "Follow the system" });
    expect(system).toBeChecked();
    system.focus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("radio", { name: "Light" })).toBeChecked();
    await user.click(screen.getByRole("radio", { name: "Dark" }));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem("plugboard.theme")).toBe("dark");
  });
});
