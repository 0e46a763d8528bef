// Tests of the shared rjsf validator: each keyword tool schemas use, valid and invalid, with the property paths rjsf
// files field errors under, for 2020-12, draft-07 and schemas without $schema.
import { describe, expect, it } from "vitest";
import type { RJSFSchema } from "@rjsf/utils";
import { schemaValidator } from "./schemaValidator";

const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The errors as "property: message", the way a person reads them next to fields. */
function problems(schema: RJSFSchema, data: unknown): string[] {
  return schemaValidator.validateFormData(data, schema).errors.map((error) => `${error.property}: ${error.message}`);
}

const search: RJSFSchema = {
  $schema: DRAFT_2020,
  type: "object",
  properties: {
    query: { type: "string", minLength: 2 },
    limit: { type: "integer", minimum: 1, maximum: 50 },
    mode: { enum: ["fast", "thorough"] },
    since: { type: "string", format: "date-time" },
    contact: { type: "string", format: "email" },
  },
  required: ["query"],
  additionalProperties: false,
};

describe("schemaValidator keywords", () => {
  it("accepts data that satisfies every keyword", () => {
    const data = { query: "mcp", limit: 5, mode: "fast", since: "2026-11-30T12:00:00Z", contact: "a@b.example" };
    expect(problems(search, data)).toEqual([]);
    expect(schemaValidator.isValid(search, data, search)).toBe(true);
  });

  it("reports a missing required property at that property", () => {
    expect(problems(search, {})).toEqual([".query: is a required property"]);
  });

  it("reports type, range and length errors at their fields", () => {
    expect(problems(search, { query: "x", limit: 0 })).toEqual([
      ".query: String is too short (1 < 2).",
      ".limit: 0 is less than 1.",
    ]);
    expect(problems(search, { query: 42 })).toEqual([".query: must be string"]);
  });

  it("reports a value outside an enum", () => {
    expect(problems(search, { query: "mcp", mode: "slow" })).toEqual(['.mode: must be one of ["fast","thorough"]']);
  });

  it("checks formats", () => {
    expect(problems(search, { query: "mcp", since: "yesterday", contact: "nobody" })).toEqual([
      ".since: must be a valid date-time",
      ".contact: must be a valid email",
    ]);
  });

  it("rejects properties that additionalProperties: false forbids", () => {
    expect(problems(search, { query: "mcp", extra: 1 })).toEqual([".extra: is not allowed here"]);
    expect(schemaValidator.isValid(search, { query: "mcp", extra: 1 }, search)).toBe(false);
  });
});

describe("schemaValidator nesting and references", () => {
  const order: RJSFSchema = {
    $schema: DRAFT_2020,
    type: "object",
    $defs: {
      item: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } }, required: ["sku"] },
    },
    properties: {
      customer: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      items: { type: "array", items: { $ref: "#/$defs/item" }, minItems: 1 },
    },
  };

  it("files nested object and array item errors under their full path", () => {
    expect(problems(order, { customer: {}, items: [{ sku: "a" }, { qty: "two" }] })).toEqual([
      ".customer.name: is a required property",
      ".items.1.sku: is a required property",
      ".items.1.qty: must be integer",
    ]);
  });

  it("builds an errorSchema rjsf puts next to each field", () => {
    const { errorSchema } = schemaValidator.validateFormData({ customer: {}, items: [] }, order);
    expect(errorSchema).toEqual({
      customer: { name: { __errors: ["is a required property"] } },
      items: { __errors: ["Array has too few items (0 < 1)."] },
    });
  });

  it("resolves a sub-schema's $ref against the root in isValid (how rjsf picks oneOf options)", () => {
    const option: RJSFSchema = { $ref: "#/$defs/item" };
    expect(schemaValidator.isValid(option, { sku: "a" }, order)).toBe(true);
    expect(schemaValidator.isValid(option, { qty: 1 }, order)).toBe(false);
  });

  it("leaves rjsf's schema objects untouched", () => {
    const before = JSON.stringify(order);
    schemaValidator.validateFormData({ items: [{}] }, order);
    expect(JSON.stringify(order)).toBe(before);
    expect(Object.getOwnPropertyNames(order)).not.toContain("__absolute_uri__");
  });
});

