// Tests for one client's card: state and budget words, the paths looked at, the profile chosen for Connect, the
// trims when over, and which actions are offered.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../../test/render";
import ClientCard from "./ClientCard";
import { budget, clientStatus } from "./clientFixtures";

vi.mock("../../ipc/bindings", () => ({ commands: { chooseClientLimit: vi.fn(), showInFolder: vi.fn() } }));

describe("ClientCard", () => {
  // Pins: a found client under its limit: its state, its count against the documented limit, and Connect with the
  // profile chosen in the select.
  it("connects with the chosen profile", async () => {
    const onAction = vi.fn();
    renderWithProviders(<ClientCard status={clientStatus()} onAction={onAction} />);
    const card = screen.getByRole("article", { name: "Cursor" });
    expect(card).toHaveTextContent("Found");
    expect(card).toHaveTextContent("12 tools through Plugboard · limit 40 (documented by Cursor)");
    expect(screen.queryByText("Over budget")).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Profile" }), "coding");
    await userEvent.click(screen.getByRole("button", { name: "Connect Cursor" }));
    expect(onAction).toHaveBeenCalledWith({ kind: "connect", profile: "coding" }, expect.any(HTMLElement));
    expect(screen.queryByRole("button", { name: "Disconnect" })).not.toBeInTheDocument();
  });

  // Pins: over its limit the card says so and by how much, and a fitting profile is one click from the dialog.
  it("offers the trims when over", async () => {
    const onAction = vi.fn();
    const over = budget({
      current: { profile: null, search: false, tools: 57, unknownServers: [] },
      trims: [{ kind: "profile", profile: "coding", tools: 5, search: false }, { kind: "searchMode", tools: 3 }],
    });
    renderWithProviders(<ClientCard status={clientStatus({ budget: over })} onAction={onAction} />);
    expect(screen.getByText("Over budget")).toBeInTheDocument();
    expect(screen.getByText(/over by 17/)).toBeInTheDocument();
    const trims = screen.getByRole("list", { name: "Ways under the limit" });
    expect(within(trims).getByText(/"mode": "search"/)).toBeInTheDocument();
    await userEvent.click(within(trims).getByRole("button", { name: "Connect with profile coding (5 tools)" }));
    expect(onAction).toHaveBeenCalledWith({ kind: "connect", profile: "coding" }, expect.any(HTMLElement));
  });

  // Pins: connected with a backup, the card offers Update, Disconnect and Restore, and the profile select starts
  // on the entry's profile; a client with no documented limit says so.
  it("offers disconnect and restore when connected", async () => {
    const onAction = vi.fn();
    const status = clientStatus({
      connection: { state: "current", profile: "coding" },
      hasBackup: true,
      budget: budget({ limit: null }),
    });
    renderWithProviders(<ClientCard status={status} onAction={onAction} />);
    expect(screen.getByRole("combobox", { name: "Profile" })).toHaveValue("coding");
    expect(screen.getByText(/Cursor documents no limit/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Disconnect" }));
    expect(onAction).toHaveBeenLastCalledWith({ kind: "disconnect" }, expect.any(HTMLElement));
    await userEvent.click(screen.getByRole("button", { name: "Restore its file" }));
    expect(onAction).toHaveBeenLastCalledWith({ kind: "restore" }, expect.any(HTMLElement));
    expect(screen.getByRole("button", { name: "Update Cursor" })).toBeInTheDocument();
  });

  // Pins: every place looked at is listed found or not; a problem reading the file is shown as text and Connect
  // is off.
  it("lists the places and shows a problem as text", () => {
    const status = clientStatus({
      problem: "/h/.cursor/mcp.json does not parse: <b>unexpected</b>",
      lookedAt: [
        { path: "/home/ada/.cursor/mcp.json", found: true },
        { path: "/home/ada/.cursor/other.json", found: false },
      ],
    });
    const { container } = renderWithProviders(<ClientCard status={status} onAction={vi.fn()} />);
    expect(screen.getByText("Cannot read")).toBeInTheDocument();
    expect(screen.getByText(/<b>unexpected<\/b>/)).toBeInTheDocument();
    expect(container.querySelector("b")).toBeNull();
    expect(screen.getByText("Where Plugboard looked (2 places)")).toBeInTheDocument();
    expect(screen.getByText("/home/ada/.cursor/other.json")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect Cursor" })).toBeDisabled();
  });
});
