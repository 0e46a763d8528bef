// Tests for the result view: every content type rendered, hostile text inert, media only from their own types,
// a tool error distinct and announced, failures and cancels in words, with the latency.
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CallOutcome } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import ResultView from "./ResultView";

const HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>\u200b";
const PNG = "iVBORw0KGgo=";

function result(value: unknown, isError = false): CallOutcome {
  return { kind: "result", isError, result: JSON.stringify(value), truncated: false };
}

describe("ResultView", () => {
  // Pins: each content type renders as itself; markdown and hostile markup stay text; images and audio are data: URLs.
  it("renders each content type, all server text inert", () => {
    const { container } = renderWithProviders(
      <ResultView headingLevel={4}
        durationMs={85}
        outcome={result({
          content: [
            { type: "text", text: `# Title **bold** ${HOSTILE}` },
            { type: "image", data: PNG, mimeType: "image/png" },
            { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
            { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: HOSTILE, mimeType: "text/plain" },
            { type: "resource", resource: { uri: "mem://t", mimeType: "text/markdown", text: "*hi*" } },
            { type: "resource", resource: { uri: "mem://b", mimeType: "application/octet-stream", blob: "AAAA" } },
          ],
          structuredContent: { sum: 3 },
        })}
      />,
    );

    expect(screen.getByRole("status")).toHaveTextContent("Done in 85 ms.");
    expect(screen.getByText(/^# Title \*\*bold\*\* <script>alert\(1\)<\/script><img src=x onerror=alert\(2\)>\\u\{200b\}$/)).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Image 2 returned by the tool (image/png)" })).toHaveAttribute(
      "src",
      `data:image/png;base64,${PNG}`,
    );
    const audio = container.querySelector("audio");
    expect(audio).toHaveAttribute("src", "data:audio/wav;base64,UklGRg==");
    expect(audio).toHaveAttribute("controls");
    expect(screen.getByText("Link to a resource: a.txt")).toBeInTheDocument();
    expect(screen.getByText("file:///a.txt")).toBeInTheDocument();
    expect(screen.getByText("*hi*")).toBeInTheDocument();
    expect(screen.getByText("Binary content, 3 bytes; not shown.")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Structured content" })).toHaveTextContent('"sum": 3');
    // Pins: under a history entry's h3 the result's heading is an h4 (axe heading-order).
    expect(screen.getByRole("heading", { level: 4, name: "Structured content" })).toBeInTheDocument();
    expect(container.querySelector("script, h1, strong, img:not([src^='data:image/png'])")).toBeNull();
  });

  // Pins: an image whose type is not image/* (or whose data is not base64) is described, never put in a src.
  // Pins: right under the Console's h1 the result's heading is an h2, never skipping a level (axe heading-order).
  it("puts its headings at the level it is given", () => {
    renderWithProviders(
      <ResultView headingLevel={2} durationMs={5} outcome={result({ content: [], structuredContent: { sum: 3 } })} />,
    );
    expect(screen.getByRole("heading", { level: 2, name: "Structured content" })).toBeInTheDocument();
  });

  it("refuses media that is not what it claims", () => {
    const { container } = renderWithProviders(
      <ResultView headingLevel={4}
        durationMs={1}
        outcome={result({
          content: [
            { type: "image", data: PNG, mimeType: "text/html" },
            { type: "image", data: "javascript:alert(1)", mimeType: "image/png" },
          ],
        })}
      />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getAllByText(/that the console does not show/)).toHaveLength(2);
  });

  // Pins: isError is announced (role=alert) in the danger style, with its content still shown.
  it("marks a tool error", () => {
    renderWithProviders(<ResultView headingLevel={4} durationMs={1500} outcome={result({ content: [{ type: "text", text: "bad input" }] }, true)} />);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The tool reported an error (after 1.5 s).");
    expect(alert.parentElement).toHaveClass("border-danger");
    expect(screen.getByText("bad input")).toBeInTheDocument();
    expect(screen.queryByText(/Done in/)).toBeNull();
  });

  // Pins: a failure and a cancel are said in words (the failure announced, its message inert).
  it("says failed and cancelled in words", () => {
    const { rerender } = renderWithProviders(
      <ResultView headingLevel={4} durationMs={30000} outcome={{ kind: "failed", message: `timed out ${HOSTILE}` }} />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("The call failed after 30.0 s.");
    expect(screen.getByText(/^timed out <script>/)).toBeInTheDocument();

    rerender(<ResultView headingLevel={4} durationMs={12} outcome={{ kind: "cancelled" }} />);
    expect(screen.getByRole("status")).toHaveTextContent("The call was cancelled after 12 ms.");
  });
});
