// Tests for the Console page over the mocked IPC: deep-linked picks, Run sends exactly the arguments with a fresh
// call id and a channel whose events show in order, Cancel (button and Escape) names the same call id,
// Ctrl+Enter runs, required arguments are checked first, another pick clears the result, the pick and arguments
// outlive a visit to another page, the history refreshes after a call, and Re-run from history runs the saved call.
import { act, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type CallEvent, type HistoryEntry, type ToolInfo } from "../../ipc/bindings";
import { renderRoutes, renderWithProviders } from "../../test/render";
import { stubLayout } from "../../test/layoutStubs";
import ConsolePage from "./ConsolePage";

vi.mock("../../ipc/bindings", () => {
  const listen = () => Promise.resolve(() => {});
  return {
    commands: {
      serverStatuses: vi.fn(),
      serverTools: vi.fn(),
      runToolCall: vi.fn(),
      cancelToolCall: vi.fn(),
      callHistory: vi.fn(),
      historyEntry: vi.fn(),
      clearCallHistory: vi.fn(),
    },
    events: { serverStatusChanged: { listen }, toolsChanged: { listen } },
  };
});

// A channel as the page makes it: the test plays the backend by calling its handler.
vi.mock("@tauri-apps/api/core", () => ({
  Channel: class {
    constructor(readonly onmessage: (event: unknown) => void) {}
  },
}));

type FakeChannel = { onmessage: (batch: CallEvent[]) => void };

const m = vi.mocked(commands);
stubLayout(600, 40);

const ECHO: ToolInfo = {
  name: "echo",
  exposedName: "mcp__everything__echo",
  title: null,
  description: "Echoes the message",
  allowed: true,
  withheld: null, hiddenContent: [],
  inputSchema: JSON.stringify({ type: "object", properties: { message: { type: "string", title: "Message" } } }),
};

function entry(fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: 1,
    server: "everything",
    tool: "echo",
    arguments: '{"message":"hi"}',
    startedAtMs: Date.now(),
    durationMs: 42,
    outcome: { kind: "result", isError: false, result: JSON.stringify({ content: [{ type: "text", text: "Echo: hi" }] }), truncated: false },
    cliCommand: "plugboard call everything echo --args '{\"message\":\"hi\"}'",
    origin: null,
    unrecorded: null,
    ...fields,
  };
}

/** The page at `path` (renderWithProviders gives it the app shell's session memory, where it keeps its pick). */
function renderConsole(path: string) {
  return renderWithProviders(<ConsolePage />, path);
}

/** runToolCall that stays running until the test resolves it; returns the channel and the resolver. */
function holdCall() {
  let finish: (value: HistoryEntry) => void = () => {};
  m.runToolCall.mockImplementation(
    () => new Promise((resolve) => (finish = (value) => resolve({ status: "ok", data: value }))),
  );
  return {
    channel: () => m.runToolCall.mock.calls[0]![4] as unknown as FakeChannel,
    finish: (value: HistoryEntry) => act(() => finish(value)),
  };
}

beforeEach(() => {
  vi.clearAllMocks();
  m.serverStatuses.mockResolvedValue({
    status: "ok",
    data: [
      { server: "everything", status: { state: "ready", tools: 1, protocolVersion: "2025-06-18", serverName: null } },
      { server: "down", status: { state: "connecting" } },
    ],
  });
  m.serverTools.mockResolvedValue({ status: "ok", data: [ECHO, { ...ECHO, name: "hidden", allowed: false }] });
  m.callHistory.mockResolvedValue({ status: "ok", data: { entries: [], total: 0 } });
  m.cancelToolCall.mockResolvedValue({ status: "ok", data: true });
});

