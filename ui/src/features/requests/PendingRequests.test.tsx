// Tests for the pending-requests dialogs with the IPC mocked: a form generated from the schema and its answers,
// sampling shown inert with the person's reply, roots as a list, the queue, Escape, and withdrawn requests.
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  commands,
  events,
  type PendingRequest,
  type PendingRequestArrived,
  type PendingRequestWithdrawn,
} from "../../ipc/bindings";
import PendingRequests from "./PendingRequests";

vi.mock("../../ipc/bindings", () => ({
  commands: {
    pendingRequests: vi.fn(),
    answerElicitation: vi.fn(),
    answerSampling: vi.fn(),
    answerRoots: vi.fn(),
    answerLink: vi.fn(),
  },
  events: {
    pendingRequestArrived: { listen: vi.fn() },
    pendingRequestWithdrawn: { listen: vi.fn() },
  },
}));

const ok = { status: "ok", data: null } as const;
let arrive: (payload: PendingRequestArrived) => void;
let withdraw: (payload: PendingRequestWithdrawn) => void;

const FORM: PendingRequest = {
  id: 1,
  server: "files",
  ask: {
    kind: "elicitation",
    message: "<img src=x onerror=alert(1)>Who are you?\u202e",
    schema: JSON.stringify({
      type: "object",
      properties: { name: { type: "string", title: "Name" }, age: { type: "integer", title: "Age" } },
      required: ["name"],
    }),
  },
};
const SAMPLING: PendingRequest = {
  id: 2,
  server: "writer",
  ask: {
    kind: "sampling",
    messages: [{ role: "user", text: "<script>window.pwned=1</script>Summarise" }],
    systemPrompt: "<b>Be brief</b>",
    maxTokens: 100,
  },
};
const ROOTS: PendingRequest = { id: 3, server: "indexer", ask: { kind: "roots" } };
const LINK: PendingRequest = {
  id: 4,
  server: "payments",
  ask: {
    kind: "openLink",
    message: "<a href=https://evil.example>Pay</a> here\u202e",
    link: {
      url: "https://xn--pypal-4ve.com/pay?x=<b>1</b>",
      start: "https://",
      site: "xn--pypal-4ve.com",
      rest: "/pay?x=<b>1</b>",
      cautions: ["The site's name has international letters (shown in its xn-- form)."],
    },
  },
};

