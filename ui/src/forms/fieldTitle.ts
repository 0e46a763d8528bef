// The title a schema gives the field at an instance path, so an error listed away from its field (the JSON view)
// names it as the form's label does. Follows properties, items and local $refs; gives up quietly on anything else.
import type { RJSFSchema } from "@rjsf/utils";
import { pointerSegments } from "./pointer";

type Node = RJSFSchema | boolean | undefined;

/** The `title` of the schema for `path` (property names and array indexes) under `root`, if it has one. */
export function fieldTitle(root: RJSFSchema, path: readonly string[]): string | undefined {
  let node: Node = root;
  for (const segment of path) node = child(root, resolve(root, node), segment);
  const title = (resolve(root, node) as RJSFSchema | undefined)?.title;
  return typeof title === "string" && title !== "" ? title : undefined;
}

function child(root: RJSFSchema, node: Node, segment: string): Node {
  if (typeof node !== "object") return undefined;
  const property = node.properties?.[segment];
  if (property !== undefined) return property;
  const index = Number(segment);
  const tuple = (node as { prefixItems?: Node[] }).prefixItems ?? (Array.isArray(node.items) ? node.items : undefined);
  if (tuple !== undefined) return tuple[index];
  return Array.isArray(node.items) ? undefined : resolve(root, node.items);
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`), a few hops at most so a ref cycle cannot hang. */
function resolve(root: RJSFSchema, node: Node): Node {
  for (let hop = 0; hop < 8 && typeof node === "object" && typeof node.$ref === "string"; hop++) {
    if (!node.$ref.startsWith("#/")) return node;
    let target: unknown = root;
    for (const key of pointerSegments(node.$ref)) {
      target = typeof target === "object" && target !== null ? (target as Record<string, unknown>)[key] : undefined;
    }
    node = target as Node;
  }
  return node;
}
