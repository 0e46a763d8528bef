// Tests for Diagnose on a server's page: the doctor's steps in order, the failing one with what to do, later ones
// skipped, server text inert.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { commands } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import DiagnosePanel from "./DiagnosePanel";

vi.mock("../../../ipc/bindings", () => ({ commands: { diagnoseServer: vi.fn() } }));

describe("DiagnosePanel", () => {
  // Run diagnosis lists every step; the failed step says what to do; steps after it are marked skipped.
  it("shows the steps and what to do about the failing one", async () => {
    const user = userEvent.setup();
    vi.mocked(commands.diagnoseServer).mockResolvedValue({
      status: "ok",
      data: [
        { name: "config", outcome: "passed", detail: "a local server: uvx mcp-server-fetch" },
        { name: "references", outcome: "passed", detail: "0 secret(s) found in the keychain" },
        { name: "program", outcome: "failed", detail: "uvx <b>not</b> found", whatToDo: "Install uv (it brings uvx), then retry." },
        { name: "handshake", outcome: "skipped" },
      ],
    });
    renderWithProviders(<DiagnosePanel server="fetch" />);
    await user.click(screen.getByRole("button", { name: "Run diagnosis" }));
    const steps = within(await screen.findByRole("list", { name: "Diagnosis" })).getAllByRole("listitem");
    expect(steps.map((step) => step.textContent)).toEqual([
      "Config passeda local server: uvx mcp-server-fetch",
      "References passed0 secret(s) found in the keychain",
      "Program faileduvx <b>not</b> foundWhat to do: Install uv (it brings uvx), then retry.",
      "Handshake skipped (an earlier step failed)",
    ]);
    expect(document.querySelector("b")).toBeNull();
    expect(commands.diagnoseServer).toHaveBeenCalledWith("fetch");
    expect(screen.getByRole("button", { name: "Diagnose again" })).toBeInTheDocument();
  });
});
