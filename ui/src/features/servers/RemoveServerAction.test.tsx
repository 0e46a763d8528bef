// Tests for Remove on the Servers list: it asks first, Keep and Escape back out, and only the confirming press removes.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import RemoveServerAction from "./RemoveServerAction";

vi.mock("../../ipc/bindings", () => ({ commands: { removeServer: vi.fn() } }));
const removeServer = vi.mocked(commands.removeServer);

describe("RemoveServerAction", () => {
  beforeEach(() => {
    removeServer.mockReset();
    removeServer.mockResolvedValue({ status: "ok", data: 1 });
  });

  // Pins: the first press only asks (focus on Keep); Keep and Escape back out without removing.
  it("asks before removing, and Keep or Escape cancel", async () => {
    const user = userEvent.setup();
    renderWithProviders(<RemoveServerAction server="files" />);
    await user.click(screen.getByRole("button", { name: "Remove files" }));
    expect(screen.getByRole("group", { name: "Confirm removing files" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Keep" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(screen.getByRole("button", { name: "Remove files" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Remove files" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("group")).not.toBeInTheDocument();
    expect(removeServer).not.toHaveBeenCalled();
  });

  // Pins: the confirming press calls remove_server with the name; a failure says why.
  it("removes on the confirming press and shows a failure", async () => {
    const user = userEvent.setup();
    removeServer.mockResolvedValueOnce({ status: "error", error: { code: "NotFound", message: "no server files" } });
    renderWithProviders(<RemoveServerAction server="files" />);
    await user.click(screen.getByRole("button", { name: "Remove files" }));
    await user.click(screen.getByRole("button", { name: "Remove files now" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Couldn't remove: no server files");
    await user.click(screen.getByRole("button", { name: "Remove files" }));
    await user.click(screen.getByRole("button", { name: "Remove files now" }));
    await waitFor(() => expect(removeServer).toHaveBeenCalledTimes(2));
    expect(removeServer).toHaveBeenLastCalledWith("files");
  });
});
