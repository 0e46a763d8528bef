// Tests for the CodeMirror wrapper in jsdom: labelled editing area, text in and out, and a problem marked.
import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import JsonCodeEditor from "./JsonCodeEditor";

describe("JsonCodeEditor", () => {
  // Pins: the editing area is a labelled, described multi-line textbox showing the value; a new value replaces it.
  it("shows the value in a labelled editing area and follows new values", () => {
    const { rerender } = render(
      <JsonCodeEditor value={'{ "a": 1 }'} onChange={vi.fn()} problem={null} label="Entry as JSON" describedBy="m" />,
    );
    const area = screen.getByRole("textbox", { name: "Entry as JSON" });
    expect(area).toHaveAttribute("aria-multiline", "true");
    expect(area).toHaveAttribute("aria-describedby", "m");
    expect(area).toHaveTextContent('{ "a": 1 }');

    rerender(<JsonCodeEditor value={'{ "b": 2 }'} onChange={vi.fn()} problem={null} label="Entry as JSON" />);
    expect(area).toHaveTextContent('{ "b": 2 }');
  });

  // Pins: markup in the text stays text inside the editor (CodeMirror renders text nodes, never HTML).
  it("keeps markup in the text inert", () => {
    const { container } = render(
      <JsonCodeEditor value={'{ "x": "<img src=x onerror=alert(1)>" }'} onChange={vi.fn()} problem={null} label="E" />,
    );
    expect(screen.getByRole("textbox", { name: "E" })).toHaveTextContent("<img src=x onerror=alert(1)>");
    expect(container.querySelector("img")).toBeNull();
  });

  // Pins: a problem is marked as a lint error at its line (the gutter shows a marker).
  it("marks the problem", async () => {
    const { container } = render(
      <JsonCodeEditor
        value={'{\n  "url": "ftp://x"\n}'}
        onChange={vi.fn()}
        problem={{ line: 2, column: 3, message: "bad scheme" }}
        label="E"
      />,
    );
    await waitFor(() => expect(container.querySelector(".cm-lintRange-error")).not.toBeNull());
    expect(container.querySelector(".cm-lintRange-error")).toHaveTextContent('"url": "ftp://x"');
  });
});
