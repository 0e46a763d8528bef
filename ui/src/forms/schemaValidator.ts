// The rjsf validator every schema form uses (the console's arguments, elicitation dialogs): JSON Schema checks by
// @cfworker/json-schema, which interprets schemas instead of compiling them to code, so they run under the app's CSP
// (script-src 'self', no 'unsafe-eval') where validator-ajv8's `new Function` is refused. It must never evaluate code.
import { validate, type OutputUnit } from "@cfworker/json-schema";
import {
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorSchema,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from "@rjsf/utils";
import { compileRoot, compileSub, type Compiled } from "./compiledSchema";
import { toRjsfErrors } from "./schemaErrors";

/** The raw outcome: the validator's output units, or why the schema itself could not be used. */
type RawResult = { errors?: OutputUnit[]; validationError?: Error };

function run(compiled: Compiled, formData: unknown): OutputUnit[] {
  // shortCircuit off: every error is reported, so each field shows its own.
  return validate(formData, compiled.schema, compiled.draft, compiled.lookup, false).errors;
}

function rawValidation<Result = OutputUnit>(
  schema: RJSFSchema,
  formData?: unknown,
): { errors?: Result[]; validationError?: Error } {
  const result: RawResult = {};
  try {
    const errors = run(compileRoot(schema), formData);
    if (errors.length > 0) result.errors = errors;
  } catch (error) {
    result.validationError = error instanceof Error ? error : new Error(String(error));
  }
  return result as { errors?: Result[]; validationError?: Error };
}

function validateFormData(
  formData: unknown,
  schema: RJSFSchema,
  customValidate?: CustomValidator,
  transformErrors?: ErrorTransformer,
  uiSchema?: UiSchema,
): ValidationData<unknown> {
  const raw = rawValidation(schema, formData);
  let errors: RJSFValidationError[] = toRjsfErrors(raw.errors ?? [], schema);
  if (raw.validationError !== undefined) errors.push({ stack: raw.validationError.message });
  if (transformErrors !== undefined) errors = transformErrors(errors, uiSchema);
  let errorSchema = toErrorSchema<unknown>(errors);
  if (raw.validationError !== undefined) {
    // Where validator-ajv8 files a schema that cannot be used, so forms treat both validators alike.
    errorSchema = { ...errorSchema, $schema: { __errors: [raw.validationError.message] } } as ErrorSchema<unknown>;
  }
  if (customValidate === undefined) return { errors, errorSchema };
  // Custom checks see every field, including ones still undefined, as with validator-ajv8.
  const fullData: unknown = getDefaultFormState<unknown>(schemaValidator, schema, formData, schema, true);
  const handler = customValidate(fullData, createErrorHandler(fullData), uiSchema, errorSchema);
  return validationDataMerge({ errors, errorSchema }, unwrapErrorHandler(handler));
}

function isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
  try {
    return run(compileSub(schema, rootSchema), formData).length === 0;
  } catch {
    // A schema that cannot be used matches nothing (validator-ajv8 answers false too).
    return false;
  }
}

/** The shared validator: pass it as rjsf's `validator` prop, or call `validateFormData` directly. */
export const schemaValidator: ValidatorType = { validateFormData, isValid, rawValidation };
