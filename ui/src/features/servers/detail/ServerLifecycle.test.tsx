// Tests for a server's lifecycle controls on its page: turning it on and off, restarting it, renaming it (the page
// follows the new name), and a failure said in words.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import ServerLifecycle from "./ServerLifecycle";

vi.mock("../../../ipc/bindings", () => ({
  commands: { setServerEnabled: vi.fn(), restartServer: vi.fn(), renameServer: vi.fn(), listServers: vi.fn() },
}));

const ok = { status: "ok" as const, data: null };

function renderAt(enabled: boolean, state: "disabled" | "ready" | "failed") {
  const status =
    state === "ready"
      ? { state, tools: 1, protocolVersion: "2025-11-25", serverName: null }
      : state === "failed"
        ? { state, error: "Boom", stderrTail: null }
        : { state };
  return renderWithProviders(
    <Routes>
      <Route path="/servers/files" element={<ServerLifecycle server="files" enabled={enabled} status={status} />} />
      <Route path="/servers/:name" element={<p>moved page</p>} />
    </Routes>,
    "/servers/files",
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(commands.setServerEnabled).mockResolvedValue(ok);
  vi.mocked(commands.restartServer).mockResolvedValue(ok);
  vi.mocked(commands.renameServer).mockResolvedValue(ok);
});

describe("ServerLifecycle", () => {
  // A disabled server's page offers Turn on, which enables it in servers.json; no Restart for a server that is off.
  it("turns a disabled server on", async () => {
    const user = userEvent.setup();
    renderAt(false, "disabled");
    expect(screen.queryByRole("button", { name: "Restart" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    expect(commands.setServerEnabled).toHaveBeenCalledWith("files", true);
  });

  // An enabled server can be turned off and restarted.
  it("turns an enabled server off and restarts it", async () => {
    const user = userEvent.setup();
    renderAt(true, "ready");
    await user.click(screen.getByRole("button", { name: "Restart" }));
    expect(commands.restartServer).toHaveBeenCalledWith("files");
    await user.click(screen.getByRole("button", { name: "Turn off" }));
    expect(commands.setServerEnabled).toHaveBeenCalledWith("files", false);
  });

  // Rename saves the new (trimmed) name and moves the page to it.
  it("renames and follows the server to its new name", async () => {
    const user = userEvent.setup();
    renderAt(true, "failed");
    await user.click(screen.getByRole("button", { name: "Rename" }));
    const field = screen.getByRole("textbox", { name: "New name" });
    await user.clear(field);
    await user.type(field, " notes {Enter}");
    expect(commands.renameServer).toHaveBeenCalledWith("files", "notes");
    expect(await screen.findByText("moved page")).toBeInTheDocument();
  });

  // A refused rename is said, and the form stays open with what was typed.
  it("says why a rename failed", async () => {
    const user = userEvent.setup();
    vi.mocked(commands.renameServer).mockResolvedValue({
      status: "error",
      error: { code: "AlreadyExists", message: 'a server named "notes" already exists' },
    });
    renderAt(true, "ready");
    await user.click(screen.getByRole("button", { name: "Rename" }));
    const field = screen.getByRole("textbox", { name: "New name" });
    await user.clear(field);
    await user.type(field, "notes{Enter}");
    expect(await screen.findByText(/Couldn't rename: a server named "notes" already exists/)).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveValue("notes"));
  });
});
