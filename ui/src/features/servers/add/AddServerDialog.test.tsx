// Tests for adding a server by hand: the entry built from the form (arguments literal, one per line), the core's
// check shown as the person types, Add saving exactly that entry and opening its page, failures in words.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import AddServerButton from "./AddServerButton";
import { EMPTY_FORM, entryText } from "./newEntry";

vi.mock("../../../ipc/bindings", () => ({
  commands: { checkServerEntry: vi.fn(), addServer: vi.fn() },
}));

const checkServerEntry = vi.mocked(commands.checkServerEntry);
const addServer = vi.mocked(commands.addServer);

function renderButton() {
  return renderWithProviders(
    <Routes>
      <Route path="/servers" element={<AddServerButton />} />
      <Route path="/servers/:name" element={<p>detail page</p>} />
    </Routes>,
    "/servers",
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  checkServerEntry.mockResolvedValue({ status: "ok", data: null });
  addServer.mockResolvedValue({ status: "ok", data: null });
});

describe("entryText", () => {
  it("keeps each argument line literally and drops blank lines", () => {
    const form = { ...EMPTY_FORM, command: " npx ", argumentLines: '-y\n\n@scope/pkg "quoted" $HOME\n' };
    expect(JSON.parse(entryText(form))).toEqual({ command: "npx", args: ["-y", '@scope/pkg "quoted" $HOME'] });
    expect(JSON.parse(entryText({ ...form, argumentLines: "" }))).toEqual({ command: "npx" });
  });

  it("writes a URL with the chosen transport, or none to detect it", () => {
    const form = { ...EMPTY_FORM, kind: "url" as const, url: "https://mcp.example/mcp" };
    expect(JSON.parse(entryText(form))).toEqual({ url: "https://mcp.example/mcp" });
    expect(JSON.parse(entryText({ ...form, transport: "sse" }))).toEqual({ type: "sse", url: "https://mcp.example/mcp" });
  });
});

describe("AddServerDialog", () => {
  it("adds exactly the entry it shows and opens the new server's page", async () => {
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    const dialog = await screen.findByRole("dialog", { name: "Add a server" });
    await user.type(screen.getByRole("textbox", { name: "Name" }), "everything");
    await user.type(screen.getByRole("textbox", { name: "Program" }), "npx");
    await user.type(screen.getByRole("textbox", { name: /Arguments/ }), "-y{Enter}@modelcontextprotocol/server-everything");
    const expected = JSON.stringify({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] }, null, 2);
    expect(dialog).toHaveTextContent(expected.replace(/\s+/g, " ").trim(), { normalizeWhitespace: true });
    await waitFor(() => expect(checkServerEntry).toHaveBeenLastCalledWith("everything", expected));
    await user.click(screen.getByRole("button", { name: "Add server" }));
    expect(await screen.findByText("detail page")).toBeInTheDocument();
    expect(addServer).toHaveBeenCalledWith("everything", expected);
  });

  it("shows the core's problem as the person types and keeps Add disabled", async () => {
    const user = userEvent.setup();
    checkServerEntry.mockResolvedValue({
      status: "ok",
      data: { field: "url", message: "only http and https URLs can be used, not ftp", line: 2, column: 3 },
    });
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "remote");
    await user.click(screen.getByRole("radio", { name: "A remote URL" }));
    await user.type(screen.getByRole("textbox", { name: "URL" }), "ftp://x");
    expect(await screen.findByText(/url: only http and https URLs/)).toBeInTheDocument();
    const dialog = screen.getByRole("dialog");
    expect(dialog.querySelector('button[type="submit"]')).toBeDisabled();
  });

  it("says why an add failed and keeps what was typed", async () => {
    const user = userEvent.setup();
    addServer.mockResolvedValue({ status: "error", error: { code: "AlreadyExists", message: 'a server named "files" already exists' } });
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "files");
    await user.type(screen.getByRole("textbox", { name: "Program" }), "mcp-files");
    await waitFor(() => expect(checkServerEntry).toHaveBeenCalled());
    const dialog = screen.getByRole("dialog");
    await user.click(dialog.querySelector('button[type="submit"]') as HTMLButtonElement);
    expect(await screen.findByRole("alert")).toHaveTextContent('Couldn\'t add the server: a server named "files" already exists');
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("files");
  });

  it("closes on Escape without adding", async () => {
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    await screen.findByRole("dialog");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(addServer).not.toHaveBeenCalled();
  });
});
