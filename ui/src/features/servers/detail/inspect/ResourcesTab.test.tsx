// Tests for the Resources tab: the list and templates load for a ready server, Read shows text inert (an XSS
// payload stays text), bytes described and images shown only for image/*, a template's form fills in its URI, and
// a server that is not ready is explained without asking it.
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type ResourceInfo, type ServerStatus } from "../../../../ipc/bindings";
import { fakeLayoutForFile } from "../../../../test/layout";
import { renderWithProviders } from "../../../../test/render";
import ResourcesTab from "./ResourcesTab";

vi.mock("../../../../ipc/bindings", () => ({
  commands: { serverResources: vi.fn(), serverResourceTemplates: vi.fn(), readResource: vi.fn() },
  events: { toolsChanged: { listen: vi.fn() }, resourcesChanged: { listen: vi.fn() } },
}));

const READY: ServerStatus = { state: "ready", tools: 3, protocolVersion: "2025-06-18", serverName: null };
const XSS = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
const RESOURCES: ResourceInfo[] = Array.from({ length: 300 }, (_, i) => ({
  uri: `demo://r/${i}`,
  name: `doc-${i}`,
  title: null,
  description: i === 0 ? XSS : null,
  mimeType: "text/plain",
  size: i === 0 ? 2048 : null,
}));

fakeLayoutForFile(60);

