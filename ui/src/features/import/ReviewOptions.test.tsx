// Tests for the head of the review step: the outcome counts, the secrets that will move, and Local only.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { launchingFiles, plan } from "../../test/importFixtures";
import { NOTHING_LEFT_OUT } from "./plan";
import ReviewOptions from "./ReviewOptions";

describe("ReviewOptions", () => {
  // Pins: the outcomes are counted, and the secrets are said to be moving later, counted over written entries only.
  it("counts outcomes and the secrets that will move", () => {
    render(<ReviewOptions plan={plan(launchingFiles())} choices={{}} leftOut={NOTHING_LEFT_OUT} onLocalOnly={vi.fn()} disabled={false} />);
    expect(
      screen.getByText("4 new · 1 identical · 1 conflict · 0 invalid. 2 secrets will move to the keychain; servers.json will only refer to them."),
    ).toBeInTheDocument();
  });

  // Pins: Local only is offered with how many remote entries it leaves out, and reports the person's pick.
  it("offers Local only", async () => {
    const user = userEvent.setup();
    const onLocalOnly = vi.fn();
    render(<ReviewOptions plan={plan(launchingFiles())} choices={{}} leftOut={NOTHING_LEFT_OUT} onLocalOnly={onLocalOnly} disabled={false} />);
    const box = screen.getByRole("checkbox", { name: /^Local only/ });
    expect(box).toHaveAccessibleName(/leave out the 3 remote ones/);
    await user.click(box);
    expect(onLocalOnly).toHaveBeenCalledWith(true);
  });

  // Pins: a plan that does not say which entries are remote offers no Local only (it could not keep its word).
  it("offers no Local only when the plan does not say what is remote", () => {
    render(<ReviewOptions plan={plan()} choices={{}} leftOut={NOTHING_LEFT_OUT} onLocalOnly={vi.fn()} disabled={false} />);
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });
});
