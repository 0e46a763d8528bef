// Tests for logging in and out from the Servers page: Log in, the waiting panel (URL, browser problem, Cancel),
// failures as inert text, success by status event, and Log out with its confirmation. The IPC module is mocked.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  commands,
  events,
  type LoginStarted,
  type ServerStatus,
  type ServerStatusChanged,
  type ServerStatusEntry,
} from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import ServersPage from "../servers/ServersPage";

vi.mock("../../ipc/bindings", () => ({
  commands: {
    listServers: vi.fn(),
    serverStatuses: vi.fn(),
    connectServer: vi.fn(),
    disconnectServer: vi.fn(),
    loginServer: vi.fn(),
    cancelLogin: vi.fn(),
    logoutServer: vi.fn(),
  },
  events: {
    configChanged: { listen: vi.fn() },
    serverStatusChanged: { listen: vi.fn() },
    loginStarted: { listen: vi.fn() },
  },
}));

const listServers = vi.mocked(commands.listServers);
const serverStatuses = vi.mocked(commands.serverStatuses);
const connectServer = vi.mocked(commands.connectServer);
const loginServer = vi.mocked(commands.loginServer);
const cancelLogin = vi.mocked(commands.cancelLogin);
const logoutServer = vi.mocked(commands.logoutServer);
const HOSTILE = "<img src=x onerror=alert(1)><script>alert(2)</script>";
const URL_TEXT = "https://auth.example/authorize?client_id=pb&state=s1&code_challenge=c";
const NEEDS_LOGIN: ServerStatus = { state: "needsLogin", hint: "Log in to github" };
const READY: ServerStatus = { state: "ready", tools: 4, protocolVersion: "2025-06-18", serverName: null };

/** Every listener the page registered, by event, so a test can fire events at all of them (one per row). */
const listeners = new Map<string, ((event: { payload: unknown }) => void)[]>();

/** Fires `payload` as the event `name` at every listener of it. */
function emit(name: "loginStarted" | "serverStatusChanged", payload: LoginStarted | ServerStatusChanged) {
  act(() => {
    for (const listener of listeners.get(name) ?? []) listener({ payload });
  });
}

/** Serves `github` (OAuth) and `plain` (a remote server without OAuth) with these statuses. */
function serve(statuses: ServerStatusEntry[]) {
  const remote = { transport: "streamableHttp" as const, enabled: true, origin: null, notes: [] };
  listServers.mockResolvedValue({
    status: "ok",
    data: {
      configPath: "/home/ada/.config/plugboard/servers.json",
      servers: [
        { ...remote, name: "github", target: "https://api.example/mcp", oauth: true },
        { ...remote, name: "plain", target: "https://plain.example/mcp", oauth: false },
      ],
      invalid: [],
      fileProblem: null,
    },
  });
  serverStatuses.mockResolvedValue({ status: "ok", data: statuses });
}

/** A login_server call that stays pending until the test answers it. */
function pendingLogin() {
  let answer: (value: Awaited<ReturnType<typeof commands.loginServer>>) => void = () => {};
  loginServer.mockReturnValue(new Promise((resolve) => (answer = resolve)));
  return (value: Awaited<ReturnType<typeof commands.loginServer>>) => act(() => answer(value));
}

