// Tests for the raw config editor: validation by the core as the person types (with line and column), saving
// through update_server, ChangedOnDisk in words, and external edits shown live without losing unsaved work.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type ConfigChanged } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import ConfigEditor from "./ConfigEditor";

vi.mock("../../../ipc/bindings", () => ({
  commands: { getServer: vi.fn(), checkServerEntry: vi.fn(), updateServer: vi.fn() },
  events: { configChanged: { listen: vi.fn() } },
}));

// CodeMirror needs a laid-out page; its own test covers it. Here a textarea stands in, with the same props.
vi.mock("./JsonCodeEditor", () => ({
  default: (props: {
    value: string;
    onChange: (text: string) => void;
    onSave?: () => void;
    label: string;
    problem: { line: number; column: number } | null;
  }) => (
    <textarea
      aria-label={props.label}
      value={props.value}
      data-problem={props.problem === null ? "" : `${props.problem.line}:${props.problem.column}`}
      onChange={(event) => props.onChange(event.target.value)}
      onKeyDown={(event) => event.key === "s" && event.ctrlKey && props.onSave?.()}
    />
  ),
}));

const getServer = vi.mocked(commands.getServer);
const checkServerEntry = vi.mocked(commands.checkServerEntry);
const updateServer = vi.mocked(commands.updateServer);
const listenConfigChanged = vi.mocked(events.configChanged.listen);
const ENTRY = '{\n  "command": "npx"\n}';
let emitConfigChanged: (payload: ConfigChanged) => void;

/** Replaces the editor's whole text, as typing or pasting would. */
function setText(text: string) {
  fireEvent.change(screen.getByRole("textbox", { name: "Entry of files as JSON" }), { target: { value: text } });
}

describe("ConfigEditor", () => {
  beforeEach(() => {
    getServer.mockReset();
    getServer.mockResolvedValue({ status: "ok", data: ENTRY });
    checkServerEntry.mockReset();
    checkServerEntry.mockResolvedValue({ status: "ok", data: null });
    updateServer.mockReset();
    updateServer.mockResolvedValue({ status: "ok", data: null });
    listenConfigChanged.mockReset();
    listenConfigChanged.mockImplementation((callback) => {
      emitConfigChanged = (payload) => callback({ event: "config-changed", id: 1, payload });
      return Promise.resolve(vi.fn());
    });
  });

  // Pins: the entry is shown as the file has it, checked by the core, and Save is off until something changes.
  it("shows the entry and says it is valid", async () => {
    renderWithProviders(<ConfigEditor server="files" />);

    const editor = await screen.findByRole("textbox", { name: "Entry of files as JSON" });
    expect(editor).toHaveValue(ENTRY);
    expect(await screen.findByText("The entry is valid.")).toBeInTheDocument();
    expect(checkServerEntry).toHaveBeenCalledWith("files", ENTRY);
    expect(screen.getByRole("button", { name: "Save entry" })).toHaveAttribute("aria-disabled", "true");
  });

  // Pins: an invalid edit shows the core's problem with its line, column and field, marks it in the editor, and
  // blocks saving; fixing it enables Save, which writes through update_server.
  it("validates as you type and saves a valid entry", async () => {
    const user = userEvent.setup();
    const bad = '{\n  "url": "ftp://x"\n}';
    checkServerEntry.mockImplementation((_name, text) =>
      Promise.resolve({
        status: "ok",
        data: text === bad ? { field: "url", message: "the ftp: scheme is not allowed", line: 2, column: 3 } : null,
      }),
    );
    renderWithProviders(<ConfigEditor server="files" />);
    await screen.findByText("The entry is valid.");

    setText(bad);
    expect(await screen.findByText("Line 2, column 3 (url): the ftp: scheme is not allowed")).toBeInTheDocument();
    expect(screen.getByRole("textbox")).toHaveAttribute("data-problem", "2:3");
    await user.click(screen.getByRole("button", { name: "Save entry" }));
    expect(updateServer).not.toHaveBeenCalled();

    const good = '{\n  "command": "node"\n}';
    setText(good);
    expect(await screen.findByText(/The entry is valid\. Save to apply it/)).toBeInTheDocument();
    getServer.mockResolvedValue({ status: "ok", data: good });
    await user.click(screen.getByRole("button", { name: "Save entry" }));
    expect(updateServer).toHaveBeenCalledWith("files", good);
    await waitFor(() => expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument());
  });

  // Pins: Ctrl+S in the editor saves too (the keyboard path of the Save button).
  it("saves with Ctrl+S", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ConfigEditor server="files" />);
    await screen.findByText("The entry is valid.");
    setText('{ "command": "uvx" }');
    await screen.findByText(/Save to apply it/);
    await user.type(screen.getByRole("textbox"), "{Control>}s{/Control}");
    expect(updateServer).toHaveBeenCalledWith("files", '{ "command": "uvx" }');
  });

  // Pins: ChangedOnDisk is explained in words, not as the backend's raw message.
  it("explains ChangedOnDisk in words", async () => {
    const user = userEvent.setup();
    updateServer.mockResolvedValue({
      status: "error",
      error: { code: "ChangedOnDisk", message: "/x/servers.json was changed by another program" },
    });
    renderWithProviders(<ConfigEditor server="files" />);
    await screen.findByText("The entry is valid.");
    setText('{ "command": "uvx" }');
    await screen.findByText(/Save to apply it/);
    await user.click(screen.getByRole("button", { name: "Save entry" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Couldn't save the entry: another program changed servers.json while you were editing.",
    );
  });

  // Pins: without unsaved changes an external edit appears by itself; with them, the edit is kept and the person
  // is told the file changed, with a button to load the file's version.
  it("follows external edits without losing unsaved work", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ConfigEditor server="files" />);
    const editor = await screen.findByRole("textbox", { name: "Entry of files as JSON" });
    await screen.findByText("The entry is valid.");

    getServer.mockResolvedValue({ status: "ok", data: '{ "command": "outside-1" }' });
    act(() => emitConfigChanged({ kind: "reloaded", problem: null }));
    await waitFor(() => expect(editor).toHaveValue('{ "command": "outside-1" }'));

    setText('{ "command": "mine" }');
    getServer.mockResolvedValue({ status: "ok", data: '{ "command": "outside-2" }' });
    act(() => emitConfigChanged({ kind: "reloaded", problem: null }));
    expect(await screen.findByText(/servers\.json changed on disk while you were editing/)).toBeInTheDocument();
    expect(editor).toHaveValue('{ "command": "mine" }');
    await user.click(screen.getByRole("button", { name: "Discard my changes and load it" }));
    expect(editor).toHaveValue('{ "command": "outside-2" }');
  });
});
