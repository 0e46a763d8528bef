// Tests for the first-run view: offer an import when other clients' configs are found, else say how to add a server.
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

  // Pins: with nothing detected there is no import link (and no presets): the text says how to add a server.
  it("says how to add a server when no client config is found", async () => {
    detect.mockReturnValue(ok(sources({ found: [] })));
    renderWithProviders(<ServersEmpty configPath={CONFIG_PATH} />);
    expect(await screen.findByText(/No other MCP client's config was found here\. Add a server by writing it/)).toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
    expect(screen.queryByText(/preset/i)).not.toBeInTheDocument();
  });

  // Pins: while detection runs the view says so; if it fails, the how-to text stands in (claiming nothing about
  // what is there) and the path stays.
  it("falls back to the how-to text when detection fails", async () => {
    detect.mockReturnValue(Promise.resolve({ status: "error", error: { code: "Internal", message: "boom" } }) as never);
    renderWithProviders(<ServersEmpty configPath={CONFIG_PATH} />);
    expect(screen.getByRole("status")).toHaveTextContent("Looking for other MCP clients' configs…");
    expect(await screen.findByText(/^Add a server by writing it into the config file below/)).toBeInTheDocument();
    expect(screen.queryByText(/was found/)).not.toBeInTheDocument();
    expect(screen.getByText(CONFIG_PATH)).toBeInTheDocument();
  });
});
