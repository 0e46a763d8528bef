// The fixed choices a schema offers, as value and label pairs: `enum` (labelled by the legacy `enumNames` when given),
// or `oneOf`/`anyOf` of `const`s labelled by their `title`s. Pure; the widgets show the labels as inert text.
import type { RJSFSchema } from "@rjsf/utils";

/** One choice: the value sent and the label shown (the server's title, or the value itself). */
export type Choice = { value: unknown; label: string };

/** The choices of `schema`, or null when it does not restrict its value to a fixed list. */
export function choicesOf(schema: unknown): Choice[] | null {
  if (typeof schema !== "object" || schema === null) return null;
  const { enum: values, enumNames, oneOf, anyOf } = schema as RJSFSchema & { enumNames?: unknown };
  if (Array.isArray(values)) {
    // enumNames is not JSON Schema, but MCP's 2025-11-25 elicitation still allows it (LegacyTitledEnumSchema).
    const names: unknown[] = Array.isArray(enumNames) ? enumNames : [];
    return values.map((value, index) => {
      const name = names[index];
      return { value, label: typeof name === "string" && name !== "" ? name : labelOf(value) };
    });
  }
  const options = oneOf ?? anyOf;
  if (!Array.isArray(options) || options.length === 0) return null;
  const choices: Choice[] = [];
  for (const option of options) {
    if (typeof option !== "object" || !("const" in option)) return null;
    const { const: value, title } = option;
    choices.push({ value, label: typeof title === "string" && title !== "" ? title : labelOf(value) });
  }
  return choices;
}

/** The choices of an array's items when it is a pick-several list (one `items` schema with fixed choices). */
export function itemChoicesOf(schema: RJSFSchema, resolve: (items: RJSFSchema) => RJSFSchema): Choice[] | null {
  const { items } = schema;
  if (typeof items !== "object" || Array.isArray(items)) return null;
  return choicesOf(resolve(items));
}

/** "Choose 1 to 3." and the like, from minItems and maxItems; null when the schema sets neither. */
export function countHint({ minItems: min, maxItems: max }: RJSFSchema): string | null {
  if (min !== undefined && min > 0 && max !== undefined) return min === max ? `Choose ${min}.` : `Choose ${min} to ${max}.`;
  if (min !== undefined && min > 0) return `Choose at least ${min}.`;
  if (max !== undefined) return `Choose up to ${max}.`;
  return null;
}

function labelOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
