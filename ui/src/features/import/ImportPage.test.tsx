// Tests for the Import wizard as a whole, with the IPC module mocked: detect → review → apply → summary.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { CURSOR_PATH, cursorFile, launchingFiles, ok, plan, PROJECT_PATH, sources, summary } from "../../test/importFixtures";
import { renderWithProviders } from "../../test/render";
import ImportPage from "./ImportPage";

vi.mock("../../ipc/bindings", () => ({
  commands: { detectImportSources: vi.fn(), planImport: vi.fn(), applyImport: vi.fn() },
}));

const detect = vi.mocked(commands.detectImportSources);
const planImport = vi.mocked(commands.planImport);
const applyImport = vi.mocked(commands.applyImport);

describe("ImportPage", () => {
  beforeEach(() => {
    detect.mockReset().mockReturnValue(ok(sources()));
    planImport.mockReset().mockReturnValue(ok(plan()));
    applyImport.mockReset().mockReturnValue(ok(summary({ added: ["github"], renamed: [["linear", "linear-2"]], identical: 1, invalid: 1, secretsMoved: 1 })));
  });

  // Pins: the whole flow — found configs, review (entered with Enter), a conflict choice, apply with exactly that
  // choice, the summary — with focus moved to each step's heading.
  it("walks from the configs found to the summary", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);

    expect(screen.getByRole("heading", { level: 1, name: "Import" })).toBeInTheDocument();
    await screen.findByRole("list", { name: "Configs found" });
    const next = await screen.findByRole("button", { name: "Review 4 entries" });
    next.focus();
    await user.keyboard("{Enter}");

    const reviewHeading = screen.getByRole("heading", { level: 2, name: "Review what will be imported" });
    expect(reviewHeading).toHaveFocus();
    expect(screen.getByText(/1 new · 1 identical · 1 conflict · 1 invalid/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Import 1 server" })).toBeEnabled();
    await user.selectOptions(screen.getByRole("combobox", { name: "What to do with linear" }), "rename");
    await user.click(screen.getByRole("button", { name: "Import 2 servers" }));

    await waitFor(() => expect(applyImport).toHaveBeenCalledWith([{ name: "linear", path: CURSOR_PATH, choice: "rename" }]));
    const doneHeading = await screen.findByRole("heading", { level: 2, name: "Import finished" });
    expect(doneHeading).toHaveFocus();
    expect(screen.getByRole("list", { name: "Added" })).toHaveTextContent("github");
    expect(screen.getByRole("list", { name: "Kept both, renamed" })).toHaveTextContent("linear → linear-2");
    expect(screen.getByRole("link", { name: "Go to Servers" })).toHaveAttribute("href", "/servers");
    const steps = screen.getByRole("navigation", { name: "Import steps" });
    expect(within(steps).getByText("Done").closest("li")).toHaveAttribute("aria-current", "step");
  });

  // Pins: a failed apply says nothing was written, keeps the review on screen and the choices as they were.
  it("shows a failed apply and stays on the review", async () => {
    const user = userEvent.setup();
    applyImport.mockReturnValue(Promise.resolve({ status: "error", error: { code: "KeychainUnavailable", message: "no keychain" } }) as never);
    renderWithProviders(<ImportPage />);
    await user.click(await screen.findByRole("button", { name: "Review 4 entries" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "What to do with linear" }), "overwrite");
    await user.click(screen.getByRole("button", { name: "Import 2 servers" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("The import failed and nothing was written: no keychain");
    expect(screen.getByRole("combobox", { name: "What to do with linear" })).toHaveValue("overwrite");
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByRole("heading", { level: 2, name: "Configs on this computer" })).toHaveFocus();
  });

  // Pins: an unticked file sends skip for each of its entries, an unticked new entry skip, the conflict its pick —
  // exactly those choices, with each file's path — and the button counts what is left.
  it("applies with skip for what was unticked", async () => {
    const user = userEvent.setup();
    planImport.mockReturnValue(ok(plan(launchingFiles())));
    renderWithProviders(<ImportPage />);
    await user.click(await screen.findByRole("button", { name: "Review 6 entries" }));
    expect(screen.getByRole("button", { name: "Import 4 servers" })).toBeEnabled();

    await user.click(screen.getByRole("checkbox", { name: `Import this file ${PROJECT_PATH}` }));
    await user.click(screen.getByRole("checkbox", { name: "Add sentry" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "What to do with linear" }), "overwrite");
    await user.click(screen.getByRole("button", { name: "Import 2 servers" }));

    await waitFor(() => expect(applyImport).toHaveBeenCalledTimes(1));
    expect(applyImport).toHaveBeenCalledWith([
      { name: "sentry", path: CURSOR_PATH, choice: "skip" },
      { name: "linear", path: CURSOR_PATH, choice: "overwrite" },
      { name: "sqlite", path: PROJECT_PATH, choice: "skip" },
      { name: "notion", path: PROJECT_PATH, choice: "skip" },
    ]);
  });

  // Pins: Local only sends skip for every remote new or conflicting entry; ticking a file again brings its entries back.
  it("applies Local only and a file ticked again", async () => {
    const user = userEvent.setup();
    planImport.mockReturnValue(ok(plan(launchingFiles())));
    renderWithProviders(<ImportPage />);
    await user.click(await screen.findByRole("button", { name: "Review 6 entries" }));
    const project = screen.getByRole("checkbox", { name: `Import this file ${PROJECT_PATH}` });
    await user.click(project);
    await user.click(project);
    await user.click(screen.getByRole("checkbox", { name: /^Local only/ }));
    await user.click(screen.getByRole("button", { name: "Import 2 servers" }));

    await waitFor(() =>
      expect(applyImport).toHaveBeenCalledWith([
        { name: "sentry", path: CURSOR_PATH, choice: "skip" },
        { name: "linear", path: CURSOR_PATH, choice: "skip" },
        { name: "notion", path: PROJECT_PATH, choice: "skip" },
      ]),
    );
  });

  // Pins: the review counts only the secrets of entries that will be written ("will move"), following the ticks.
  it("counts the secrets that will move as the ticks change", async () => {
    const user = userEvent.setup();
    planImport.mockReturnValue(ok(plan(launchingFiles())));
    renderWithProviders(<ImportPage />);
    await user.click(await screen.findByRole("button", { name: "Review 6 entries" }));
    // github's and notion's; files is identical, so its secret stays where it is.
    expect(screen.getByText(/2 secrets will move to the keychain/)).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Add github" }));
    expect(screen.getByText(/1 secret will move to the keychain/)).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: `Import this file ${PROJECT_PATH}` }));
    expect(screen.queryByText(/will move to the keychain/)).not.toBeInTheDocument();
    expect(screen.queryByText(/moved to/i)).not.toBeInTheDocument();
  });

  // Pins: when nothing would be written the import button says so and is disabled.
  it("offers nothing to import when everything is already there", async () => {
    const user = userEvent.setup();
    planImport.mockReturnValue(ok(plan([cursorFile({ entries: cursorFile().entries.slice(1, 2) })])));
    renderWithProviders(<ImportPage />);
    await user.click(await screen.findByRole("button", { name: "Review 1 entry" }));
    expect(screen.getByRole("button", { name: "Nothing to import" })).toBeDisabled();
  });

  // Pins: with no client config found there is no next step, and the page says how a server is added instead.
  it("says how to add a server when no config is found", async () => {
    detect.mockReturnValue(ok(sources({ found: [] })));
    planImport.mockReturnValue(ok(plan([])));
    renderWithProviders(<ImportPage />);
    expect(await screen.findByText(/nothing to import/)).toBeInTheDocument();
    expect(screen.getByText(/To add a server, write it into Plugboard's config file/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Review/ })).not.toBeInTheDocument();
  });

  // Pins: a failed detection is an alert with the message, and Retry asks again.
  it("offers a retry when detection fails", async () => {
    const user = userEvent.setup();
    detect.mockReturnValueOnce(Promise.resolve({ status: "error", error: { code: "Internal", message: "boom" } }) as never);
    renderWithProviders(<ImportPage />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Couldn't look for configs: boom");
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    await screen.findByRole("list", { name: "Configs found" });
    expect(detect).toHaveBeenCalledTimes(2);
  });

  // Pins: "Import again" starts over on the first step with a fresh plan.
  it("starts over after an import", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await user.click(await screen.findByRole("button", { name: "Review 4 entries" }));
    await user.click(screen.getByRole("button", { name: "Import 1 server" }));
    await user.click(await screen.findByRole("button", { name: "Import again" }));
    expect(screen.getByRole("heading", { level: 2, name: "Configs on this computer" })).toBeInTheDocument();
    await waitFor(() => expect(planImport).toHaveBeenCalledTimes(2));
  });
});
