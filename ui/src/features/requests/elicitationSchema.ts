// A server's requested schema (elicitation) made ready for its form, and the content Accept sends. The schema is read
// leniently (a broken one is a form with no fields, so the person can still decline), its shown text revealed, and a
// `default` kept only where its control can show it. The content is what the form shows, and nothing else: what the
// person entered and the defaults they saw; a field left alone with no default is absent.
import type { RJSFSchema } from "@rjsf/utils";
import { revealSchemaText } from "../../forms/revealSchemaText";
import { schemaValidator } from "../../forms/schemaValidator";

/** One property of a schema (a sub-schema, or `true`/`false`). */
type Property = NonNullable<RJSFSchema["properties"]>[string];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The form's schema for the requested schema's JSON text. */
export function elicitationSchema(text: string): RJSFSchema {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!isRecord(parsed)) return { type: "object", properties: {} };
  const schema = revealSchemaText(parsed) as RJSFSchema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [name, showableDefault(property, schema)]),
  );
  // The dialog's title names the server and the message says what for; a schema title on top would be a third.
  return { ...schema, type: "object", title: undefined, description: undefined, properties };
}

/**
 * `property` without its `default` when the default breaks the property's own schema: a dropdown cannot select a
 * value it does not list, so the person would not see what Accept sends.
 */
function showableDefault(property: Property, root: RJSFSchema): Property {
  if (typeof property !== "object" || !("default" in property)) return property;
  const { default: value, ...rest } = property;
  return schemaValidator.isValid(rest, value, root) ? property : rest;
}

/** What Accept sends: the schema's properties that hold a value in the form's `data`, none it does not name. */
export function answerContent(schema: RJSFSchema, data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  return Object.fromEntries(
    Object.keys(schema.properties ?? {})
      .filter((name) => data[name] !== undefined)
      .map((name) => [name, data[name]]),
  );
}
