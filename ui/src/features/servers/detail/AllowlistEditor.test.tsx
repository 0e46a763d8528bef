// Tests for the allowlist editor: tools with exposed names and inert descriptions, search, select all/none, saving
// "all tools" vs a list, entries that match no tool, save errors in words, and a virtualised long list.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type AllowlistView, type ToolInfo } from "../../../ipc/bindings";
import { fakeLayoutForFile } from "../../../test/layout";
import { renderWithProviders } from "../../../test/render";
import AllowlistEditor from "./AllowlistEditor";

vi.mock("../../../ipc/bindings", () => ({
  commands: { setServerTools: vi.fn() },
}));

const setServerTools = vi.mocked(commands.setServerTools);
const HOSTILE = "<img src=x onerror=alert(1)><script>alert(2)</script> hidden\u200bspace";

function tool(name: string, fields: Partial<ToolInfo> = {}): ToolInfo {
  return {
    name,
    exposedName: `mcp__everything__${name}`,
    title: null,
    description: `Does ${name}`,
    allowed: true,
    withheld: null, hiddenContent: [],
    inputSchema: "{}",
    ...fields,
  };
}

const ALL: AllowlistView = {
  entries: null,
  tools: [tool("echo"), tool("add"), tool("printEnv", { description: HOSTILE })],
  unknownEntries: [],
  withheldBesidesTools: [],
};

/** The editor for server "everything" over `view`, ready unless told otherwise. */
function renderEditor(view: AllowlistView = ALL, ready = true) {
  return renderWithProviders(<AllowlistEditor server="everything" view={view} ready={ready} />);
}

fakeLayoutForFile(76);

