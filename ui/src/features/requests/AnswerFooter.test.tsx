// Tests for the request dialogs' answer footer: its buttons, their order and names, which handler each calls, the
// form the primary button submits, and every button disabled while an answer is on its way.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import AnswerFooter from "./AnswerFooter";

describe("AnswerFooter", () => {
  // Pins: with a Cancel handler the buttons read Cancel, Decline, then the submit label, and each calls its own.
  it("offers Cancel, Decline and the submit button in that order", async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const onDecline = vi.fn();
    render(<AnswerFooter submitLabel="Accept" onCancel={onCancel} onDecline={onDecline} form="the-form" sending={false} />);

    const buttons = screen.getAllByRole("button");
    expect(buttons.map((button) => button.textContent)).toEqual(["Cancel", "Decline", "Accept"]);
    expect(screen.getByRole("button", { name: "Accept" })).toHaveAttribute("type", "submit");
    expect(screen.getByRole("button", { name: "Accept" })).toHaveAttribute("form", "the-form");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onDecline).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(onDecline).toHaveBeenCalledTimes(1);
  });

  // Pins: without a Cancel handler there is no Cancel button, and inside its form the submit button names no form.
  it("has no Cancel button without a Cancel handler", () => {
    render(<AnswerFooter submitLabel="Share folders" onDecline={() => {}} sending={false} />);

    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(["Decline", "Share folders"]);
    expect(screen.getByRole("button", { name: "Share folders" })).not.toHaveAttribute("form");
  });

  // Pins: while an answer is on its way every button is disabled, so the request cannot be answered twice.
  it("disables every button while sending", () => {
    render(<AnswerFooter submitLabel="Accept" onCancel={() => {}} onDecline={() => {}} sending />);

    for (const button of screen.getAllByRole("button")) expect(button).toBeDisabled();
  });
});