describe("schemaValidator drafts", () => {
  it("reads draft-07 definitions and tuple items", () => {
    const schema: RJSFSchema = {
      $schema: DRAFT_07,
      type: "object",
      definitions: { port: { type: "integer", maximum: 65535 } },
      properties: { pair: { type: "array", items: [{ type: "string" }, { $ref: "#/definitions/port" }] } },
    };
    expect(problems(schema, { pair: ["host", 80] })).toEqual([]);
    expect(problems(schema, { pair: ["host", 70000] })).toEqual([".pair.1: 70000 is greater than 65535."]);
  });

  it("reads 2020-12 prefixItems, and takes a schema without $schema as 2020-12", () => {
    const pair = { prefixItems: [{ type: "string" }, { type: "integer" }] } as RJSFSchema;
    const schema: RJSFSchema = { type: "object", properties: { pair } };
    expect(problems(schema, { pair: ["host", "eighty"] })).toEqual([".pair.1: must be integer"]);
    expect(problems({ ...schema, $schema: DRAFT_2020 }, { pair: ["host", 80] })).toEqual([]);
  });

  it("shows an anyOf failure once, not each branch's", () => {
    const id: RJSFSchema = { anyOf: [{ type: "string" }, { type: "integer" }] };
    const schema: RJSFSchema = { type: "object", properties: { id } };
    expect(problems(schema, { id: true })).toEqual([".id: Value does not match any subschemas."]);
  });

  it("reports a schema it cannot use instead of throwing", () => {
    const schema: RJSFSchema = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };
    const { errors, errorSchema } = schemaValidator.validateFormData({ a: 1 }, schema);
    expect(errors[0]?.stack).toMatch(/Unresolved \$ref/);
    expect(errorSchema).toHaveProperty("$schema");
    expect(schemaValidator.isValid(schema, { a: 1 }, schema)).toBe(false);
  });
});

describe("schemaValidator error text", () => {
  it("names a field by its title in the stack (read away from the field) but not in the message", () => {
    const schema: RJSFSchema = {
      type: "object",
      $defs: { who: { type: "object", properties: { name: { type: "string", title: "Full name" } } } },
      properties: { owner: { $ref: "#/$defs/who" }, tags: { type: "array", items: { type: "string", title: "Tag" } } },
    };
    const { errors } = schemaValidator.validateFormData({ owner: { name: 1 }, tags: ["a", 2] }, schema);
    expect(errors.map((error) => [error.stack, error.message])).toEqual([
      ["'Full name' must be string", "must be string"],
      ["'Tag' must be string", "must be string"],
    ]);
  });
});

describe("schemaValidator hooks rjsf offers forms", () => {
  const schema: RJSFSchema = { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } };

  it("applies transformErrors, then merges customValidate's errors by field", () => {
    const result = schemaValidator.validateFormData(
      { a: "x", b: 1 },
      schema,
      (data: { b?: number } | undefined, errors) => {
        if (data?.b === 1) errors.b?.addError("b must not be 1");
        return errors;
      },
      (errors) => errors.map((error) => ({ ...error, message: `checked: ${error.message}` })),
    );
    expect(result.errorSchema.a?.__errors).toEqual(["checked: must be integer"]);
    expect(result.errorSchema.b?.__errors).toEqual(["b must not be 1"]);
    expect(result.errors.map((error) => error.stack)).toEqual([".a must be integer", ".b b must not be 1"]);
  });
});

describe("schemaValidator pointers", () => {
  it("files errors under property names that need escaping in a pointer", () => {
    const schema: RJSFSchema = {
      type: "object",
      properties: { "a/b": { type: "string", title: "Slash" }, "100%": { type: "integer" } },
    };
    expect(schemaValidator.validateFormData({ "a/b": 1, "100%": "x" }, schema).errors.map((e) => e.stack)).toEqual([
      "'Slash' must be string",
      ".100% must be integer",
    ]);
  });
});
