// Tests for a server's Secrets panel: which secrets are stored, setting one through a password field (cleared after,
// never shown back), connecting a server that was waiting for it, and deleting one.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import SecretsPanel from "./SecretsPanel";

vi.mock("../../../ipc/bindings", () => ({
  commands: { serverSecrets: vi.fn(), setSecret: vi.fn(), deleteSecret: vi.fn(), connectServer: vi.fn() },
  events: { configChanged: { listen: vi.fn() } },
}));

const ok = { status: "ok" as const, data: null };

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(events.configChanged.listen).mockResolvedValue(vi.fn());
  vi.mocked(commands.serverSecrets).mockResolvedValue({
    status: "ok",
    data: [
      { name: "GITHUB_TOKEN", stored: false },
      { name: "TEAM", stored: true },
    ],
  });
  vi.mocked(commands.setSecret).mockResolvedValue(ok);
  vi.mocked(commands.deleteSecret).mockResolvedValue(ok);
  vi.mocked(commands.connectServer).mockResolvedValue(ok);
});

describe("SecretsPanel", () => {
  // A missing secret is typed once into a password field, stored, the field emptied, and the failed server connected.
  it("stores a missing secret and connects the server that waited for it", async () => {
    const user = userEvent.setup();
    renderWithProviders(<SecretsPanel server="gh" status={{ state: "failed", error: "not set", stderrTail: null }} />);
    expect(await screen.findByText("Not set")).toBeInTheDocument();
    expect(screen.getByText("Stored in the keychain")).toBeInTheDocument();
    const field = screen.getByLabelText("GITHUB_TOKEN");
    expect(field).toHaveAttribute("type", "password");
    await user.type(field, "ghp_secret_value");
    await user.click(screen.getByRole("button", { name: "Save GITHUB_TOKEN" }));
    await waitFor(() => expect(commands.setSecret).toHaveBeenCalledWith("gh", "GITHUB_TOKEN", "ghp_secret_value"));
    await waitFor(() => expect(commands.connectServer).toHaveBeenCalledWith("gh"));
    await waitFor(() => expect(field).toHaveValue(""));
    expect(document.body).not.toHaveTextContent("ghp_secret_value");
  });

  // A ready server is not reconnected by a replaced secret (the person restarts it when they choose).
  it("replaces a stored secret of a ready server without reconnecting it", async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <SecretsPanel server="gh" status={{ state: "ready", tools: 2, protocolVersion: "2025-11-25", serverName: null }} />,
    );
    await user.type(await screen.findByLabelText("TEAM"), "red");
    await user.click(screen.getByRole("button", { name: "Replace TEAM" }));
    await waitFor(() => expect(commands.setSecret).toHaveBeenCalledWith("gh", "TEAM", "red"));
    expect(commands.connectServer).not.toHaveBeenCalled();
  });

  // Delete removes a stored secret; an empty field saves nothing.
  it("deletes a stored secret and never saves an empty value", async () => {
    const user = userEvent.setup();
    renderWithProviders(<SecretsPanel server="gh" status={undefined} />);
    await user.click(await screen.findByRole("button", { name: "Save GITHUB_TOKEN" }));
    expect(commands.setSecret).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Delete TEAM" }));
    await waitFor(() => expect(commands.deleteSecret).toHaveBeenCalledWith("gh", "TEAM"));
  });

  // A server whose entry names no secret gets no panel.
  it("is absent for a server without secret references", async () => {
    vi.mocked(commands.serverSecrets).mockResolvedValue({ status: "ok", data: [] });
    renderWithProviders(<SecretsPanel server="plain" status={undefined} />);
    await waitFor(() => expect(commands.serverSecrets).toHaveBeenCalled());
    expect(screen.queryByRole("heading", { name: "Secrets" })).not.toBeInTheDocument();
  });
});
