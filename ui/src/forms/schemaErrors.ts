// @cfworker/json-schema's output units turned into rjsf's errors: only the errors a person can act on (not the
// "a subschema had errors" wrappers around them), each at the property path rjsf puts next to its field.
import type { OutputUnit } from "@cfworker/json-schema";
import type { RJSFSchema, RJSFValidationError } from "@rjsf/utils";
import { fieldTitle } from "./fieldTitle";
import { pointerSegments } from "./pointer";

/** Keywords whose error only says that a nested schema failed; the nested errors say where and why. */
const WRAPPERS = new Set([
  "$ref",
  "$recursiveRef",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "dependentSchemas",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "allOf",
  "if",
]);

/** Keywords whose branches are alternatives: their own error is the one to show, not each branch's. */
const ALTERNATIVES = new Set(["anyOf", "oneOf", "not", "contains", "propertyNames"]);
/** Keywords followed in a schema pointer by a name (a property, a definition), not by a keyword. */
const NAMED = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/** The errors rjsf shows for a failed validation of data against `root`, in the order the validator found them. */
export function toRjsfErrors(units: readonly OutputUnit[], root: RJSFSchema): RJSFValidationError[] {
  return units
    .filter((unit) => !WRAPPERS.has(unit.keyword) && !insideAlternative(unit.keywordLocation))
    .map((unit) => toRjsfError(unit, root));
}

function toRjsfError(unit: OutputUnit, root: RJSFSchema): RJSFValidationError {
  const path = pointerSegments(unit.instanceLocation);
  const missing = unit.keyword === "required" ? /"(.*)"\.$/.exec(unit.error)?.[1] : undefined;
  // rjsf shows a missing property's error at the property's field, as validator-ajv8 does.
  if (missing !== undefined) path.push(missing);
  const property = path.map((segment) => `.${segment}`).join("");
  const message = messageOf(unit);
  // `message` goes next to the field (under its label); `stack` is read alone, so it names the field by its title.
  const title = fieldTitle(root, path);
  return {
    name: unit.keyword,
    property,
    message,
    params: {},
    stack: `${title === undefined ? property : `'${title}'`} ${message}`.trim(),
    schemaPath: unit.keywordLocation,
    title: title ?? "",
  };
}

/** A short message in the words rjsf's own errors use ("must be …"), for the keywords tool schemas use most. */
function messageOf({ keyword, error }: OutputUnit): string {
  if (keyword === "required") return "is a required property";
  // A property the schema forbids (additionalProperties: false) fails the boolean schema `false`.
  if (keyword === "false") return "is not allowed here";
  const expected = /Expected "(.*)"\.$/.exec(error)?.[1];
  if (keyword === "type" && expected !== undefined) return `must be ${expected.split('", "').join(" or ")}`;
  const options = /any of (.*)\.$/.exec(error)?.[1];
  if (keyword === "enum" && options !== undefined) return `must be one of ${options}`;
  const format = /format "(.*)"\.$/.exec(error)?.[1];
  if (keyword === "format" && format !== undefined) return `must be a valid ${format}`;
  return error.replace(/^Instance /, "Value ");
}

/** Whether a schema location lies inside anyOf/oneOf/not/contains/propertyNames (one failed alternative). */
function insideAlternative(keywordLocation: string): boolean {
  const segments = pointerSegments(keywordLocation);
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index] ?? "";
    if (NAMED.has(segment)) index++;
    else if (ALTERNATIVES.has(segment)) return true;
  }
  return false;
}
