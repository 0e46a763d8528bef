// Tests for the Prompts tab: the prompts list, a form from the picked prompt's arguments with required ones marked
// and enforced, Get with the values filled in, the messages shown inert (an XSS payload stays text), and a server
// that is not ready explained without asking it.
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type ServerStatus } from "../../../../ipc/bindings";
import { renderWithProviders } from "../../../../test/render";
import PromptsTab from "./PromptsTab";

vi.mock("../../../../ipc/bindings", () => ({
  commands: { serverPrompts: vi.fn(), getPrompt: vi.fn() },
  events: { toolsChanged: { listen: vi.fn() }, promptsChanged: { listen: vi.fn() } },
}));

const READY: ServerStatus = { state: "ready", tools: 3, protocolVersion: "2025-06-18", serverName: null };
const XSS = '<img src=x onerror="window.pwned=1">';

describe("PromptsTab", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(events.toolsChanged.listen).mockResolvedValue(vi.fn());
    vi.mocked(events.promptsChanged.listen).mockResolvedValue(vi.fn());
    vi.mocked(commands.serverPrompts).mockResolvedValue({
      status: "ok",
      data: [
        { name: "simple-prompt", title: null, description: "No arguments", arguments: [] },
        {
          name: "args-prompt",
          title: "Arguments Prompt",
          description: "Two arguments",
          arguments: [
            { name: "city", title: null, description: "Name of the city", required: true },
            { name: "state", title: null, description: null, required: false },
          ],
        },
      ],
    });
  });

  // Pins: the server's prompts_changed lists them again (another server's does not), while the tab is shown.
  it("lists the prompts again when the server says they changed", async () => {
    const heard: Array<(event: { payload: { server: string } }) => void> = [];
    vi.mocked(events.promptsChanged.listen).mockImplementation((callback) => {
      heard.push(callback as (event: { payload: { server: string } }) => void);
      return Promise.resolve(vi.fn());
    });
    vi.mocked(commands.serverPrompts).mockResolvedValueOnce({ status: "ok", data: [] });
    renderWithProviders(<PromptsTab server="s" status={READY} />);
    // The first list has arrived (an event during the first load joins that load instead).
    expect(await screen.findByText("The server offers no prompts.")).toBeInTheDocument();
    expect(heard.length).toBeGreaterThan(0);

    act(() => heard.forEach((listener) => listener({ payload: { server: "other" } })));
    expect(commands.serverPrompts).toHaveBeenCalledTimes(1);
    act(() => heard.forEach((listener) => listener({ payload: { server: "s" } })));

    expect(await screen.findByRole("button", { name: /Arguments Prompt/ })).toBeInTheDocument();
    expect(commands.serverPrompts).toHaveBeenCalledTimes(2);
  });

  // Pins: the form has a field per argument, the required one marked and required; Get sends only filled values;
  // the messages' text (markup included) is shown as text with its role.
  it("gets a prompt with arguments and shows the messages inert", async () => {
    vi.mocked(commands.getPrompt).mockResolvedValue({
      status: "ok",
      data: {
        description: null,
        messages: [
          { role: "user", content: JSON.stringify({ type: "text", text: `Weather in Paris? ${XSS}` }) },
          { role: "assistant", content: JSON.stringify({ type: "resource_link", uri: "demo://x", name: "x" }) },
        ],
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<PromptsTab server="s" status={READY} />);
    await user.click(await screen.findByRole("button", { name: /Arguments Prompt/ }));

    const form = screen.getByRole("form", { name: "Arguments of Arguments Prompt" });
    const city = within(form).getByRole("textbox", { name: /^city\s*\(required\)$/ });
    expect(city).toBeRequired();
    expect(city).toHaveAccessibleDescription("Name of the city");
    expect(within(form).getByRole("textbox", { name: "state" })).not.toBeRequired();

    await user.type(city, "Paris");
    await user.click(within(form).getByRole("button", { name: "Get prompt" }));
    expect(commands.getPrompt).toHaveBeenCalledWith("s", "args-prompt", { city: "Paris" });

    const messages = await screen.findByRole("list", { name: "Messages" });
    expect(within(messages).getByText(`Weather in Paris? ${XSS}`)).toBeInTheDocument();
    expect(within(messages).getByText("user")).toBeInTheDocument();
    expect(within(messages).getByText(/"type": "resource_link"/)).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });

  // Pins: Get is not sent while a required argument is empty (the browser's own check, reachable by keyboard).
  it("does not get a prompt with a required argument missing", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PromptsTab server="s" status={READY} />);
    await user.click(await screen.findByRole("button", { name: /Arguments Prompt/ }));
    await user.click(screen.getByRole("button", { name: "Get prompt" }));
    expect(commands.getPrompt).not.toHaveBeenCalled();
  });

  // Pins: a server refusing the prompt shows its message as an alert.
  it("shows a failed get", async () => {
    vi.mocked(commands.getPrompt).mockResolvedValue({ status: "error", error: { code: "Internal", message: "s: bad <b>args</b>" } });
    const user = userEvent.setup();
    renderWithProviders(<PromptsTab server="s" status={READY} />);
    await user.click(await screen.findByRole("button", { name: /simple-prompt/ }));
    expect(screen.getByText("This prompt takes no arguments.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Get prompt" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't get the prompt: s: bad <b>args</b>");
    expect(commands.getPrompt).toHaveBeenCalledWith("s", "simple-prompt", {});
  });

  // Pins: a server that needs a login says so with its hint, and is not asked for prompts.
  it("explains a server that is not ready", () => {
    renderWithProviders(<PromptsTab server="s" status={{ state: "needsLogin", hint: "run plugboard login s" }} />);
    expect(screen.getByRole("status")).toHaveTextContent(
      "The server needs a login before it shows its prompts: run plugboard login s",
    );
    expect(commands.serverPrompts).not.toHaveBeenCalled();
  });
});
