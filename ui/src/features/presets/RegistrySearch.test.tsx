// Tests for the MCP Registry tab: results per registry as preset cards, what was left out and why, the offline
// copy, "More", and adding an entry through the same dialog with the registry's commands.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type RegistryResults } from "../../ipc/bindings";
import { ok } from "../../test/importFixtures";
import { renderWithProviders } from "../../test/render";
import { FILESYSTEM, GITHUB } from "./presetFixtures";
import PresetsPage from "./PresetsPage";

vi.mock("../../ipc/bindings", () => ({
  commands: {
    listPresets: vi.fn(),
    previewPreset: vi.fn(),
    addPreset: vi.fn(),
    searchRegistry: vi.fn(),
    previewRegistryEntry: vi.fn(),
    addRegistryEntry: vi.fn(),
    listRegistrySources: vi.fn(),
    addRegistrySource: vi.fn(),
    removeRegistrySource: vi.fn(),
  },
}));

const search = vi.mocked(commands.searchRegistry);
const addEntry = vi.mocked(commands.addRegistryEntry);
const OFFICIAL = { name: "Official MCP Registry", url: "https://registry.modelcontextprotocol.io" };

const FIRST_PAGE: RegistryResults = {
  source: OFFICIAL,
  listings: [{ registry: OFFICIAL.url, version: "2026.8.31", ...FILESYSTEM }],
  skipped: [{ name: "io.github.example/old", reason: 'its status is "deprecated": only active servers are offered' }],
  nextCursor: "io.github.example/old:1.0.0",
  cachedAt: null,
  problem: null,
};

describe("RegistrySearch", () => {
  beforeEach(() => {
    vi.mocked(commands.listPresets).mockReset().mockReturnValue(ok([]));
    vi.mocked(commands.listRegistrySources).mockReset().mockReturnValue(ok([OFFICIAL]));
    vi.mocked(commands.previewRegistryEntry).mockReset().mockReturnValue(ok({ target: "npx -y pkg@1", env: [], headers: [] }));
    search.mockReset().mockImplementation((_text, _registry, cursor) =>
      cursor === null
        ? ok([FIRST_PAGE])
        : ok([{ ...FIRST_PAGE, listings: [{ registry: OFFICIAL.url, version: "1.0.0", ...GITHUB }], skipped: [], nextCursor: null }]),
    );
    addEntry.mockReset().mockReturnValue(ok("filesystem"));
  });

  // Pins: a search shows each registry's entries as cards, says what it left out and why, and "More" appends the
  // next page from the cursor of that registry.
  it("lists a registry's servers, what it left out, and the next page", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PresetsPage />, "/presets");
    await user.click(screen.getByRole("tab", { name: "MCP Registry" }));
    await user.type(screen.getByRole("searchbox", { name: "Search the registry" }), "files");
    await user.click(screen.getByRole("button", { name: "Search" }));
    const section = await screen.findByRole("region", { name: /Official MCP Registry/ });
    expect(within(section).getByRole("heading", { name: "Filesystem" })).toBeInTheDocument();
    expect(search).toHaveBeenCalledWith("files", null, null);
    expect(within(section).getByText("1 entry left out")).toBeInTheDocument();
    expect(within(section).getByRole("list", { name: "Left out" })).toHaveTextContent(
      'io.github.example/old: its status is "deprecated"',
    );
    await user.click(within(section).getByRole("button", { name: "More from Official MCP Registry" }));
    expect(await within(section).findByRole("heading", { name: "GitHub" })).toBeInTheDocument();
    expect(search).toHaveBeenLastCalledWith("files", OFFICIAL.url, "io.github.example/old:1.0.0");
    expect(within(section).queryByRole("button", { name: /More from/ })).not.toBeInTheDocument();
  });

  // Pins: an answer from the offline copy says so with when it was fetched; a registry with nothing cached says
  // why it could not be searched.
  it("says when the results are the offline copy", async () => {
    const user = userEvent.setup();
    search.mockReturnValue(
      ok([
        { ...FIRST_PAGE, cachedAt: 1_764_000_000, problem: "it did not answer in 20 s", nextCursor: null },
        { ...FIRST_PAGE, source: { name: "Ours", url: "https://r.example" }, listings: [], skipped: [], nextCursor: null, problem: "it answered HTTP 503" },
      ]),
    );
    renderWithProviders(<PresetsPage />, "/presets");
    await user.click(screen.getByRole("tab", { name: "MCP Registry" }));
    await user.type(screen.getByRole("searchbox", { name: "Search the registry" }), "files{Enter}");
    expect(await screen.findByText(/Offline: showing the results kept on .*\(it did not answer in 20 s\)/)).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Couldn't search this registry: it answered HTTP 503");
  });

  // Pins: Add opens the same dialog, which previews and adds through the registry's commands with the entry's
  // registry, name and version.
  it("adds an entry through the registry's commands", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PresetsPage />, "/presets");
    await user.click(screen.getByRole("tab", { name: "MCP Registry" }));
    await user.type(screen.getByRole("searchbox", { name: "Search the registry" }), "files{Enter}");
    await user.click(await screen.findByRole("button", { name: "Add Filesystem" }));
    const dialog = await screen.findByRole("dialog");
    const entry = { registry: OFFICIAL.url, name: FILESYSTEM.preset.name, version: "2026.8.31" };
    await waitFor(() => expect(commands.previewRegistryEntry).toHaveBeenCalledWith(entry, {}));
    await user.type(within(dialog).getByRole("textbox", { name: /allowed_folder/ }), "/home/ada");
    await user.click(within(dialog).getByRole("button", { name: "Add server" }));
    expect(addEntry).toHaveBeenCalledWith(entry, "filesystem", { allowed_folder: "/home/ada" });
    expect(commands.addPreset).not.toHaveBeenCalled();
  });
});
