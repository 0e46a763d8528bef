// Tests of the elicitation form with the IPC mocked: every shape of MCP's 2025-11-25 requested schema as a titled
// control, Accept sending only what the person entered or saw as a default, required fields checked before sending,
// and a default its control cannot show left out.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../../ipc/bindings";
import { EVERY_SHAPE, EVERY_SHAPE_DEFAULTS } from "../../test/schemaFixtures";
import ElicitationForm from "./ElicitationForm";
import type { Answer } from "./RequestDialog";

vi.mock("../../ipc/bindings", () => ({ commands: { answerElicitation: vi.fn() } }));

const answer: Answer = async (send) => {
  await send();
};

function renderForm(schema: object = EVERY_SHAPE) {
  const ask = { kind: "elicitation", message: "Tell us about you.", schema: JSON.stringify(schema) } as const;
  return render(<ElicitationForm id={4} ask={ask} answer={answer} sending={false} />);
}

/** The content of the one answer sent, parsed. */
function sentContent(): unknown {
  expect(commands.answerElicitation).toHaveBeenCalledTimes(1);
  const [id, action, content] = vi.mocked(commands.answerElicitation).mock.calls[0]!;
  expect([id, action]).toEqual([4, "accept"]);
  return JSON.parse(content ?? "null");
}

describe("ElicitationForm", () => {
  beforeEach(() => {
    vi.mocked(commands.answerElicitation).mockReset().mockResolvedValue({ status: "ok", data: null });
  });

  // Pins: each shape the spec allows is a control named by its title: text, email, URI, date, date-time, integer,
  // number, booleans, the three single selects and the two pick-several groups.
  it("shows every shape as a titled control", () => {
    renderForm();
    for (const name of [/Full name/, "Email", "Homepage", "Greeting"]) {
      expect(screen.getByRole("textbox", { name })).toBeInTheDocument();
    }
    expect(screen.getByLabelText("Birthday")).toHaveAttribute("type", "date");
    expect(screen.getByLabelText("Meeting time")).toHaveAttribute("type", "datetime-local");
    expect(screen.getByRole("spinbutton", { name: "Age" })).toBeInTheDocument();
    expect(screen.getByRole("spinbutton", { name: "Ratio" })).toHaveValue(0.5);
    expect(screen.getByRole("checkbox", { name: "Agree to the terms" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Keep me signed in" })).toBeChecked();
    expect(screen.getByRole("combobox", { name: "Size" })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Colour" })).toHaveDisplayValue("Green");
    expect(screen.getByRole("combobox", { name: /Plan/ })).toHaveDisplayValue("");
    expect(within(screen.getByRole("group", { name: "Toppings" })).getAllByRole("checkbox")).toHaveLength(3);
    expect(within(screen.getByRole("group", { name: "Fruit" })).getAllByRole("checkbox")).toHaveLength(3);
  });

  // Pins: Accept sends what the person entered plus the defaults they saw; a field left alone with no default (the
  // titled multi-select with minItems, the boolean, the selects) is absent, not filled in by the form.
  it("sends only what the person entered and the defaults shown", async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByRole("textbox", { name: /Full name/ }), "Ada");
    await user.selectOptions(screen.getByRole("combobox", { name: /Plan/ }), "Team");
    await user.click(screen.getByRole("button", { name: "Accept" }));
    expect(sentContent()).toStrictEqual({ name: "Ada", plan: "plan-3", ...EVERY_SHAPE_DEFAULTS });
  });

  // Pins: what the person picks is sent as the schema's values: titles map back to consts, several ticks to a list.
  it("sends the values of the choices picked", async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByRole("textbox", { name: /Full name/ }), "Ada");
    await user.selectOptions(screen.getByRole("combobox", { name: /Plan/ }), "Free");
    await user.click(within(screen.getByRole("group", { name: "Fruit" })).getByRole("checkbox", { name: "Pear" }));
    await user.click(within(screen.getByRole("group", { name: "Toppings" })).getByRole("checkbox", { name: "basil" }));
    await user.click(screen.getByRole("checkbox", { name: "Agree to the terms" }));
    await user.click(screen.getByRole("button", { name: "Accept" }));
    expect(sentContent()).toMatchObject({ plan: "plan-1", fruit: ["fruit-2"], toppings: ["cheese", "basil"], terms: true });
  });

  // Pins: Accept (in the footer, outside the form element) still checks first: each empty required field is named at
  // the field, and nothing is sent.
  it("checks required fields before sending", async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole("button", { name: "Accept" }));
    const name = screen.getByRole("textbox", { name: /Full name/ });
    expect(name.closest("div")).toHaveTextContent("is a required property");
    expect(screen.getByRole("combobox", { name: /Plan/ }).closest("div")).toHaveTextContent("is a required property");
    expect(commands.answerElicitation).not.toHaveBeenCalled();
  });

  // Pins: a default the property's own schema refuses (a value the dropdown does not list) is not sent unseen.
  it("leaves out a default its control cannot show", async () => {
    const user = userEvent.setup();
    renderForm({ type: "object", properties: { pet: { type: "string", title: "Pet", enum: ["cat"], default: "dog" } } });
    expect(screen.getByRole("combobox", { name: "Pet" })).toHaveDisplayValue("");
    await user.click(screen.getByRole("button", { name: "Accept" }));
    expect(sentContent()).toStrictEqual({});
  });
});
