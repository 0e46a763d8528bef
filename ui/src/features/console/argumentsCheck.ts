// The console's one check of a tool's arguments against its input schema (the shared eval-free validator): the errors
// the JSON view lists and the form puts next to their fields, and the required fields Run waits for. Only a missing
// required field stops Run (the server would refuse the call with a bare -32602); other errors are shown, and the call
// may still go, since a console is also for seeing how a server answers arguments its schema rejects.
import type { ErrorSchema, RJSFSchema, RJSFValidationError } from "@rjsf/utils";
import { useMemo } from "react";
import { schemaValidator } from "../../forms/schemaValidator";
import { formSchema, type ParsedArgs } from "./argsJson";

/** What the schema says of the arguments. */
export type ArgumentsCheck = {
  /** Every error, as read away from the form (the JSON view): titled, e.g. "'Message' is a required property". */
  stacks: string[];
  /** The errors by field, for the form to show beside each one. */
  errorSchema: ErrorSchema;
  /** The required fields missing, by title (or name): Run waits until they are filled in. */
  missing: string[];
};

const NONE: ArgumentsCheck = { stacks: [], errorSchema: {}, missing: [] };

/** Checks `parsed` against `schema`; nothing to say when there is no usable schema or the text is no object. */
export function checkArguments(schema: RJSFSchema | null, parsed: ParsedArgs): ArgumentsCheck {
  if (schema === null || !parsed.ok) return NONE;
  const { errors, errorSchema } = schemaValidator.validateFormData(parsed.value, schema);
  if (errors.length === 0) return NONE;
  return { stacks: errors.map((error) => error.stack), errorSchema, missing: errors.filter(isMissing).map(nameOf) };
}

/** The form's schema for a tool's input schema text (null: none, or unusable) and the check of `parsed` against it. */
export function useArgumentsCheck(schemaText: string | null, parsed: ParsedArgs) {
  const schema = useMemo(() => (schemaText === null ? null : formSchema(schemaText)), [schemaText]);
  const check = useMemo(() => checkArguments(schema, parsed), [schema, parsed]);
  return { schema, check };
}

function isMissing(error: RJSFValidationError): boolean {
  return error.name === "required";
}

function nameOf({ title, property }: RJSFValidationError): string {
  return title !== undefined && title !== "" ? title : (property ?? "").replace(/^\./, "");
}
