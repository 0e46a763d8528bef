// Tests of the shared schema form over every shape MCP's elicitation allows: single selects labelled by their titles
// (oneOf, legacy enumNames), pick-several arrays as one checkbox group, and data holding only what the person chose
// or was shown as a default. Server text in labels stays inert.
import { toErrorSchema, type RJSFSchema } from "@rjsf/utils";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { EVERY_SHAPE, EVERY_SHAPE_DEFAULTS } from "../test/schemaFixtures";
import SchemaForm from "./SchemaForm";

/** The form over its own data, shown as JSON so tests read exactly what would be sent. */
function Harness({ schema = EVERY_SHAPE as RJSFSchema }: { schema?: RJSFSchema }) {
  const [data, setData] = useState<unknown>({});
  return (
    <>
      <SchemaForm tagName="div" schema={schema} formData={data} onChange={(event) => setData(event.formData)} />
      <output aria-label="Data">{JSON.stringify(data)}</output>
    </>
  );
}

const data = () => JSON.parse(screen.getByRole("status", { name: "Data" }).textContent) as Record<string, unknown>;
const optionTexts = (name: string | RegExp) =>
  within(screen.getByRole("combobox", { name })).getAllByRole("option").map((option) => option.textContent);

describe("SchemaForm", () => {
  // Pins: an untitled enum, a titled oneOf and a legacy enumNames list are dropdowns showing the titles, and picking
  // a title stores its value; a default is shown selected.
  it("shows single selects with their titles and stores the values", async () => {
    const user = userEvent.setup();
    render(<Harness />);

    expect(optionTexts("Size")).toEqual(["", "small", "medium", "large"]);
    expect(optionTexts("Colour")).toEqual(["Red", "Green", "Blue"]);
    expect(screen.getByRole("combobox", { name: "Colour" })).toHaveDisplayValue("Green");
    expect(optionTexts(/Plan/)).toEqual(["", "Free", "Pro", "Team"]);

    await user.selectOptions(screen.getByRole("combobox", { name: /Plan/ }), "Pro");
    await user.selectOptions(screen.getByRole("combobox", { name: "Colour" }), "Blue");
    expect(data()).toMatchObject({ plan: "plan-2", colour: "#00f" });
  });

  // Pins: an array of enum values and an array of titled anyOf consts are each ONE checkbox group with the titles
  // (not a list of dropdowns, not "Unsupported field"); ticks are stored in the schema's order.
  it("shows pick-several arrays as one checkbox group each", async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness />);

    const toppings = screen.getByRole("group", { name: "Toppings" });
    expect(within(toppings).getAllByRole("checkbox").map((box) => box.closest("label")?.textContent)).toEqual([
      "cheese",
      "olives",
      "basil",
    ]);
    expect(within(toppings).getByRole("checkbox", { name: "cheese" })).toBeChecked();
    expect(toppings).toHaveAccessibleDescription(/Pick your pizza toppings/);
    const fruit = screen.getByRole("group", { name: "Fruit" });
    expect(within(fruit).getAllByRole("checkbox").map((box) => box.closest("label")?.textContent)).toEqual([
      "Apple",
      "Pear",
      "Plum",
    ]);
    expect(container).not.toHaveTextContent(/Unsupported|Unknown field type/);
    expect(screen.queryByRole("button", { name: /Add/ })).toBeNull();

    await user.click(within(fruit).getByRole("checkbox", { name: "Plum" }));
    await user.click(within(fruit).getByRole("checkbox", { name: "Apple" }));
    expect(data().fruit).toEqual(["fruit-1", "fruit-3"]);
  });

  // Pins: at maxItems the unticked boxes are disabled (the hint says how many), and unticking every box leaves the
  // field out rather than storing an empty list.
  it("caps a group at maxItems and stores nothing once every box is unticked", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const toppings = screen.getByRole("group", { name: "Toppings" });
    expect(within(toppings).getByText("Choose up to 2.")).toBeInTheDocument();

    await user.click(within(toppings).getByRole("checkbox", { name: "olives" }));
    expect(within(toppings).getByRole("checkbox", { name: "basil" })).toBeDisabled();
    expect(data().toppings).toEqual(["cheese", "olives"]);

    await user.click(within(toppings).getByRole("checkbox", { name: "cheese" }));
    await user.click(within(toppings).getByRole("checkbox", { name: "olives" }));
    expect(data()).not.toHaveProperty("toppings");
  });

  // Pins: the form starts from the schema's defaults alone: no first const of a titled list, no item for minItems, no
  // false for an untouched boolean.
  it("holds only the schema's defaults before the person edits", async () => {
    render(<Harness />);
    await screen.findByRole("group", { name: "Fruit" });
    await vi.waitFor(() => expect(data()).toStrictEqual(EVERY_SHAPE_DEFAULTS));
  });

  // Pins: option labels from the server (titles, enumNames, raw values) are inert text with hidden characters shown.
  it("shows server text in choices inert", () => {
    const schema = {
      type: "object",
      properties: {
        one: { type: "string", title: "One", oneOf: [{ const: "a", title: "<b>bold</b>\u202e" }] },
        legacy: { type: "string", title: "Legacy", enum: ["x"], enumNames: ["<i>x</i>\u200b"] },
        many: { type: "array", title: "Many", items: { enum: ["v\u202ew"] } },
      },
    } as RJSFSchema;
    const { container } = render(<Harness schema={schema} />);
    expect(optionTexts("One")).toContain("<b>bold</b>\\u{202e}");
    expect(optionTexts("Legacy")).toContain("<i>x</i>\\u{200b}");
    expect(screen.getByRole("checkbox", { name: "v\\u{202e}w" })).toBeInTheDocument();
    expect(container.querySelector("b, i")).toBeNull();
  });

  // Pins: an error beside a field (it may quote server values) is inert text with hidden characters shown.
  it("shows field errors inert", () => {
    const schema: RJSFSchema = { type: "object", properties: { a: { type: "string", title: "A" } } };
    const extraErrors = toErrorSchema([{ property: ".a", message: "<b>no</b>\u202e", stack: "" }]);
    const { container } = render(<SchemaForm tagName="div" schema={schema} formData={{}} extraErrors={extraErrors} />);
    expect(container.querySelector("b")).toBeNull();
    expect(screen.getByText("<b>no</b>\\u{202e}")).toBeInTheDocument();
  });
});