describe("PendingRequests", () => {
  beforeEach(() => {
    vi.mocked(commands.pendingRequests).mockReset().mockResolvedValue({ status: "ok", data: [] });
    vi.mocked(commands.answerElicitation).mockReset().mockResolvedValue(ok);
    vi.mocked(commands.answerSampling).mockReset().mockResolvedValue(ok);
    vi.mocked(commands.answerRoots).mockReset().mockResolvedValue(ok);
    vi.mocked(commands.answerLink).mockReset().mockResolvedValue(ok);
    vi.mocked(events.pendingRequestArrived.listen).mockImplementation((callback) => {
      arrive = (payload) => act(() => callback({ event: "pending-request-arrived", id: 1, payload }));
      return Promise.resolve(() => {});
    });
    vi.mocked(events.pendingRequestWithdrawn.listen).mockImplementation((callback) => {
      withdraw = (payload) => act(() => callback({ event: "pending-request-withdrawn", id: 2, payload }));
      return Promise.resolve(() => {});
    });
  });

  // Pins: a form request opens a dialog naming the server, its message inert (no element made, hidden characters
  // shown), fields from the schema; Accept sends the typed values as JSON text, and the dialog closes.
  it("shows a form from the schema and accepts it", async () => {
    render(<PendingRequests />);
    arrive({ request: FORM });
    const dialog = await screen.findByRole("dialog", { name: "files asks for information" });
    // The form loads with the first one a server sends.
    const name = await within(dialog).findByLabelText(/Name/);
    expect(dialog).toHaveTextContent("<img src=x onerror=alert(1)>Who are you?\\u{202e}");
    expect(dialog.querySelector("img")).toBeNull();

    await userEvent.type(name, "Ann");
    await userEvent.type(within(dialog).getByLabelText(/Age/), "41");
    await userEvent.click(within(dialog).getByRole("button", { name: "Accept" }));

    expect(commands.answerElicitation).toHaveBeenCalledWith(1, "accept", expect.any(String));
    const content = vi.mocked(commands.answerElicitation).mock.calls[0]![2]!;
    expect(JSON.parse(content)).toEqual({ name: "Ann", age: 41 });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  // Pins: the backend's refusal of a wrong answer shows in the dialog, which stays open for a correction.
  it("shows the backend's refusal and stays open", async () => {
    vi.mocked(commands.answerElicitation).mockResolvedValue({
      status: "error",
      error: { code: "InvalidArguments", message: "name: at most 3 characters" },
    });
    render(<PendingRequests />);
    arrive({ request: FORM });
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(await within(dialog).findByLabelText(/Name/), "Annabel");
    await userEvent.click(within(dialog).getByRole("button", { name: "Accept" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("name: at most 3 characters");
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });

  // Pins: the form checks the schema itself (no eval, so also under the window's CSP): a missing required field is
  // named beside the form and nothing is sent.
  it("refuses a form that breaks its schema before sending", async () => {
    render(<PendingRequests />);
    arrive({ request: FORM });
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(await within(dialog).findByLabelText(/Age/), "41");
    await userEvent.click(within(dialog).getByRole("button", { name: "Accept" }));
    expect(await within(dialog).findByText(/is a required property/)).toBeInTheDocument();
    expect(commands.answerElicitation).not.toHaveBeenCalled();
  });

  // Pins: Decline and Cancel send their action without content; Escape declines.
  it("declines, cancels, and declines on Escape", async () => {
    render(<PendingRequests />);
    arrive({ request: FORM });
    await userEvent.click(await screen.findByRole("button", { name: "Decline" }));
    expect(commands.answerElicitation).toHaveBeenLastCalledWith(1, "decline", null);

    arrive({ request: { ...FORM, id: 5 } });
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(commands.answerElicitation).toHaveBeenLastCalledWith(5, "cancel", null);

    arrive({ request: { ...FORM, id: 6 } });
    await screen.findByRole("dialog");
    await userEvent.keyboard("{Escape}");
    expect(commands.answerElicitation).toHaveBeenLastCalledWith(6, "decline", null);
  });

  // Pins: sampling shows the server's messages and system prompt as inert text (no script element, nothing run), says
  // that no model runs, and Enter sends the person's reply.
  it("shows sampling inert and sends the person's reply", async () => {
    const { baseElement } = render(<PendingRequests />);
    arrive({ request: SAMPLING });
    const dialog = await screen.findByRole("dialog", { name: "writer asks for a message" });
    expect(dialog).toHaveTextContent("<script>window.pwned=1</script>Summarise");
    expect(dialog).toHaveTextContent("<b>Be brief</b>");
    expect(dialog).toHaveTextContent(/Plugboard runs no model/);
    expect(baseElement.querySelector("script, b")).toBeNull();
    expect((window as { pwned?: number }).pwned).toBeUndefined();

    await userEvent.type(within(dialog).getByLabelText(/Your reply/), "It is short.{Enter}");
    expect(commands.answerSampling).toHaveBeenCalledWith(2, "It is short.");
  });

  // Pins: roots are a list of folders the person edits; Share sends them, Decline sends null.
  it("sends the folders the person lists", async () => {
    render(<PendingRequests />);
    arrive({ request: ROOTS });
    const dialog = await screen.findByRole("dialog", { name: "indexer asks which folders it may use" });
    await userEvent.type(within(dialog).getByLabelText("Folder 1"), "/srv/data");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add a folder" }));
    await userEvent.type(within(dialog).getByLabelText("Folder 2"), "/home/ann");
    await userEvent.click(within(dialog).getByRole("button", { name: "Share folders" }));
    expect(commands.answerRoots).toHaveBeenCalledWith(3, ["/srv/data", "/home/ann"]);
  });

  // Pins: a row left blank is not sent as a folder (the backend would refuse the empty path).
  it("leaves blank rows out of the folders sent", async () => {
    render(<PendingRequests />);
    arrive({ request: ROOTS });
    const dialog = await screen.findByRole("dialog", { name: "indexer asks which folders it may use" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Add a folder" }));
    await userEvent.type(within(dialog).getByLabelText("Folder 2"), "/srv/data");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add a folder" }));
    await userEvent.type(within(dialog).getByLabelText("Folder 3"), "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Share folders" }));
    expect(commands.answerRoots).toHaveBeenCalledWith(3, ["/srv/data"]);
  });

  // Pins: requests queue one dialog at a time with a count of the others, those waiting before the window opened
  // included; a withdrawn request (the server cancelled) closes its dialog and the next one shows.
  it("queues requests and closes a withdrawn one", async () => {
    vi.mocked(commands.pendingRequests).mockResolvedValue({ status: "ok", data: [FORM] });
    render(<PendingRequests />);
    expect(await screen.findByRole("dialog", { name: "files asks for information" })).toBeInTheDocument();
    arrive({ request: ROOTS });
    expect(screen.getByText("1 more request is waiting after this one.")).toBeInTheDocument();

    withdraw({ id: 1, reason: "cancelled" });
    expect(await screen.findByRole("dialog", { name: "indexer asks which folders it may use" })).toBeInTheDocument();
    withdraw({ id: 3, reason: "timedOut" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  // Pins: a link request shows the whole address as text, with its site picked out and said again, its cautions, and
  // no link element (nothing the webview could load or prefetch); the message is inert.
  it("shows a link's whole address as text with its site picked out", async () => {
    const { baseElement } = render(<PendingRequests />);
    arrive({ request: LINK });
    const dialog = await screen.findByRole("dialog", { name: "payments asks you to open a page" });
    expect(within(dialog).getByTestId("link-address")).toHaveTextContent("https://xn--pypal-4ve.com/pay?x=<b>1</b>");
    expect(within(dialog).getByTestId("link-address").querySelector("strong")).toHaveTextContent(/^xn--pypal-4ve\.com$/);
    expect(within(dialog).getByTestId("link-site")).toHaveTextContent("xn--pypal-4ve.com");
    expect(dialog).toHaveTextContent("international letters");
    expect(dialog).toHaveTextContent("<a href=https://evil.example>Pay</a> here\\u{202e}");
    expect(baseElement.querySelector("a, b, iframe, link, img")).toBeNull();
    // It opens on the address, so an Enter meant for something else opens nothing.
    expect(within(dialog).getByRole("region", { name: "Address" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(commands.answerLink).not.toHaveBeenCalled();
  });

  // Pins: only "Open in browser" accepts (the backend opens the page); Decline, Cancel and Escape send their action.
  it("opens a link only on the person's choice", async () => {
    render(<PendingRequests />);
    arrive({ request: LINK });
    await userEvent.click(await screen.findByRole("button", { name: "Open in browser" }));
    expect(commands.answerLink).toHaveBeenLastCalledWith(4, "accept");

    arrive({ request: { ...LINK, id: 7 } });
    await userEvent.click(await screen.findByRole("button", { name: "Decline" }));
    expect(commands.answerLink).toHaveBeenLastCalledWith(7, "decline");

    arrive({ request: { ...LINK, id: 8 } });
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(commands.answerLink).toHaveBeenLastCalledWith(8, "cancel");

    arrive({ request: { ...LINK, id: 9 } });
    await screen.findByRole("dialog");
    await userEvent.keyboard("{Escape}");
    expect(commands.answerLink).toHaveBeenLastCalledWith(9, "decline");
    expect(commands.answerLink).toHaveBeenCalledTimes(4);
  });

  // Pins: when no browser opens, the dialog stays with the reason, and the address can still be copied.
  it("keeps the link dialog open with the reason when no browser opens", async () => {
    vi.mocked(commands.answerLink).mockResolvedValue({
      status: "error",
      error: { code: "Internal", message: "no graphical session to open a browser in: copy the address" },
    });
    render(<PendingRequests />);
    arrive({ request: LINK });
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Open in browser" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("no graphical session");
    expect(within(dialog).getByRole("button", { name: "Copy address" })).toBeInTheDocument();
  });
});
