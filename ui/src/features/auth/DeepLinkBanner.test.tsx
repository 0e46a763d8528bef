// Tests for the notices of refused plugboard:// links: shown as inert text, dismissible, bounded.
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type DeepLinkRejected } from "../../ipc/bindings";
import DeepLinkBanner from "./DeepLinkBanner";

vi.mock("../../ipc/bindings", () => ({
  commands: { missedDeepLinkRejections: vi.fn() },
  events: { deepLinkRejected: { listen: vi.fn() } },
}));

const missed = vi.mocked(commands.missedDeepLinkRejections);

/** What the banner handed to `events.deepLinkRejected.listen`, so a test can fire the event. */
let reject: (payload: DeepLinkRejected) => void;

describe("DeepLinkBanner", () => {
  beforeEach(() => {
    missed.mockReset();
    missed.mockResolvedValue({ status: "ok", data: [] });
    vi.mocked(events.deepLinkRejected.listen).mockImplementation((callback) => {
      reject = (payload) => act(() => callback({ event: "deep-link-rejected", id: 1, payload }));
      return Promise.resolve(() => {});
    });
  });

  // Pins: nothing shows until a link is refused; then its reason shows as literal text (markup makes no element,
  // hidden characters show) and Dismiss removes just that notice.
  it("shows each refused link as inert, dismissible text", async () => {
    const { container } = render(<DeepLinkBanner />);
    const region = screen.getByRole("status", { name: "Refused links" });
    expect(region).toBeEmptyDOMElement();

    reject({ reason: "A login link was refused: <script>alert(1)</script>\u202e." });
    reject({ reason: "A login link was refused: the callback URL is longer than 8192 bytes." });

    expect(region).toHaveTextContent("A login link was refused: <script>alert(1)</script>\\u{202e}.");
    expect(container.querySelector("script")).toBeNull();
    const dismiss = within(region).getAllByRole("button", { name: "Dismiss this notice" });
    expect(dismiss).toHaveLength(2);
    await userEvent.click(dismiss[0]!);
    expect(region).not.toHaveTextContent("<script>");
    expect(region).toHaveTextContent("longer than 8192 bytes");
  });

  // Pins: a flood of refused links keeps only the latest three notices on screen.
  it("keeps the latest three", () => {
    render(<DeepLinkBanner />);
    for (const n of [1, 2, 3, 4, 5]) reject({ reason: `reason ${n}` });
    const region = screen.getByRole("status", { name: "Refused links" });
    expect(within(region).getAllByRole("button", { name: "Dismiss this notice" })).toHaveLength(3);
    expect(region).not.toHaveTextContent("reason 2");
    expect(region).toHaveTextContent("reason 5");
  });

  // Pins: the links the app was started with, refused before the page listened, are asked for once and shown too.
  it("shows the refusals of a cold start", async () => {
    missed.mockResolvedValue({ status: "ok", data: [{ reason: "A login link was refused: no login is waiting." }] });
    render(<DeepLinkBanner />);
    const region = screen.getByRole("status", { name: "Refused links" });
    expect(await within(region).findByText(/no login is waiting/)).toBeInTheDocument();
    expect(missed).toHaveBeenCalledTimes(1);
  });
});