describe("ResourcesTab", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(events.toolsChanged.listen).mockResolvedValue(vi.fn());
    vi.mocked(events.resourcesChanged.listen).mockResolvedValue(vi.fn());
    vi.mocked(commands.serverResources).mockResolvedValue({ status: "ok", data: RESOURCES });
    vi.mocked(commands.serverResourceTemplates).mockResolvedValue({
      status: "ok",
      data: [
        {
          uriTemplate: "demo://resource/dynamic/text/{resourceId}",
          name: "Dynamic Text Resource",
          title: null,
          description: "Made from {resourceId}",
          mimeType: "text/plain",
        },
      ],
    });
  });

  // Pins: the server's resources_changed lists them again (another server's does not), while the tab is shown.
  it("lists the resources again when the server says they changed", async () => {
    const heard: Array<(event: { payload: { server: string } }) => void> = [];
    vi.mocked(events.resourcesChanged.listen).mockImplementation((callback) => {
      heard.push(callback as (event: { payload: { server: string } }) => void);
      return Promise.resolve(vi.fn());
    });
    vi.mocked(commands.serverResources).mockResolvedValueOnce({ status: "ok", data: [] });
    renderWithProviders(<ResourcesTab server="s" status={READY} />);
    // The first lists have arrived (an event during the first load joins that load instead).
    expect(await screen.findByText("The server lists no resources.")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: /Dynamic Text Resource|Read/ })).toBeInTheDocument();
    expect(heard.length).toBe(2);
    const templatesAsked = vi.mocked(commands.serverResourceTemplates).mock.calls.length;

    act(() => heard.forEach((listener) => listener({ payload: { server: "other" } })));
    act(() => heard.forEach((listener) => listener({ payload: { server: "s" } })));

    expect(await screen.findByText("doc-0")).toBeInTheDocument();
    expect(commands.serverResources).toHaveBeenCalledTimes(2);
    expect(vi.mocked(commands.serverResourceTemplates).mock.calls.length).toBeGreaterThan(templatesAsked);
  });

  // Pins: only the rows in view are in the DOM (virtualised), and the description's markup is text.
  it("lists resources virtualised, as inert text", async () => {
    renderWithProviders(<ResourcesTab server="s" status={READY} />);
    const list = await screen.findByRole("list", { name: "Resources" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(within(list).getByText(XSS)).toBeInTheDocument();
    expect(within(list).getByText("text/plain · 2.0 KB")).toBeInTheDocument();
    expect(document.querySelector("img, script")).toBeNull();
  });

  // Pins: Read asks for that URI and shows the text inert, with hidden characters made visible.
  it("reads a text resource inert", async () => {
    vi.mocked(commands.readResource).mockResolvedValue({
      status: "ok",
      data: [{ kind: "text", uri: "demo://r/0", mimeType: "text/html", text: `${XSS}\u202e` }],
    });
    const user = userEvent.setup();
    renderWithProviders(<ResourcesTab server="s" status={READY} />);
    await user.click(await screen.findByRole("button", { name: "Read doc-0" }));
    expect(commands.readResource).toHaveBeenCalledWith("s", "demo://r/0");
    const text = await screen.findByLabelText("Text content");
    expect(text.textContent).toBe(`${XSS}\\u{202e}`);
    expect(screen.getByRole("heading", { name: "Contents of demo://r/0" })).toBeInTheDocument();
    expect(document.querySelector("img, script")).toBeNull();
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });

  // Pins: bytes are described by type and size; an image/* blob is shown through a data: URL, other types are not.
  it("describes blobs and shows images only for image types", async () => {
    vi.mocked(commands.readResource).mockResolvedValue({
      status: "ok",
      data: [
        { kind: "blob", uri: "demo://b/1", mimeType: "image/png", blob: "iVBORw0KGgo=", size: 8 },
        { kind: "blob", uri: "demo://b/2", mimeType: "text/html", blob: "PGI+aGk8L2I+", size: 9 },
      ],
    });
    const user = userEvent.setup();
    renderWithProviders(<ResourcesTab server="s" status={READY} />);
    await user.click(await screen.findByRole("button", { name: "Read doc-1" }));
    expect(await screen.findByText("Binary content, 8 bytes (image/png).")).toBeInTheDocument();
    expect(screen.getByText("Binary content, 9 bytes (text/html).")).toBeInTheDocument();
    const images = screen.getAllByRole("img");
    expect(images).toHaveLength(1);
    expect(images[0]).toHaveAttribute("src", "data:image/png;base64,iVBORw0KGgo=");
  });

  // Pins: a template's variables become labelled fields, the URI follows the input, and Read reads that URI.
  it("fills in a template and reads it", async () => {
    vi.mocked(commands.readResource).mockResolvedValue({
      status: "ok",
      data: [{ kind: "text", uri: "demo://resource/dynamic/text/7", mimeType: null, text: "Resource 7" }],
    });
    const user = userEvent.setup();
    renderWithProviders(<ResourcesTab server="s" status={READY} />);
    const form = await screen.findByRole("form", { name: "Template Dynamic Text Resource" });
    await user.type(within(form).getByLabelText("resourceId"), "7");
    expect(within(form).getByText("demo://resource/dynamic/text/7")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Read" }));
    expect(commands.readResource).toHaveBeenCalledWith("s", "demo://resource/dynamic/text/7");
    expect(await screen.findByText("Resource 7")).toBeInTheDocument();
  });

  // Pins: a read the server refuses shows its message as an alert.
  it("shows a failed read", async () => {
    vi.mocked(commands.readResource).mockResolvedValue({
      status: "error",
      error: { code: "Internal", message: "s: Unknown resource: demo://r/5" },
    });
    const user = userEvent.setup();
    renderWithProviders(<ResourcesTab server="s" status={READY} />);
    await user.click(await screen.findByRole("button", { name: "Read doc-5" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't read it: s: Unknown resource: demo://r/5");
  });

  // Pins: a server that is not ready is explained in words, and nothing is asked of it.
  it("explains a server that is not ready", () => {
    renderWithProviders(
      <ResourcesTab server="s" status={{ state: "reconnecting", attempt: 2, nextTryMs: 1000, reason: "broken pipe" }} />,
    );
    expect(screen.getByRole("status")).toHaveTextContent(
      "The connection broke (broken pipe); Plugboard is reconnecting (attempt 2). Its resources appear once it is ready.",
    );
    expect(commands.serverResources).not.toHaveBeenCalled();
  });
});
