// A JSON Schema prepared for @cfworker/json-schema (which interprets schemas and never generates code, so it runs
// under the app's CSP): its draft, a private copy with its $refs resolved, and sub-schemas that use the root's $defs.
import { dereference, type Schema, type SchemaDraft } from "@cfworker/json-schema";

/** A schema ready to validate against: what `validate` needs besides the instance. */
export type Compiled = {
  schema: Schema | boolean;
  draft: SchemaDraft;
  lookup: Record<string, Schema | boolean>;
};

/** Where a sub-schema is filed in its root's lookup: a pointer no real schema uses, so it never collides. */
const SUB_POINTER = "/__plugboard_subschema";

/** The draft a schema's `$schema` names; MCP takes a schema without one as 2020-12. */
export function draftOf(schema: unknown): SchemaDraft {
  const uri = typeof schema === "object" && schema !== null ? (schema as Schema).$schema : undefined;
  if (typeof uri !== "string") return "2020-12";
  if (uri.includes("draft-04")) return "4";
  if (uri.includes("draft-06") || uri.includes("draft-07")) return "7";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

// The validator annotates the schema objects it dereferences, so it gets a copy: rjsf's schema stays untouched, and a
// schema object seen under two roots never carries the first root's resolved references into the second.
const roots = new WeakMap<object, Compiled>();
const subs = new WeakMap<object, WeakMap<object, Compiled>>();

/** The root schema compiled (once per schema object). Throws when the schema cannot be dereferenced. */
export function compileRoot(root: object): Compiled {
  let compiled = roots.get(root);
  if (compiled === undefined) {
    const schema = structuredClone(root) as Schema;
    compiled = { schema, draft: draftOf(root), lookup: dereference(schema) };
    roots.set(root, compiled);
  }
  return compiled;
}

/** A sub-schema of `root` (rjsf checks oneOf/anyOf options this way) whose `#/$defs/…` refs point into the root. */
export function compileSub(sub: object, root: object): Compiled {
  const base = compileRoot(root);
  if (sub === root) return base;
  let byRoot = subs.get(root);
  if (byRoot === undefined) subs.set(root, (byRoot = new WeakMap()));
  let compiled = byRoot.get(sub);
  if (compiled === undefined) {
    const schema = structuredClone(sub) as Schema;
    const rootUri = (base.schema as Schema).__absolute_uri__ ?? "";
    const lookup = dereference(schema, { ...base.lookup }, new URL(rootUri.split("#")[0] ?? ""), SUB_POINTER);
    compiled = { schema, draft: base.draft, lookup };
    byRoot.set(sub, compiled);
  }
  return compiled;
}
