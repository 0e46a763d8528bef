// Tests for the run bar: Run only when allowed (saying why not), Cancel only while running, shortcuts advertised.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../../test/render";
import RunBar from "./RunBar";

describe("RunBar", () => {
  // Pins: a blocked Run says why and does nothing; Cancel does nothing while idle.
  it("says why it cannot run", async () => {
    const user = userEvent.setup();
    const onRun = vi.fn();
    const onCancel = vi.fn();
    renderWithProviders(<RunBar running={false} blocked="Pick a server and a tool." onRun={onRun} onCancel={onCancel} cancelError={null} />);

    expect(screen.getByText("Pick a server and a tool.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Run" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onRun).not.toHaveBeenCalled();
    expect(onCancel).not.toHaveBeenCalled();
  });

  // Pins: while running, Run is unavailable, Cancel works, and a failed cancel is announced.
  it("cancels while running", async () => {
    const user = userEvent.setup();
    const onRun = vi.fn();
    const onCancel = vi.fn();
    renderWithProviders(<RunBar running blocked={null} onRun={onRun} onCancel={onCancel} cancelError="gone" />);

    expect(screen.getByRole("button", { name: "Run" })).toHaveAttribute("aria-disabled", "true");
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveAttribute("aria-keyshortcuts", "Escape");
    await user.click(screen.getByRole("button", { name: "Run" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onRun).not.toHaveBeenCalled();
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("alert")).toHaveTextContent("Couldn't cancel: gone");
  });
});
