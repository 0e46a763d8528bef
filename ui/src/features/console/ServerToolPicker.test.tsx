// Tests for the server and tool pickers: keyboard picking with type-to-filter, inert option text, and empty states.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ToolInfo } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import { stubLayout } from "../../test/layoutStubs";
import ServerToolPicker from "./ServerToolPicker";

stubLayout();

function tool(name: string, fields: Partial<ToolInfo> = {}): ToolInfo {
  return { name, exposedName: `mcp__s__${name}`, title: null, description: null, allowed: true, withheld: null, hiddenContent: [], inputSchema: "{}", ...fields };
}

function renderPicker(props: Partial<Parameters<typeof ServerToolPicker>[0]> = {}) {
  const onServer = vi.fn();
  const onTool = vi.fn();
  renderWithProviders(
    <ServerToolPicker
      servers={["alpha", "everything"]}
      server="everything"
      tools={[tool("echo", { title: "Echo", description: "Echoes back" }), tool("add"), tool("longRunningOperation")]}
      toolsError={null}
      tool={null}
      onServer={onServer}
      onTool={onTool}
      {...props}
    />,
  );
  return { onServer, onTool };
}

describe("ServerToolPicker", () => {
  // Pins: the server picker opens from the keyboard, arrows move, Enter picks the highlighted server.
  it("picks a server with the keyboard", async () => {
    const user = userEvent.setup();
    const { onServer } = renderPicker({ server: null, tools: undefined });

    screen.getByRole("button", { name: /Server/ }).focus();
    await user.keyboard("{Enter}");
    const search = await screen.findByRole("combobox", { name: "Search servers" });
    expect(search).toHaveFocus();
    await user.keyboard("{ArrowDown}{Enter}");
    expect(onServer).toHaveBeenCalledWith("everything");
  });

  // Pins: the open picker is a dialog named by its visible label (axe aria-dialog-name).
  it("names the open picker by its label", async () => {
    const user = userEvent.setup();
    renderPicker();
    await user.click(screen.getByRole("button", { name: /Tool/ }));
    expect(await screen.findByRole("dialog", { name: "Tool" })).toBeInTheDocument();
  });

  // Pins: typing filters the tools (also by description) and Enter picks the first match by its raw name.
  it("filters the tools as you type and picks with Enter", async () => {
    const user = userEvent.setup();
    const { onTool } = renderPicker();

    await user.click(screen.getByRole("button", { name: /Tool/ }));
    await user.type(await screen.findByRole("combobox", { name: "Search tools" }), "echoes");
    expect(screen.getAllByRole("option")).toHaveLength(1);
    expect(screen.getByRole("option")).toHaveTextContent("echoEchoEchoes back");
    await user.keyboard("{Enter}");
    expect(onTool).toHaveBeenCalledWith("echo");
  });

  // Pins: server-supplied tool text is inert and hidden characters are made visible.
  it("shows hostile tool text inert", async () => {
    const user = userEvent.setup();
    renderPicker({ tools: [tool("x\u202eevil", { description: "<img src=x onerror=alert(1)><script>alert(2)</script>" })] });

    await user.click(screen.getByRole("button", { name: /Tool/ }));
    const option = await screen.findByRole("option");
    expect(option).toHaveTextContent("x\\u{202e}evil");
    expect(option).toHaveTextContent("<img src=x onerror=alert(1)><script>alert(2)</script>");
    expect(document.querySelector("img, script")).toBeNull();
  });

  // Pins: with no Ready server the picker says so and cannot open; the tool picker waits for a server.
  it("says when no server is ready", () => {
    renderPicker({ servers: [], server: null, tools: undefined });
    expect(screen.getByRole("button", { name: /Server No server is ready/ })).toBeDisabled();
    expect(screen.getByRole("button", { name: /Tool Pick a server first/ })).toBeDisabled();
  });
});
