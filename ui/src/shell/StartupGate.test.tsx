// Tests for the start-up gate: the app when the engine runs, and otherwise what is wrong and what to do, as text.
import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../ipc/bindings";
import { renderWithProviders } from "../test/render";
import StartupGate from "./StartupGate";

vi.mock("../ipc/bindings", () => ({ commands: { startupProblem: vi.fn() } }));

const startupProblem = vi.mocked(commands.startupProblem);

describe("StartupGate", () => {
  beforeEach(() => vi.clearAllMocks());

  it("shows the app when Plugboard started", async () => {
    startupProblem.mockResolvedValue({ status: "ok", data: null });
    renderWithProviders(<StartupGate>the app</StartupGate>);
    expect(await screen.findByText("the app")).toBeInTheDocument();
  });

  it("shows what is wrong and what to do instead of the app", async () => {
    startupProblem.mockResolvedValue({
      status: "ok",
      data: {
        what: "cannot read /home/ada/.config/plugboard/servers.json: Not a directory <b>x</b>",
        remedy: "Make sure /home/ada/.config/plugboard is a folder you can write to.",
      },
    });
    renderWithProviders(<StartupGate>the app</StartupGate>);
    expect(await screen.findByRole("heading", { name: "Plugboard cannot start" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Not a directory <b>x</b>");
    expect(screen.getByText(/Make sure \/home\/ada\/.config\/plugboard is a folder/)).toBeInTheDocument();
    expect(screen.queryByText("the app")).toBeNull();
  });
});
