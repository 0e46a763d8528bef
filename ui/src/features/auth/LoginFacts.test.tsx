// Tests for the login facts on a server's page: logged out, logged in with issuer/scopes/expiry, renewal wording,
// inert authorization-server text, nothing for servers without OAuth, refetch on the server's status change.
import { act, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type LoginState, type ServerStatusChanged } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import { expiryText } from "./expiryText";
import LoginFacts from "./LoginFacts";

vi.mock("../../ipc/bindings", () => ({
  commands: { serverLoginState: vi.fn() },
  events: { serverStatusChanged: { listen: vi.fn() } },
}));

const serverLoginState = vi.mocked(commands.serverLoginState);
const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const LOGGED_IN: LoginState = {
  loggedIn: true,
  issuer: "https://auth.example",
  scopes: ["read", "write"],
  expiresAtMs: NOW + 90 * 60_000,
  renewsByItself: true,
  clientId: "pb-1",
  boundToKey: false,
};
let onStatus: ((event: { payload: ServerStatusChanged }) => void) | undefined;

beforeEach(() => {
  vi.clearAllMocks();
  onStatus = undefined;
  vi.mocked(events.serverStatusChanged.listen).mockImplementation((listener) => {
    onStatus = listener as typeof onStatus;
    return Promise.resolve(() => {});
  });
});

describe("LoginFacts", () => {
  it("shows issuer, scopes and the expiry of a login", async () => {
    serverLoginState.mockResolvedValue({ status: "ok", data: LOGGED_IN });
    renderWithProviders(<LoginFacts server="linear" now={NOW} />);
    const section = await screen.findByRole("region", { name: "Login" });
    expect(section).toHaveTextContent("Logged in");
    expect(section).toHaveTextContent("https://auth.example");
    expect(section).toHaveTextContent("read write");
    expect(section).toHaveTextContent("Expires in 1 h 30 min");
    expect(section).toHaveTextContent("Plugboard renews it by itself");
    expect(section).toHaveTextContent("Bearer: whoever holds a copy can use it");
    expect(serverLoginState).toHaveBeenCalledWith("linear");
  });

  it("says when the token is bound to this computer's key (DPoP)", async () => {
    serverLoginState.mockResolvedValue({ status: "ok", data: { ...LOGGED_IN, boundToKey: true } });
    renderWithProviders(<LoginFacts server="linear" now={NOW} />);
    const section = await screen.findByRole("region", { name: "Login" });
    expect(section).toHaveTextContent("Bound to this computer's key (DPoP)");
    expect(section).not.toHaveTextContent("Bearer");
  });

  it("says how to log in when there is no login", async () => {
    serverLoginState.mockResolvedValue({
      status: "ok",
      data: { ...LOGGED_IN, loggedIn: false, issuer: null, scopes: [], expiresAtMs: null, renewsByItself: false, boundToKey: false },
    });
    renderWithProviders(<LoginFacts server="linear" now={NOW} />);
    expect(await screen.findByText(/Not logged in\. Use Log in above/)).toBeInTheDocument();
  });

  it("renders nothing for a server without OAuth", async () => {
    serverLoginState.mockResolvedValue({ status: "ok", data: null });
    const { container } = renderWithProviders(<LoginFacts server="files" now={NOW} />);
    await waitFor(() => expect(serverLoginState).toHaveBeenCalled());
    await act(async () => {});
    expect(container).toBeEmptyDOMElement();
  });

  it("keeps the authorization server's text inert", async () => {
    const hostile = "<img src=x onerror=alert(1)>";
    serverLoginState.mockResolvedValue({ status: "ok", data: { ...LOGGED_IN, issuer: hostile, scopes: [hostile] } });
    const { container } = renderWithProviders(<LoginFacts server="linear" now={NOW} />);
    await screen.findByRole("region", { name: "Login" });
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getAllByText(hostile, { exact: false }).length).toBeGreaterThan(0);
  });

  it("fetches again when this server's status changes, not another's", async () => {
    serverLoginState.mockResolvedValue({ status: "ok", data: LOGGED_IN });
    renderWithProviders(<LoginFacts server="linear" now={NOW} />);
    await screen.findByRole("region", { name: "Login" });
    await waitFor(() => expect(onStatus).toBeDefined());
    act(() => onStatus?.({ payload: { server: "other", status: { state: "connecting" } } }));
    expect(serverLoginState).toHaveBeenCalledTimes(1);
    serverLoginState.mockResolvedValue({ status: "ok", data: { ...LOGGED_IN, loggedIn: false } });
    act(() => onStatus?.({ payload: { server: "linear", status: { state: "connecting" } } }));
    expect(await screen.findByText(/Not logged in/)).toBeInTheDocument();
    expect(serverLoginState).toHaveBeenCalledTimes(2);
  });

  it("says what happens at expiry with and without a refresh token", () => {
    expect(expiryText({ ...LOGGED_IN, expiresAtMs: NOW - 1 }, NOW)).toBe("Expired; renewed on the next use");
    expect(expiryText({ ...LOGGED_IN, expiresAtMs: NOW - 1, renewsByItself: false }, NOW)).toBe("Expired; log in again");
    expect(expiryText({ ...LOGGED_IN, expiresAtMs: null, renewsByItself: false }, NOW)).toBe(
      "No expiry stated; you will need to log in again when it ends",
    );
    expect(expiryText({ ...LOGGED_IN, expiresAtMs: NOW + 30_000 }, NOW)).toMatch(/^Expires in 30 s /);
  });
});
