// Tests for the desktop panel: starting at login is read from the backend (off by default), and the checkbox asks
// the backend to change it, showing what is then in effect.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import DesktopPanel from "./DesktopPanel";

vi.mock("../../ipc/bindings", () => ({
  commands: { launchAtLogin: vi.fn(), setLaunchAtLogin: vi.fn() },
}));

describe("DesktopPanel", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(commands.launchAtLogin).mockResolvedValue({ status: "ok", data: false });
    vi.mocked(commands.setLaunchAtLogin).mockImplementation((on) => Promise.resolve({ status: "ok", data: on }));
  });

  // Pins: off as the backend says; a click turns it on through the backend and the box shows the answer.
  it("turns starting at login on", async () => {
    renderWithProviders(<DesktopPanel />);
    const box = await screen.findByRole("checkbox", { name: /Start Plugboard when I log in/ });
    await vi.waitFor(() => expect(box).toBeEnabled());
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    expect(commands.setLaunchAtLogin).toHaveBeenCalledWith(true);
    await vi.waitFor(() => expect(box).toBeChecked());
  });

  // Pins: a failure to change it is said, and the box goes back to what is in effect.
  it("says when it cannot change it", async () => {
    vi.mocked(commands.setLaunchAtLogin).mockResolvedValue({
      status: "error",
      error: { code: "Internal", message: "cannot change starting at login: read-only home" },
    });
    renderWithProviders(<DesktopPanel />);
    const box = await screen.findByRole("checkbox", { name: /Start Plugboard when I log in/ });
    await vi.waitFor(() => expect(box).toBeEnabled());
    await userEvent.click(box);
    expect(await screen.findByRole("alert")).toHaveTextContent("read-only home");
    expect(box).not.toBeChecked();
  });
});
