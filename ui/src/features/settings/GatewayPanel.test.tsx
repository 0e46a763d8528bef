// Tests for the gateway panel: switching the endpoint on sends the settings and shows the URL; a bad port is said and
// not sent; the token is fetched only when copied and lands on the clipboard, never on the page; replacing it needs
// a second click.
import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import GatewayPanel from "./GatewayPanel";

vi.mock("../../ipc/bindings", () => ({
  commands: {
    gatewayEndpoint: vi.fn(),
    setGatewayEndpoint: vi.fn(),
    gatewayToken: vi.fn(),
    rotateGatewayToken: vi.fn(),
  },
}));

const TOKEN = "pbg_0123456789abcdef";

describe("GatewayPanel", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(commands.gatewayEndpoint).mockResolvedValue({
      status: "ok",
      data: { settings: { enabled: false, port: 7450 }, url: null, problem: null },
    });
    vi.mocked(commands.setGatewayEndpoint).mockImplementation((settings) =>
      Promise.resolve({
        status: "ok",
        data: { settings, url: settings.enabled ? `http://127.0.0.1:${settings.port}/mcp` : null, problem: null },
      }),
    );
    vi.mocked(commands.gatewayToken).mockResolvedValue({ status: "ok", data: TOKEN });
    vi.mocked(commands.rotateGatewayToken).mockResolvedValue({ status: "ok", data: "pbg_new" });
  });

  // Pins: the checkbox sends the settings, and the running URL appears.
  it("switches the endpoint on and shows where it runs", async () => {
    renderWithProviders(<GatewayPanel />);
    await userEvent.click(await screen.findByRole("checkbox", { name: "Serve over HTTP on this computer" }));
    expect(commands.setGatewayEndpoint).toHaveBeenCalledWith({ enabled: true, port: 7450 });
    expect(await screen.findByText("http://127.0.0.1:7450/mcp")).toBeInTheDocument();
  });

  // Pins: while the change is saved the box shows what was asked; it does not snap back between the click and the
  // mutation's own (deferred) pending state, which Playwright's check() caught as "did not change its state".
  it("keeps the box ticked while the change is saved", async () => {
    vi.mocked(commands.setGatewayEndpoint).mockReturnValue(new Promise(() => {}));
    renderWithProviders(<GatewayPanel />);
    const box = await screen.findByRole("checkbox", { name: "Serve over HTTP on this computer" });
    // Synchronously, as a browser's click is: no timer may run between the change and the look at the box.
    fireEvent.click(box);
    expect(box).toBeChecked();
    expect(box).toBeDisabled();
  });

  // Pins: a port below 1024 is explained, and neither the checkbox nor the button can send it.
  it("refuses a port outside 1024–65535", async () => {
    renderWithProviders(<GatewayPanel />);
    const port = await screen.findByRole("textbox", { name: "Port" });
    await userEvent.clear(port);
    await userEvent.type(port, "80");
    expect(screen.getByText("A port is a number from 1024 to 65535.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Use this port" })).toBeDisabled();
    expect(screen.getByRole("checkbox", { name: "Serve over HTTP on this computer" })).toBeDisabled();
    expect(commands.setGatewayEndpoint).not.toHaveBeenCalled();
  });

  // Pins: the token is read only at the click, goes to the clipboard, and is not rendered.
  it("copies the token without showing it", async () => {
    const user = userEvent.setup();
    renderWithProviders(<GatewayPanel />);
    await screen.findByRole("checkbox", { name: "Serve over HTTP on this computer" });
    expect(commands.gatewayToken).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Copy token" }));
    expect(await screen.findByRole("button", { name: "Copied" })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  // Pins: one click only asks; the second replaces the token and says so.
  it("replaces the token only after a confirmation", async () => {
    renderWithProviders(<GatewayPanel />);
    await userEvent.click(await screen.findByRole("button", { name: "Replace token…" }));
    expect(commands.rotateGatewayToken).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: /Replace the token: every app using it/ }));
    expect(commands.rotateGatewayToken).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole("status")).toHaveTextContent("The token was replaced");
  });
});