describe("ConsolePage", () => {
  // Pins: ?server=&tool= preselects both; only Ready servers and allowed tools are offered.
  it("preselects from the link and offers only Ready servers and allowed tools", async () => {
    const user = userEvent.setup();
    renderConsole("/console?server=everything&tool=echo");

    expect(await screen.findByRole("textbox", { name: "Message" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Tool echo/ })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /Server everything/ }));
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["everything"]);
    await user.keyboard("{Escape}");
    await user.click(screen.getByRole("button", { name: /Tool echo/ }));
    expect(screen.getAllByRole("option")).toHaveLength(1);
  });

  // Pins: Run sends exactly the typed arguments with a fresh call id; events show in order; the result and latency
  // follow; the history is asked again after the call.
  it("runs with exactly the arguments and streams events in order", async () => {
    const user = userEvent.setup();
    const call = holdCall();
    renderConsole("/console?server=everything&tool=echo");

    await user.type(await screen.findByRole("textbox", { name: "Message" }), "hi");
    await user.click(screen.getByRole("button", { name: "Run" }));

    expect(m.runToolCall).toHaveBeenCalledTimes(1);
    const [callId, server, tool, args] = m.runToolCall.mock.calls[0]!;
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
    expect([server, tool, args]).toEqual(["everything", "echo", '{\n  "message": "hi"\n}']);

    act(() => {
      call.channel().onmessage([{ kind: "progress", progress: 1, total: 2, message: "half" }]);
      call.channel().onmessage([{ kind: "log", level: "info", logger: null, message: "working" }]);
    });
    const list = await screen.findByRole("list", { name: "Notifications" });
    expect(within(list).getAllByRole("listitem").map((row) => row.textContent)).toEqual(["progress 1/2 half", "info working"]);

    const historyAsked = m.callHistory.mock.calls.length;
    call.finish(entry());
    expect(await screen.findByText("Echo: hi")).toBeInTheDocument();
    expect(screen.getByText("Done in 42 ms.")).toBeInTheDocument();
    await vi.waitFor(() => expect(m.callHistory.mock.calls.length).toBeGreaterThan(historyAsked));
  });

  // Pins: a call the history could not take still shows its result, and says it is not in the history and why.
  it("shows the result of a call the history could not take, and says so", async () => {
    const user = userEvent.setup();
    const call = holdCall();
    renderConsole("/console?server=everything&tool=echo");

    await user.type(await screen.findByRole("textbox", { name: "Message" }), "hi");
    await user.click(screen.getByRole("button", { name: "Run" }));
    call.finish(entry({ id: 0, unrecorded: "the call history could not be read or written: database or disk is full" }));

    expect(await screen.findByText("Echo: hi")).toBeInTheDocument();
    expect(
      screen.getByText(
        "This call is not in the history: the call history could not be read or written: database or disk is full. Its result below is the only copy.",
      ),
    ).toHaveAttribute("role", "status");
  });

  // Pins: Ctrl+Enter runs; Escape and the Cancel button cancel the running call by the same call id.
  it("runs with Ctrl+Enter and cancels the same call id", async () => {
    const user = userEvent.setup();
    const call = holdCall();
    renderConsole("/console?server=everything&tool=echo");

    const message = await screen.findByRole("textbox", { name: "Message" });
    await user.type(message, "x");
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(m.runToolCall).toHaveBeenCalledTimes(1);
    const callId = m.runToolCall.mock.calls[0]![0];

    fireEvent.keyDown(message, { key: "Escape" });
    expect(m.cancelToolCall).toHaveBeenCalledWith(callId);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(m.cancelToolCall).toHaveBeenCalledTimes(2);
    expect(m.cancelToolCall).toHaveBeenLastCalledWith(callId);

    call.finish(entry({ outcome: { kind: "cancelled" } }));
    expect(await screen.findByText(/The call was cancelled after/)).toBeInTheDocument();
  });

  // Pins: Run with a required argument missing does not call run_tool_call; the field says it is required and the
  // page names it; once filled in, Run sends it.
  it("checks required arguments before Run", async () => {
    const user = userEvent.setup();
    holdCall();
    const required = { ...ECHO, inputSchema: JSON.stringify({ ...JSON.parse(ECHO.inputSchema), required: ["message"] }) };
    m.serverTools.mockResolvedValue({ status: "ok", data: [required] });
    renderConsole("/console?server=everything&tool=echo");

    const message = await screen.findByRole("textbox", { name: /Message/ });
    await user.click(screen.getByRole("button", { name: "Run" }));
    expect(m.runToolCall).not.toHaveBeenCalled();
    expect(message.parentElement).toHaveTextContent("is a required property");
    expect(screen.getByRole("alert")).toHaveTextContent("Fill in the required argument first: Message.");

    await user.type(message, "hi");
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Run" }));
    expect(m.runToolCall).toHaveBeenCalledWith(expect.any(String), "everything", "echo", '{\n  "message": "hi"\n}', expect.anything());
  });

  // Pins: after a call, picking another tool (or server) shows none of its result or events; the new tool starts
  // clean.
  it("clears the result and events when another tool or server is picked", async () => {
    const user = userEvent.setup();
    const call = holdCall();
    m.serverTools.mockResolvedValue({ status: "ok", data: [ECHO, { ...ECHO, name: "reverse" }] });
    const ready = { state: "ready", tools: 2, protocolVersion: "2025-06-18", serverName: null } as const;
    m.serverStatuses.mockResolvedValue({
      status: "ok",
      data: [
        { server: "everything", status: ready },
        { server: "other", status: ready },
      ],
    });
    renderConsole("/console?server=everything&tool=echo");

    await user.type(await screen.findByRole("textbox", { name: "Message" }), "hi");
    await user.click(screen.getByRole("button", { name: "Run" }));
    act(() => call.channel().onmessage([{ kind: "log", level: "info", logger: null, message: "working" }]));
    call.finish(entry());
    expect(await screen.findByText("Echo: hi")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Notifications" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: /Tool echo/ }));
    await user.click(screen.getByRole("option", { name: /reverse/ }));
    expect(await screen.findByRole("button", { name: /Tool reverse/ })).toBeInTheDocument();
    expect(screen.queryByText("Echo: hi")).toBeNull();
    expect(screen.queryByRole("list", { name: "Notifications" })).toBeNull();

    await user.click(screen.getByRole("button", { name: /Tool reverse/ }));
    await user.click(screen.getByRole("option", { name: /echo/ }));
    await user.click(await screen.findByRole("button", { name: "Run" }));
    call.finish(entry());
    expect(await screen.findByText("Echo: hi")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /Server everything/ }));
    await user.click(screen.getByRole("option", { name: "other" }));
    expect(await screen.findByRole("button", { name: /Server other/ })).toBeInTheDocument();
    expect(screen.queryByText("Echo: hi")).toBeNull();
  });

  // Pins: a call still running when another tool is picked never shows its result under that tool.
  it("does not show a running call's result under a tool picked meanwhile", async () => {
    const user = userEvent.setup();
    const call = holdCall();
    m.serverTools.mockResolvedValue({ status: "ok", data: [ECHO, { ...ECHO, name: "reverse" }] });
    renderConsole("/console?server=everything&tool=echo");

    await user.type(await screen.findByRole("textbox", { name: "Message" }), "hi");
    await user.click(screen.getByRole("button", { name: "Run" }));
    await user.click(screen.getByRole("button", { name: /Tool echo/ }));
    await user.click(screen.getByRole("option", { name: /reverse/ }));
    call.finish(entry());
    expect(await screen.findByText(/Ctrl\+Enter runs|⌘\+Enter runs/)).toBeInTheDocument();
    expect(screen.queryByText("Echo: hi")).toBeNull();
  });

  // Pins: leaving the Console (for Servers) and coming back by its plain link finds the same server, tool and typed
  // arguments.
  it("keeps the pick and the typed arguments across navigation", async () => {
    const user = userEvent.setup();
    renderRoutes(
      { "/console": <ConsolePage />, "/servers": <h1>Servers page</h1> },
      "/console?server=everything&tool=echo",
      { Servers: "/servers", Console: "/console" },
    );
    await user.type(await screen.findByRole("textbox", { name: "Message" }), "kept");

    await user.click(screen.getByRole("link", { name: "Servers" }));
    expect(await screen.findByRole("heading", { name: "Servers page" })).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Console" }));

    expect(await screen.findByRole("textbox", { name: "Message" })).toHaveValue("kept");
    expect(screen.getByRole("button", { name: /Server everything/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Tool echo/ })).toBeInTheDocument();
  });

  // Pins: Re-run on a saved call loads its server, tool and arguments and runs them as saved.
  it("re-runs a call from the history", async () => {
    const user = userEvent.setup();
    holdCall();
    m.callHistory.mockResolvedValue({
      status: "ok",
      data: {
        entries: [{ id: 5, server: "everything", tool: "echo", argumentsPreview: '{"message":"old"}', startedAtMs: Date.now(), durationMs: 3, status: "ok", origin: null }],
        total: 1,
      },
    });
    m.historyEntry.mockResolvedValue({ status: "ok", data: entry({ id: 5, arguments: '{"message":"old"}' }) });
    renderConsole("/console");

    await user.click(await screen.findByRole("button", { name: /everything · echo/ }));
    expect(m.historyEntry).toHaveBeenCalledWith(5);
    await user.click(await screen.findByRole("button", { name: "Re-run" }));

    expect(m.runToolCall).toHaveBeenCalledWith(expect.any(String), "everything", "echo", '{"message":"old"}', expect.anything());
    expect(await screen.findByRole("textbox", { name: "Message" })).toHaveValue("old");
  });

  // Pins: a saved call with redacted values is loaded but not sent, and the page says why.
  it("does not re-run redacted arguments", async () => {
    const user = userEvent.setup();
    m.callHistory.mockResolvedValue({
      status: "ok",
      data: { entries: [{ id: 6, server: "everything", tool: "echo", argumentsPreview: "…", startedAtMs: Date.now(), durationMs: 3, status: "ok", origin: null }], total: 1 },
    });
    m.historyEntry.mockResolvedValue({ status: "ok", data: entry({ id: 6, arguments: '{"token":"[redacted]"}' }) });
    renderConsole("/console");

    await user.click(await screen.findByRole("button", { name: /everything · echo/ }));
    await user.click(await screen.findByRole("button", { name: "Re-run" }));
    expect(await screen.findByText(/Some values were redacted/)).toBeInTheDocument();
    expect(m.runToolCall).not.toHaveBeenCalled();
  });
});
