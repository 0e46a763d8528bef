// Tests for the change dialog: the diff is shown before anything is written, the confirmation carries the digest
// of what was shown, a file changed meanwhile is planned and shown again (never written), and the next step is said.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type ChangeRequest } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import ChangeDialog from "./ChangeDialog";
import { preview } from "./clientFixtures";

vi.mock("../../ipc/bindings", () => ({
  commands: { planClientChange: vi.fn(), applyClientChange: vi.fn() },
}));

const CONNECT: ChangeRequest = { kind: "connect", client: "cursor", profile: null, moveDuplicates: false };

function show(request: ChangeRequest = CONNECT) {
  const onClose = vi.fn();
  renderWithProviders(<ChangeDialog request={request} label="Cursor" opener={null} onClose={onClose} />);
  return onClose;
}

describe("ChangeDialog", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(commands.planClientChange).mockResolvedValue({ status: "ok", data: preview() });
    vi.mocked(commands.applyClientChange).mockResolvedValue({ status: "ok", data: preview() });
  });

  // Pins: the diff is on screen and nothing is applied until the button; the apply sends the shown digest; the
  // next step follows.
  it("shows the diff, then writes what was shown and says what is next", async () => {
    show();
    expect(await screen.findByLabelText("The change to the file")).toHaveTextContent('"plugboard": {');
    expect(commands.applyClientChange).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Write this change" }));
    expect(commands.applyClientChange).toHaveBeenCalledWith(CONNECT, "d1");
    const next = await screen.findByText(/open Cursor's Settings → MCP/);
    expect(next).toHaveTextContent("Next: open Cursor's Settings → MCP and turn the plugboard server on");
    expect(screen.getByRole("button", { name: "Close" })).toBeInTheDocument();
  });

  // Pins: when the file changed under the shown diff, nothing was written: the new plan is shown with a word, and
  // the next confirmation carries the new digest.
  it("plans again when the file changed since it was shown", async () => {
    vi.mocked(commands.planClientChange)
      .mockResolvedValueOnce({ status: "ok", data: preview() })
      .mockResolvedValueOnce({ status: "ok", data: preview({ digest: "d2", diff: "+ edited meanwhile\n" }) });
    vi.mocked(commands.applyClientChange)
      .mockResolvedValueOnce({ status: "error", error: { code: "ChangedOnDisk", message: "changed since shown" } })
      .mockResolvedValueOnce({ status: "ok", data: preview({ digest: "d2" }) });
    show();
    await userEvent.click(await screen.findByRole("button", { name: "Write this change" }));
    expect(await screen.findByText(/The file changed since you saw the change/)).toBeInTheDocument();
    expect(await screen.findByText("+ edited meanwhile")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Write this change" }));
    expect(vi.mocked(commands.applyClientChange).mock.calls.map((args) => args[1])).toEqual(["d1", "d2"]);
    expect(await screen.findByText(/Cursor is connected to Plugboard/)).toBeInTheDocument();
  });

  // Pins: a change that would change nothing offers no write, only Close.
  it("offers nothing to write when nothing would change", async () => {
    vi.mocked(commands.planClientChange).mockResolvedValue({ status: "ok", data: preview({ noop: true, diff: "" }) });
    show();
    expect(await screen.findByText(/already launches this Plugboard/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Write this change" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Close" })).toBeInTheDocument();
  });

  // Pins: a restore to what the file already holds writes nothing but still lets the backup go.
  it("drops the backup of a file that already holds its original", async () => {
    const restore: ChangeRequest = { kind: "restore", client: "cursor" };
    vi.mocked(commands.planClientChange).mockResolvedValue({ status: "ok", data: preview({ kind: "restore", noop: true, diff: "" }) });
    vi.mocked(commands.applyClientChange).mockResolvedValue({ status: "ok", data: preview({ kind: "restore", noop: true }) });
    show(restore);
    expect(await screen.findByText(/already holds what it held before Plugboard changed it/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Drop the backup" }));
    expect(commands.applyClientChange).toHaveBeenCalledWith(restore, "d1");
    expect(await screen.findByText(/as it was before Plugboard changed it/)).toBeInTheDocument();
  });

  // Pins: a file that cannot be planned (it does not parse) is said, with its position, and nothing is offered.
  it("says why nothing can be planned", async () => {
    vi.mocked(commands.planClientChange).mockResolvedValue({
      status: "error",
      error: { code: "InvalidConfig", field: null, message: "/h/.cursor/mcp.json does not parse (line 3, column 7)" },
    });
    show({ kind: "disconnect", client: "cursor" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Nothing was changed: /h/.cursor/mcp.json does not parse (line 3, column 7)");
    expect(screen.getByRole("dialog", { name: "Disconnect Cursor" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Remove the entry" })).not.toBeInTheDocument();
  });
});
