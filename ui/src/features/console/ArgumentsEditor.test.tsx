// Tests for the arguments editor: a labelled form from the schema, form and JSON editing the same text, JSON
// problems marked, schema errors listed, and hostile schema text inert.
import { EditorView } from "@codemirror/view";
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../test/render";
import ArgumentsEditor from "./ArgumentsEditor";

const SCHEMA = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    message: { type: "string", title: "Message", description: "What to echo" },
    count: { type: "integer" },
  },
  required: ["message"],
});

/** The editor over its own text state, showing the text so tests can read what Run would send. */
function Harness({ schema = SCHEMA, initial = "{}", showErrors }: { schema?: string; initial?: string; showErrors?: boolean }) {
  const [text, setText] = useState(initial);
  return (
    <>
      <ArgumentsEditor tool="echo" schemaText={schema} text={text} onChange={setText} showErrors={showErrors} />
      <output aria-label="Current arguments">{text}</output>
    </>
  );
}

/** Replaces the JSON editor's whole text the way typing would (through CodeMirror's own update path). */
function typeIntoJsonEditor(text: string) {
  const view = EditorView.findFromDOM(screen.getByRole("textbox", { name: "Arguments of echo as JSON" }));
  if (view === null) throw new Error("no editor");
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

describe("ArgumentsEditor", () => {
  // Pins: the form has labelled inputs from the schema, and typing there changes the JSON text (and the JSON view).
  it("edits the arguments through the form and shows them as JSON", async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);

    const message = screen.getByRole("textbox", { name: /Message/ });
    expect(message).toHaveAccessibleDescription(/What to echo/);
    await user.type(message, "hi");
    await user.type(screen.getByRole("spinbutton", { name: "count" }), "3");
    expect(JSON.parse(screen.getByRole("status", { name: "Current arguments" }).textContent)).toEqual({
      message: "hi",
      count: 3,
    });

    await user.click(screen.getByRole("tab", { name: "JSON" }));
    expect(screen.getByRole("textbox", { name: "Arguments of echo as JSON" })).toHaveTextContent('"message": "hi"');
    expect(screen.getByText("Valid arguments.")).toBeInTheDocument();
  });

  // Pins: an edit in the JSON view shows up in the form; invalid JSON is marked with its line and column.
  it("edits the arguments as JSON and the form follows", async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);

    await user.click(screen.getByRole("tab", { name: "JSON" }));
    typeIntoJsonEditor('{\n  "message": "from json"\n}');
    await user.click(screen.getByRole("tab", { name: "Form" }));
    expect(screen.getByRole("textbox", { name: /Message/ })).toHaveValue("from json");

    await user.click(screen.getByRole("tab", { name: "JSON" }));
    typeIntoJsonEditor('{\n  "message": \n}');
    // This engine's message names no position, so the mark falls at the end of the text.
    expect(screen.getByText(/^Line 3, column 2: Unexpected token/)).toBeInTheDocument();
    typeIntoJsonEditor("[1]");
    expect(screen.getByText(/must be a JSON object/)).toBeInTheDocument();
    await user.click(screen.getByRole("tab", { name: "Form" }));
    expect(screen.getByText(/fix it there to use the form/)).toBeInTheDocument();
  });

  // Pins: what the schema rejects is listed under the JSON view (a required field missing, a wrong type).
  it("lists schema errors in the JSON view", async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness initial='{ "count": "x" }' />);

    await user.click(screen.getByRole("tab", { name: "JSON" }));
    expect(screen.getByText(/Schema: .*'Message' is a required property/)).toBeInTheDocument();
    expect(screen.getByText(/Schema: .*must be integer/)).toBeInTheDocument();
  });

  // Pins: the form checks as you type and puts the error under the field it is about.
  it("shows a schema error next to its field in the form", async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness initial='{ "message": "hi" }' />);

    await user.type(screen.getByRole("spinbutton", { name: "count" }), "1.5");
    const count = screen.getByRole("spinbutton", { name: "count" }).parentElement;
    expect(count).toHaveTextContent("must be integer");
    expect(screen.getByRole("textbox", { name: /Message/ }).parentElement).not.toHaveTextContent("must be");
  });

  // Pins: the console's form shares the elicitation form's choices: a legacy enumNames list shows its titles, a
  // pick-several array (titled anyOf consts) is one checkbox group, and the JSON holds the values picked.
  it("shows fixed choices with their titles and picks several as checkboxes", async () => {
    const user = userEvent.setup();
    const schema = JSON.stringify({
      type: "object",
      properties: {
        plan: { type: "string", title: "Plan", enum: ["p1", "p2"], enumNames: ["Free", "Pro"] },
        tags: { type: "array", title: "Tags", items: { anyOf: [{ const: "t1", title: "Urgent" }, { const: "t2", title: "Later" }] } },
      },
    });
    renderWithProviders(<Harness schema={schema} />);

    await user.selectOptions(screen.getByRole("combobox", { name: "Plan" }), "Pro");
    await user.click(within(screen.getByRole("group", { name: "Tags" })).getByRole("checkbox", { name: "Later" }));
    expect(JSON.parse(screen.getByRole("status", { name: "Current arguments" }).textContent)).toEqual({
      plan: "p2",
      tags: ["t2"],
    });
  });

  // Pins: a fresh form marks nothing; once Run was refused (showErrors) a missing required field is named beside it
  // before any edit, and the mark goes when the field is filled in.
  it("marks a missing required field at the field once Run was refused", async () => {
    const user = userEvent.setup();
    const { rerender } = renderWithProviders(<Harness />);
    const field = () => screen.getByRole("textbox", { name: /Message/ }).parentElement;
    expect(field()).not.toHaveTextContent("is a required property");

    rerender(<Harness showErrors />);
    expect(field()).toHaveTextContent("is a required property");
    await user.type(screen.getByRole("textbox", { name: /Message/ }), "hi");
    expect(field()).not.toHaveTextContent("is a required property");
  });

  // Pins: titles and descriptions from the schema are inert text with hidden characters revealed.
  it("shows hostile schema text inert", () => {
    const hostile = JSON.stringify({
      type: "object",
      properties: { a: { type: "string", title: "<img src=x onerror=alert(1)>", description: "**bold**\u200b<script>x</script>" } },
    });
    const { container } = renderWithProviders(<Harness schema={hostile} />);

    expect(screen.getByRole("textbox", { name: "<img src=x onerror=alert(1)>" })).toBeInTheDocument();
    expect(screen.getByText("**bold**\\u{200b}<script>x</script>")).toBeInTheDocument();
    expect(container.querySelector("img, script, strong")).toBeNull();
  });
});
