// Tests for the add dialog: the command shown before adding, required and secret inputs, the name, errors, and
// landing on the new server's page.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { ok } from "../../test/importFixtures";
import PageHeader from "../../shell/PageHeader";
import { renderWithProviders } from "../../test/render";
import AddPresetDialog from "./AddPresetDialog";
import { FILESYSTEM, GITHUB } from "./presetFixtures";

vi.mock("../../ipc/bindings", () => ({
  commands: { listPresets: vi.fn(), previewPreset: vi.fn(), addPreset: vi.fn(), choosePath: vi.fn() },
}));

const preview = vi.mocked(commands.previewPreset);
const add = vi.mocked(commands.addPreset);

function renderDialog(listing = FILESYSTEM) {
  return renderWithProviders(
    <Routes>
      <Route path="/presets" element={<AddPresetDialog listing={listing} onClose={() => {}} />} />
      <Route path="/servers/:name" element={<PageHeader title="Server detail page" />} />
    </Routes>,
    "/presets",
  );
}

describe("AddPresetDialog", () => {
  beforeEach(() => {
    preview.mockReset().mockImplementation((_preset, inputs) =>
      ok({ target: `npx -y @modelcontextprotocol/server-filesystem@2026.8.31 ${inputs.allowed_folder ?? "<allowed_folder>"}`, env: [], headers: [] }),
    );
    add.mockReset();
  });

  // Pins: a folder input offers the system's folder picker (asked of the backend, titled with the input), and the
  // folder chosen fills the field and the command; a cancelled picker leaves the field as it was; a folder input
  // offers no file picker.
  it("fills a folder input from the system's folder picker", async () => {
    const user = userEvent.setup();
    const choose = vi.mocked(commands.choosePath).mockReset();
    choose.mockReturnValueOnce(ok("/home/ada/My notes")).mockReturnValueOnce(ok(null));
    renderDialog();
    const folder = screen.getByRole("textbox", { name: /allowed_folder \(required\)/ });
    expect(screen.queryByRole("button", { name: "Choose file: allowed_folder" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Choose folder: allowed_folder" }));
    expect(choose).toHaveBeenCalledWith("folder", "Choose the folder for allowed_folder");
    await waitFor(() => expect(folder).toHaveValue("/home/ada/My notes"));
    await waitFor(() =>
      expect(screen.getByTestId("preset-target")).toHaveTextContent("server-filesystem@2026.8.31 /home/ada/My notes"),
    );
    await user.click(screen.getByRole("button", { name: "Choose folder: allowed_folder" }));
    await waitFor(() => expect(choose).toHaveBeenCalledTimes(2));
    expect(folder).toHaveValue("/home/ada/My notes");
  });

  // Pins: before anything is added the dialog shows the exact command (updated as inputs change), the suggested
  // name, and the required input marked; Add sends the preset, name and inputs, then opens the server's page.
  it("shows the command, then adds and navigates to the server", async () => {
    const user = userEvent.setup();
    add.mockReturnValue(ok("files"));
    renderDialog();
    expect(await screen.findByTestId("preset-target")).toHaveTextContent(
      "npx -y @modelcontextprotocol/server-filesystem@2026.8.31 <allowed_folder>",
    );
    const folder = screen.getByRole("textbox", { name: /allowed_folder \(required\)/ });
    expect(folder).toBeRequired();
    expect(folder).toHaveAccessibleDescription("The folder it may use.");
    const name = screen.getByRole("textbox", { name: /Server name/ });
    expect(name).toHaveValue("filesystem");
    await user.type(folder, "/home/ada/notes");
    await waitFor(() =>
      expect(screen.getByTestId("preset-target")).toHaveTextContent("server-filesystem@2026.8.31 /home/ada/notes"),
    );
    await user.clear(name);
    await user.type(name, "files");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(add).toHaveBeenCalledWith("io.github.modelcontextprotocol/filesystem", "files", {
      allowed_folder: "/home/ada/notes",
    });
    // The dialog (and the button that opened it) are gone: focus lands on the new page's heading, not on nothing.
    const heading = await screen.findByRole("heading", { level: 1, name: "Server detail page" });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  // Pins: the dialog opens with focus on its first field (the server's name), not on the ✕ close button.
  it("opens on the Server name field", async () => {
    renderDialog();
    await waitFor(() => expect(screen.getByRole("textbox", { name: /Server name/ })).toHaveFocus());
    expect(screen.getByRole("button", { name: "Close" })).not.toHaveFocus();
  });

  // Pins: a secret input is a password field said to go to the keychain; the preview never receives its value
  // (only "set"), while Add does.
  it("keeps a secret out of the preview", async () => {
    const user = userEvent.setup();
    preview.mockImplementation(() =>
      ok({ target: "https://api.githubcopilot.com/mcp/", env: [], headers: [{ name: "Authorization", template: "Bearer ${secret:github_token}" }] }),
    );
    add.mockReturnValue(ok("github-2"));
    renderDialog(GITHUB);
    const token = screen.getByLabelText(/github_token \(optional\)/);
    expect(token).toHaveAttribute("type", "password");
    expect(token).toHaveAccessibleDescription(/Stored in your keychain, never in servers\.json\./);
    await user.type(token, "ghp_secret");
    await waitFor(() => expect(preview).toHaveBeenLastCalledWith(GITHUB.preset.name, { github_token: "set" }));
    expect(JSON.stringify(preview.mock.calls)).not.toContain("ghp_secret");
    expect(await screen.findByText("Authorization: Bearer ${secret:github_token}")).toBeInTheDocument();
    expect(screen.getByText("Plugboard will connect to")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(add).toHaveBeenCalledWith(GITHUB.preset.name, "github-2", {
      github_token: "ghp_secret",
      oauth_client_id: "",
      oauth_client_secret: "",
    });
  });

  // Pins: a preset whose publisher blocks one-click login says so, in words, before anything is added, with the
  // documentation it was checked against; a preset with nothing to say shows no note.
  it("says when one-click login cannot work", async () => {
    renderDialog(GITHUB);
    expect(await screen.findByRole("note", { name: "About logging in" })).toHaveTextContent(
      "GitHub does not let a new app register itself for OAuth",
    );
    expect(screen.getByLabelText(/oauth_client_secret \(optional\)/)).toHaveAttribute("type", "password");
    expect(screen.getByText(/Checked against the publisher's documentation: .*remote-server\.md/)).toBeInTheDocument();
  });

  // Pins: an input with choices is a list of exactly those choices (plus "none" when optional).
  it("offers an input's choices as a list", async () => {
    const choices = {
      ...FILESYSTEM,
      preset: {
        ...FILESYSTEM.preset,
        inputs: [
          {
            key: "SANDBOX",
            description: "Use the sandbox.",
            required: false,
            secret: false,
            default: null,
            path: null,
            placeholder: null,
            choices: ["true"],
          },
        ],
      },
    };
    renderDialog(choices);
    const list = await screen.findByRole("combobox", { name: /SANDBOX \(optional\)/ });
    expect([...(list as HTMLSelectElement).options].map((o) => o.value)).toEqual(["", "true"]);
    expect(screen.queryByRole("note")).not.toBeInTheDocument();
  });

  // Pins: a refused add (a taken name) shows the backend's message as an alert and stays on the dialog.
  it("shows why an add failed", async () => {
    const user = userEvent.setup();
    add.mockReturnValue(
      Promise.resolve({
        status: "error",
        error: { code: "AlreadyExists", message: 'a server named "filesystem" already exists; "filesystem-2" is free' },
      }) as never,
    );
    renderDialog();
    await user.type(screen.getByRole("textbox", { name: /allowed_folder/ }), "/tmp");
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(await screen.findByRole("alert")).toHaveTextContent('"filesystem-2" is free');
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });
});
