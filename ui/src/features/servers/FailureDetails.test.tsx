// Tests for a failed server's details: the error reads as a sentence, the stderr tail stays exactly as written.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import FailureDetails from "./FailureDetails";

describe("FailureDetails", () => {
  // Pins: a backend error that starts lower-case is shown with a capital first letter, the stderr tail untouched.
  it("starts the error with a capital letter", () => {
    render(<FailureDetails server="weather" error="exited with status 1" stderrTail="error: no module httpx" />);
    expect(screen.getByText("Exited with status 1")).toBeInTheDocument();
    expect(screen.getByLabelText("stderr of weather")).toHaveTextContent(/^error: no module httpx$/);
  });

  // Pins: an error that starts with a program's name keeps it as written.
  it("keeps a program name at the start as it is", () => {
    render(<FailureDetails server="files" error="npx: command not found" stderrTail={null} />);
    expect(screen.getByText("npx: command not found")).toBeInTheDocument();
  });
});