describe("AllowlistEditor", () => {
  beforeEach(() => {
    setServerTools.mockReset();
    setServerTools.mockResolvedValue({ status: "ok", data: null });
  });

  // Pins: each tool is a labelled checkbox with its exposed name (from the core) and its description as text.
  it("lists every tool with its exposed name and an inert description", () => {
    const { container } = renderEditor();

    const list = screen.getByRole("list", { name: "Tools" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    const echo = screen.getByRole("checkbox", { name: "echo" });
    expect(echo).toBeChecked();
    expect(echo).toHaveAccessibleDescription("mcp__everything__echo Does echo");
    expect(screen.getByText("mcp__everything__printEnv")).toBeInTheDocument();
    expect(screen.getByText(/<img src=x onerror=alert\(1\)><script>alert\(2\)<\/script>/)).toHaveTextContent(
      "hidden\\u{200b}space",
    );
    expect(container.querySelector("img, script")).toBeNull();
    expect(screen.getByRole("radio", { name: /All tools/ })).toBeChecked();
  });

  // Pins: unticking one tool under "all tools" saves the explicit list of the others.
  it("saves an explicit list after unticking a tool", async () => {
    const user = userEvent.setup();
    renderEditor();

    const save = screen.getByRole("button", { name: "Save allowlist" });
    expect(save).toHaveAttribute("aria-disabled", "true");
    await user.click(screen.getByRole("checkbox", { name: "add" }));
    expect(screen.getByRole("radio", { name: /Only the ticked tools/ })).toBeChecked();
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await user.click(save);

    expect(setServerTools).toHaveBeenCalledWith("everything", ["echo", "printEnv"]);
    expect(await screen.findByText(/Saved\. The server reconnects/)).toBeInTheDocument();
  });

  // Pins: going back to "All tools" saves null (no `tools` key), not the current names.
  it("saves 'all tools' as no list", async () => {
    const user = userEvent.setup();
    renderEditor({ ...ALL, entries: ["echo"], tools: ALL.tools.map((t) => ({ ...t, allowed: t.name === "echo" })) });

    expect(screen.getByRole("checkbox", { name: "add" })).not.toBeChecked();
    await user.click(screen.getByRole("radio", { name: /All tools/ }));
    await user.click(screen.getByRole("button", { name: "Save allowlist" }));
    expect(setServerTools).toHaveBeenCalledWith("everything", null);
  });

  // Pins: the search filters by name or description, and select none / all act on the shown tools only.
  it("searches and selects the shown tools", async () => {
    const user = userEvent.setup();
    renderEditor();

    await user.type(screen.getByRole("searchbox", { name: "Search tools" }), "does e");
    expect(screen.getAllByRole("checkbox")).toHaveLength(1);
    expect(screen.getByText("3 of 3 allowed · 1 shown")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Select none of shown" }));
    await user.clear(screen.getByRole("searchbox", { name: "Search tools" }));
    expect(screen.getByRole("checkbox", { name: "echo" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "add" })).toBeChecked();
    expect(screen.getByText("2 of 3 allowed")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Select none" }));
    expect(screen.getByText("0 of 3 allowed")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Select all" }));
    await user.click(screen.getByRole("button", { name: "Save allowlist" }));
    expect(setServerTools).toHaveBeenCalledWith("everything", ["echo", "add", "printEnv"]);
  });

  // Pins: entries matching no tool are flagged with the names that exist, and can be dropped before saving.
  it("flags allowlist entries that match no tool", async () => {
    const user = userEvent.setup();
    renderEditor({
      entries: ["echo", "ecco"],
      tools: ALL.tools.map((t) => ({ ...t, allowed: t.name === "echo" })),
      unknownEntries: ["ecco"],
      withheldBesidesTools: [],
    });

    const region = screen.getByRole("region", { name: "1 allowlist entry matches no tool" });
    expect(region).toHaveTextContent("ecco");
    expect(region).toHaveTextContent("The server offers: echo, add, printEnv.");
    await user.click(within(region).getByRole("button", { name: "Remove ecco from the allowlist" }));
    expect(screen.queryByRole("region", { name: /matches no tool/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save allowlist" }));
    expect(setServerTools).toHaveBeenCalledWith("everything", ["echo"]);
  });

  // Pins: before the server is ready there are no tools to tick; the page says so and names the configured list.
  it("explains that tools appear once the server is ready", () => {
    renderEditor({ entries: ["echo"], tools: [], unknownEntries: [], withheldBesidesTools: [] }, false);
    expect(screen.getByText(/appear here once it is connected and ready\. The allowlist names: echo\./)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Tools" })).not.toBeInTheDocument();
  });

  // Pins: a file changed by another program is explained in words, with what to do next.
  it("explains ChangedOnDisk in words", async () => {
    const user = userEvent.setup();
    setServerTools.mockResolvedValue({
      status: "error",
      error: { code: "ChangedOnDisk", message: "/x/servers.json was changed by another program" },
    });
    renderEditor();

    await user.click(screen.getByRole("checkbox", { name: "echo" }));
    await user.click(screen.getByRole("button", { name: "Save allowlist" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Couldn't save the allowlist: another program changed servers.json while you were editing.",
    );
  });

  // Pins: a long tool list is virtualised: only a window of rows is in the DOM, each with its position in the set.
  it("renders only a window of a long list", async () => {
    const tools = Array.from({ length: 1000 }, (_, i) => tool(`tool_${i}`));
    renderEditor({ entries: null, tools, unknownEntries: [], withheldBesidesTools: [] });

    await waitFor(() => expect(screen.getAllByRole("listitem").length).toBeGreaterThan(0));
    const rows = screen.getAllByRole("listitem");
    expect(rows.length).toBeLessThan(50);
    expect(rows[0]).toHaveAttribute("aria-setsize", "1000");
    expect(rows[0]).toHaveAttribute("aria-posinset", "1");
    expect(screen.getByText("1000 of 1000 allowed")).toBeInTheDocument();
  });

  // Pins: once the view shows what was saved, the editor follows the view again, so a later external edit of
  // servers.json appears instead of the old draft.
  it("follows external edits after a save has been applied", async () => {
    const user = userEvent.setup();
    const { rerender } = renderEditor();
    await user.click(screen.getByRole("checkbox", { name: "add" }));
    await user.click(screen.getByRole("button", { name: "Save allowlist" }));
    expect(await screen.findByText(/Saved\. The server reconnects/)).toBeInTheDocument();

    const only = (names: string[]): AllowlistView => ({
      entries: names,
      tools: ALL.tools.map((t) => ({ ...t, allowed: names.includes(t.name) })),
      unknownEntries: [],
      withheldBesidesTools: [],
    });
    rerender(<AllowlistEditor server="everything" view={only(["echo", "printEnv"])} ready />);
    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    rerender(<AllowlistEditor server="everything" view={only(["add"])} ready />);
    expect(screen.queryByText("Saved.")).not.toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "add" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "echo" })).not.toBeChecked();
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
  });
});
