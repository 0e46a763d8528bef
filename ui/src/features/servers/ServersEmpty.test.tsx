// Tests for the first-run view: offer an import when other clients' configs are found, else the presets.
import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { ok, sources } from "../../test/importFixtures";
import { renderWithProviders } from "../../test/render";
import ServersEmpty from "./ServersEmpty";

vi.mock("../../ipc/bindings", () => ({ commands: { detectImportSources: vi.fn() } }));

const detect = vi.mocked(commands.detectImportSources);
const CONFIG_PATH = "/home/ada/.config/plugboard/servers.json";

describe("ServersEmpty", () => {
  beforeEach(() => detect.mockReset());

  // Pins: detected clients are named once each (several files of one client count once) in a link to the wizard.
  it("offers an import from the detected clients", async () => {
    detect.mockReturnValue(
      ok(
        sources({
          found: [
            { client: "cursor", clientLabel: "Cursor", path: "/home/ada/.cursor/mcp.json" },
            { client: "claude-code", clientLabel: "Claude Code", path: "/home/ada/.claude.json" },
            { client: "cursor", clientLabel: "Cursor", path: "/home/ada/app/.cursor/mcp.json" },
          ],
        }),
      ),
    );
    renderWithProviders(<ServersEmpty configPath={CONFIG_PATH} />);
    const link = await screen.findByRole("link", { name: "Import from Cursor and Claude Code" });
    expect(link).toHaveAttribute("href", "/import");
    const region = screen.getByRole("region", { name: "No servers yet" });
    expect(region).toContainElement(link);
    expect(within(region).getByText(CONFIG_PATH).tagName).toBe("CODE");
  });

  // Pins: with nothing detected there is no import link: the view offers the presets and says how to add a server.
  it("offers the presets when no client config is found", async () => {
    detect.mockReturnValue(ok(sources({ found: [] })));
    renderWithProviders(<ServersEmpty configPath={CONFIG_PATH} />);
    expect(await screen.findByText(/No other MCP client's config was found here\. Start from a preset/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse presets" })).toHaveAttribute("href", "/presets");
    expect(screen.queryByRole("link", { name: /Import/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Or add a server by writing it into the config file/)).toBeInTheDocument();
  });

  // Pins: while detection runs the view says so; if it fails, the how-to text stands in (claiming nothing about
  // what is there) and the path stays.
  it("falls back to the how-to text when detection fails", async () => {
    detect.mockReturnValue(Promise.resolve({ status: "error", error: { code: "Internal", message: "boom" } }) as never);
    renderWithProviders(<ServersEmpty configPath={CONFIG_PATH} />);
    expect(screen.getByRole("status")).toHaveTextContent("Looking for other MCP clients' configs…");
    expect(await screen.findByText(/^Start from a preset/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse presets" })).toBeInTheDocument();
    expect(screen.queryByText(/was found/)).not.toBeInTheDocument();
    expect(screen.getByText(CONFIG_PATH)).toBeInTheDocument();
  });
});
