// Tests for sharing a server: each button copies what the backend makes (the install link, a client's config),
// fetched only at the click.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { ok } from "../../test/importFixtures";
import { renderWithProviders } from "../../test/render";
import ShareServer from "./ShareServer";

vi.mock("../../ipc/bindings", () => ({ commands: { installLinkFor: vi.fn(), clientConfigFor: vi.fn() } }));

describe("ShareServer", () => {
  beforeEach(() => {
    vi.mocked(commands.installLinkFor).mockReset().mockReturnValue(ok("plugboard://install?name=gh&config=e30"));
    vi.mocked(commands.clientConfigFor).mockReset().mockReturnValue(ok('{"mcpServers":{}}'));
  });

  // Pins: nothing is fetched before a click; "Copy install link" and "Copy config for VS Code" ask the backend for
  // exactly that server and shape, and the copied text is what it answered.
  it("copies the link and a client's config on request", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ShareServer server="gh" />);
    expect(commands.installLinkFor).not.toHaveBeenCalled();
    await user.click(screen.getByText("Share this server"));
    await user.click(screen.getByRole("button", { name: "Copy install link" }));
    expect(commands.installLinkFor).toHaveBeenCalledWith("gh");
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe("plugboard://install?name=gh&config=e30"));
    await user.click(screen.getByRole("button", { name: "Copy config for VS Code" }));
    expect(commands.clientConfigFor).toHaveBeenCalledWith("gh", "vs-code");
  });
});
