// Tests for the Presets page: the catalog grid (inert text, added state, search) and opening the add dialog.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { ok } from "../../test/importFixtures";
import { renderWithProviders } from "../../test/render";
import { FILESYSTEM, GITHUB } from "./presetFixtures";
import PresetsPage from "./PresetsPage";

vi.mock("../../ipc/bindings", () => ({
  commands: { listPresets: vi.fn(), previewPreset: vi.fn(), addPreset: vi.fn() },
}));

const list = vi.mocked(commands.listPresets);
const preview = vi.mocked(commands.previewPreset);

describe("PresetsPage", () => {
  beforeEach(() => {
    list.mockReset().mockReturnValue(ok([FILESYSTEM, GITHUB]));
    preview.mockReset().mockReturnValue(ok({ target: "npx -y pkg", env: [], headers: [] }));
  });

  // Pins: each preset shows its title, description as inert text (markup shown, hidden characters revealed),
  // how it runs and its package or URL; an added one says under which name.
  it("lists the presets with how they run and whether they are added", async () => {
    renderWithProviders(<PresetsPage />);
    const cards = await screen.findAllByRole("article");
    expect(cards).toHaveLength(2);
    const [fs, gh] = cards as [HTMLElement, HTMLElement];
    expect(within(fs).getByRole("heading", { name: "Filesystem" })).toBeInTheDocument();
    expect(within(fs).getByText("Read and write files\\u{202e} in one folder.")).toBeInTheDocument();
    expect(within(fs).getByText("Local (npx)")).toBeInTheDocument();
    expect(within(fs).getByText("npm · @modelcontextprotocol/server-filesystem@2026.8.31")).toBeInTheDocument();
    expect(within(fs).queryByText(/Added as/)).not.toBeInTheDocument();
    expect(within(gh).getByText("<img src=x onerror=alert(1)> GitHub's hosted server.")).toBeInTheDocument();
    expect(gh.querySelector("img")).toBeNull();
    expect(within(gh).getByText("https://api.githubcopilot.com/mcp/")).toBeInTheDocument();
    expect(within(gh).getByText("Added as github")).toBeInTheDocument();
    // Pins: the accessible name contains the visible text (axe label-content-name-mismatch).
    expect(within(gh).getByRole("button", { name: "Add another GitHub" })).toHaveTextContent("Add another");
  });

  // Pins: the search keeps presets whose text has every word, and says so when none matches.
  it("filters by search", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PresetsPage />);
    await screen.findAllByRole("article");
    await user.type(screen.getByRole("searchbox", { name: "Search presets" }), "githubcopilot");
    expect(screen.getAllByRole("article")).toHaveLength(1);
    expect(screen.getByRole("heading", { name: "GitHub" })).toBeInTheDocument();
    await user.clear(screen.getByRole("searchbox", { name: "Search presets" }));
    await user.type(screen.getByRole("searchbox", { name: "Search presets" }), "nothing like it");
    expect(screen.getByRole("status")).toHaveTextContent('No preset matches "nothing like it".');
  });

  // Pins: "Add" opens a labelled dialog for that preset; Escape closes it and focus returns to that Add button.
  it("opens and closes the add dialog from the keyboard", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PresetsPage />);
    const opener = await screen.findByRole("button", { name: "Add Filesystem" });
    await user.click(opener);
    expect(await screen.findByRole("dialog", { name: "Add Filesystem" })).toBeInTheDocument();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(opener).toHaveFocus());
  });

  // Pins: Cancel closes the dialog and focus goes back to the button that opened it (not to the page's body).
  it("returns focus to the opener after Cancel", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PresetsPage />);
    const opener = await screen.findByRole("button", { name: "Add another GitHub" });
    await user.click(opener);
    await user.click(within(await screen.findByRole("dialog", { name: "Add GitHub" })).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
