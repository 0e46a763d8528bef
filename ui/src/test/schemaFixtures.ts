// Schemas shared by the form tests (Vitest and the browser tests): one property of every shape MCP's 2025-11-25
// elicitation allows (string formats, numbers, booleans, the five kinds of enum), some with defaults, and a long form.

/** Every elicitation shape; `name` and `plan` are required; greeting, ratio, signedIn, colour and toppings have defaults. */
export const EVERY_SHAPE = {
  type: "object",
  properties: {
    name: { type: "string", title: "Full name", description: "As printed on your badge.", minLength: 2, maxLength: 40 },
    email: { type: "string", title: "Email", format: "email" },
    homepage: { type: "string", title: "Homepage", format: "uri" },
    birthday: { type: "string", title: "Birthday", format: "date" },
    meeting: { type: "string", title: "Meeting time", format: "date-time" },
    greeting: { type: "string", title: "Greeting", default: "Hello there" },
    age: { type: "integer", title: "Age", minimum: 0, maximum: 150 },
    ratio: { type: "number", title: "Ratio", minimum: 0, maximum: 1, default: 0.5 },
    terms: { type: "boolean", title: "Agree to the terms" },
    signedIn: { type: "boolean", title: "Keep me signed in", default: true },
    // (a) untitled single-select
    size: { type: "string", title: "Size", enum: ["small", "medium", "large"] },
    // (b) titled single-select
    colour: {
      type: "string",
      title: "Colour",
      oneOf: [
        { const: "#f00", title: "Red" },
        { const: "#0f0", title: "Green" },
        { const: "#00f", title: "Blue" },
      ],
      default: "#0f0",
    },
    // (c) legacy titled single-select
    plan: { type: "string", title: "Plan", enum: ["plan-1", "plan-2", "plan-3"], enumNames: ["Free", "Pro", "Team"] },
    // (d) untitled multi-select
    toppings: {
      type: "array",
      title: "Toppings",
      description: "Pick your pizza toppings.",
      items: { type: "string", enum: ["cheese", "olives", "basil"] },
      maxItems: 2,
      default: ["cheese"],
    },
    // (e) titled multi-select, no default: left alone it must not be sent
    fruit: {
      type: "array",
      title: "Fruit",
      minItems: 1,
      items: {
        anyOf: [
          { const: "fruit-1", title: "Apple" },
          { const: "fruit-2", title: "Pear" },
          { const: "fruit-3", title: "Plum" },
        ],
      },
    },
  },
  required: ["name", "plan"],
};

/** What Accept sends for EVERY_SHAPE when the person fills in only the required fields: those and the defaults. */
export const EVERY_SHAPE_DEFAULTS = { greeting: "Hello there", ratio: 0.5, signedIn: true, colour: "#0f0", toppings: ["cheese"] };

/** A form taller than any window: 30 text fields. */
export const LONG_FORM = {
  type: "object",
  properties: Object.fromEntries(
    Array.from({ length: 30 }, (_, index) => [`field${index + 1}`, { type: "string", title: `Field ${index + 1}` }]),
  ),
};
