// A server's JSON Schema with the text it shows people made safe to display: every `title` and `description`, and
// the legacy `enumNames`, get their hidden characters revealed. Values (enum, const, default, examples) stay exactly
// as the server wrote them, since they are what goes back to it. It never interprets markup.
import { revealHidden } from "../features/servers/revealHidden";

/** Keywords whose content is data sent back, never text shown as a label: left as written. */
const VALUES = new Set(["enum", "const", "default", "examples"]);
/** Keywords whose value maps names (a property, a definition) to schemas: a name is never a keyword. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** `schema` (or any sub-schema, or a list of them) with its shown text revealed. */
export function revealSchemaText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(revealSchemaText);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, revealKeyword(key, value)]));
}

function revealKeyword(key: string, value: unknown): unknown {
  if ((key === "title" || key === "description") && typeof value === "string") return revealHidden(value);
  if (key === "enumNames" && Array.isArray(value)) {
    return value.map((name: unknown) => (typeof name === "string" ? revealHidden(name) : name));
  }
  if (VALUES.has(key)) return value;
  if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, revealSchemaText(sub)]));
  }
  return revealSchemaText(value);
}
