// Tests for adding a server by hand: the entry built from the form (arguments literal, one per line), the core's
// check shown as the person types, Add saving exactly that entry and opening its page, failures in words.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import PageHeader from "../../../shell/PageHeader";
import AddServerButton from "./AddServerButton";
import { EMPTY_FORM, entryText } from "./newEntry";

vi.mock("../../../ipc/bindings", () => ({
  commands: { checkServerEntry: vi.fn(), addServer: vi.fn(), checkServerProgram: vi.fn() },
}));

const checkServerEntry = vi.mocked(commands.checkServerEntry);
const addServer = vi.mocked(commands.addServer);
const checkServerProgram = vi.mocked(commands.checkServerProgram);

function renderButton() {
  return renderWithProviders(
    <Routes>
      <Route path="/servers" element={<AddServerButton />} />
      <Route path="/servers/:name" element={<PageHeader title="detail page" />} />
    </Routes>,
    "/servers",
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  checkServerEntry.mockResolvedValue({ status: "ok", data: null });
  addServer.mockResolvedValue({ status: "ok", data: null });
  checkServerProgram.mockResolvedValue({ status: "ok", data: null });
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
    expect(addServer).toHaveBeenCalledWith("everything", expected, []);
    // The dialog is gone, and the focus went to the new page's title rather than being lost with it.
    expect(screen.getByRole("heading", { level: 1, name: "detail page" })).toHaveFocus();
  });

  // The dialog opens ready to type the name, not on its close button.
  it("opens with the focus in the Name field", async () => {
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    await screen.findByRole("dialog");
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus();
  });

  // A variable marked secret reaches the entry only as its reference; its value goes with the add, to the keychain.
  it("keeps a secret variable's value out of the entry and sends it to the keychain", async () => {
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    const dialog = await screen.findByRole("dialog");
    await user.type(screen.getByRole("textbox", { name: "Name" }), "gh");
    await user.type(screen.getByRole("textbox", { name: "Program" }), "npx");
    await user.click(screen.getByRole("button", { name: "Add variable" }));
    await user.type(screen.getByRole("textbox", { name: "variable 1 name" }), "GITHUB_TOKEN");
    await user.click(screen.getByRole("checkbox", { name: "Secret" }));
    await user.type(screen.getByLabelText("variable 1 value"), "ghp_supersecret");
    await user.click(screen.getByRole("button", { name: "Add variable" }));
    await user.type(screen.getByRole("textbox", { name: "variable 2 name" }), "LOG_LEVEL");
    await user.type(screen.getByRole("textbox", { name: "variable 2 value" }), "debug");
    const expected = JSON.stringify(
      { command: "npx", env: { GITHUB_TOKEN: "${secret:GITHUB_TOKEN}", LOG_LEVEL: "debug" } },
      null,
      2,
    );
    expect(screen.getByLabelText("variable 1 value")).toHaveAttribute("type", "password");
    expect(dialog).not.toHaveTextContent("ghp_supersecret");
    await waitFor(() => expect(checkServerEntry).toHaveBeenLastCalledWith("gh", expected));
    await user.click(dialog.querySelector('button[type="submit"]') as HTMLButtonElement);
    await waitFor(() =>
      expect(addServer).toHaveBeenCalledWith("gh", expected, [{ name: "GITHUB_TOKEN", value: "ghp_supersecret" }]),
    );
  });

  // A remote server's headers and the OAuth choice are part of the entry.
  it("writes headers and the OAuth section for a remote server", async () => {
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "linear");
    await user.click(screen.getByRole("radio", { name: "A remote URL" }));
    await user.type(screen.getByRole("textbox", { name: "URL" }), "https://mcp.linear.app/mcp");
    await user.click(screen.getByRole("checkbox", { name: /Log in with OAuth/ }));
    await user.click(screen.getByRole("button", { name: "Add header" }));
    await user.type(screen.getByRole("textbox", { name: "header 1 name" }), "X-Team");
    await user.type(screen.getByRole("textbox", { name: "header 1 value" }), "blue");
    const expected = JSON.stringify(
      { url: "https://mcp.linear.app/mcp", headers: { "X-Team": "blue" }, oauth: {} },
      null,
      2,
    );
    await waitFor(() => expect(checkServerEntry).toHaveBeenLastCalledWith("linear", expected));
  });

  // A program that is not installed is said before saving, in the core's words (what to install).
  it("says a missing program before saving", async () => {
    const user = userEvent.setup();
    checkServerProgram.mockResolvedValue({
      status: "ok",
      data: "Could not start `uvx`: it is not installed (not found in the 5 folders of PATH). Install uv (it brings uvx), then retry.",
    });
    renderButton();
    await user.click(screen.getByRole("button", { name: "Add server" }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "fetch");
    await user.type(screen.getByRole("textbox", { name: "Program" }), "uvx");
    expect(await screen.findByText(/Install uv \(it brings uvx\)/)).toBeInTheDocument();
    await waitFor(() => expect(checkServerProgram).toHaveBeenLastCalledWith("uvx"));
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