describe("Login from the Servers page", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    listeners.clear();
    vi.mocked(events.configChanged.listen).mockResolvedValue(() => {});
    for (const name of ["loginStarted", "serverStatusChanged"] as const) {
      vi.mocked(events[name].listen).mockImplementation((callback) => {
        const all = listeners.get(name) ?? [];
        all.push(callback as (event: { payload: unknown }) => void);
        listeners.set(name, all);
        return Promise.resolve(() => {});
      });
    }
    cancelLogin.mockResolvedValue({ status: "ok", data: true });
  });

  // Pins: an OAuth server that needs a login offers a labelled, keyboard-reachable "Log in"; a server without OAuth
  // in the same state keeps Connect (a login could not help it).
  it("offers Log in only to an OAuth server that needs it", async () => {
    serve([
      { server: "github", status: NEEDS_LOGIN },
      { server: "plain", status: { state: "needsLogin", hint: "add an oauth section" } },
    ]);
    pendingLogin();
    renderWithProviders(<ServersPage />);

    const login = await screen.findByRole("button", { name: "Log in github" });
    expect(screen.queryByRole("button", { name: "Log in plain" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect plain" })).toBeInTheDocument();

    login.focus();
    await userEvent.keyboard("{Enter}");
    expect(loginServer).toHaveBeenCalledWith("github");
    expect(connectServer).not.toHaveBeenCalled();
  });

  // Pins: while waiting, the panel says so, shows this server's authorization URL (not another server's) as a
  // read-only field, the browser problem as text, and Cancel calls cancel_login; the cancelled rejection is no failure.
  it("waits for the browser with the URL, the browser problem and Cancel", async () => {
    serve([{ server: "github", status: NEEDS_LOGIN }]);
    const answer = pendingLogin();
    renderWithProviders(<ServersPage />);

    await userEvent.click(await screen.findByRole("button", { name: "Log in github" }));
    const panel = screen.getByRole("region", { name: "Login to github" });
    expect(within(panel).getByRole("status")).toHaveTextContent("Waiting for the browser…");
    expect(screen.getByRole("button", { name: "Log in github" })).toHaveAttribute("aria-disabled", "true");

    emit("loginStarted", { server: "other", authorizationUrl: "https://wrong.example/", browserProblem: null });
    expect(within(panel).queryByRole("textbox")).not.toBeInTheDocument();
    emit("loginStarted", { server: "github", authorizationUrl: URL_TEXT, browserProblem: `xdg-open failed ${HOSTILE}` });

    const link = within(panel).getByRole("textbox", { name: "Authorization link for github" });
    expect(link).toHaveValue(URL_TEXT);
    expect(link).toHaveAttribute("readonly");
    expect(panel).toHaveTextContent(`The browser could not be opened: xdg-open failed ${HOSTILE}`);
    expect(panel.querySelector("img, script")).toBeNull();

    await userEvent.click(within(panel).getByRole("button", { name: "Cancel the login to github" }));
    expect(cancelLogin).toHaveBeenCalledWith("github");
    answer({ status: "error", error: { code: "LoginFailed", refused: false, message: "the login was cancelled" } });

    await waitFor(() => expect(screen.queryByRole("region", { name: "Login to github" })).not.toBeInTheDocument());
    expect(screen.queryByText(/did not complete/)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Log in github" })).toHaveAttribute("aria-disabled", "false");
  });

  // Pins: success needs nothing from the panel: the status events take the server to Ready, the panel goes, and a
  // logged-in OAuth server offers Log out beside Disconnect.
  it("returns by itself when the server becomes ready", async () => {
    serve([{ server: "github", status: NEEDS_LOGIN }]);
    const answer = pendingLogin();
    renderWithProviders(<ServersPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Log in github" }));
    emit("loginStarted", { server: "github", authorizationUrl: URL_TEXT, browserProblem: null });

    emit("serverStatusChanged", { server: "github", status: { state: "connecting" } });
    await waitFor(() => expect(screen.queryByRole("region", { name: "Login to github" })).not.toBeInTheDocument());
    emit("serverStatusChanged", { server: "github", status: READY });
    answer({ status: "ok", data: null });

    expect(await screen.findByRole("button", { name: "Log out of github" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Disconnect github" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Log out of plain/ })).not.toBeInTheDocument();
  });

  // Pins: a failed login shows the backend's message as literal text (markup makes no element); a refusal says
  // Plugboard refused the metadata on purpose; the notice can be dismissed.
  it("explains a failure as inert text, and a refusal as deliberate", async () => {
    serve([{ server: "github", status: NEEDS_LOGIN }]);
    let answer = pendingLogin();
    const { container } = renderWithProviders(<ServersPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Log in github" }));
    answer({
      status: "error",
      error: { code: "LoginFailed", refused: true, message: `the metadata lacks S256 ${HOSTILE}` },
    });

    const refused = await screen.findByText(`the metadata lacks S256 ${HOSTILE}`);
    const notice = refused.closest("[role=status]") as HTMLElement;
    expect(notice).toHaveTextContent("Plugboard refused this server's login");
    expect(notice).toHaveTextContent("This is on purpose");
    expect(container.querySelector("img, script")).toBeNull();

    await userEvent.click(within(notice).getByRole("button", { name: "Dismiss the login error of github" }));
    expect(screen.queryByText(/the metadata lacks S256/)).not.toBeInTheDocument();

    answer = pendingLogin();
    await userEvent.click(screen.getByRole("button", { name: "Log in github" }));
    answer({ status: "error", error: { code: "LoginFailed", refused: false, message: "token exchange: invalid_grant" } });
    const failed = (await screen.findByText("token exchange: invalid_grant")).closest("[role=status]") as HTMLElement;
    expect(failed).toHaveTextContent("The login did not complete");
    expect(failed).not.toHaveTextContent("This is on purpose");
  });

  // Pins: Log out asks first, with the safe choice focused; Escape and Keep back out without a call; confirming
  // calls logout_server with the server's name.
  it("logs out after a confirmation", async () => {
    serve([{ server: "github", status: READY }]);
    logoutServer.mockResolvedValue({ status: "ok", data: true });
    renderWithProviders(<ServersPage />);

    await userEvent.click(await screen.findByRole("button", { name: "Log out of github" }));
    const confirm = screen.getByRole("group", { name: "Confirm logging out of github" });
    expect(within(confirm).getByRole("button", { name: "Keep" })).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("group", { name: "Confirm logging out of github" })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Log out of github" }));
    await userEvent.click(screen.getByRole("button", { name: "Keep" }));
    expect(logoutServer).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Log out of github" }));
    await userEvent.click(screen.getByRole("button", { name: "Log out of github now" }));
    expect(logoutServer).toHaveBeenCalledWith("github");
    expect(logoutServer).toHaveBeenCalledTimes(1);
  });
});
