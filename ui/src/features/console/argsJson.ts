// Pure helpers of the arguments editor: JSON object text parsed with the problem's position, and a tool's input
// schema made safe for the form (hidden characters in its titles, descriptions and enumNames revealed).
import type { RJSFSchema } from "@rjsf/utils";
import { revealSchemaText } from "../../forms/revealSchemaText";
import type { TextProblem } from "../servers/detail/JsonCodeEditor";

/** The arguments text as an object, or where and why it is not one. */
export type ParsedArgs = { ok: true; value: Record<string, unknown> } | { ok: false; problem: TextProblem };

/** Parses arguments text: it must be a JSON object (what a tool call takes). */
export function parseArgs(text: string): ParsedArgs {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : "Not valid JSON";
    return { ok: false, problem: { ...positionOf(text, message), message } };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: { line: 1, column: 1, message: "The arguments must be a JSON object ({ … })." } };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** The line and column a JSON.parse message points at (engines say "line L column C" or "position N"). */
function positionOf(text: string, message: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : text.length;
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/** The arguments as the JSON view shows them after a form edit. */
export function formatArgs(value: unknown): string {
  return JSON.stringify(value ?? {}, null, 2);
}

/**
 * A tool's input schema (JSON text) for the form, or null when it is unusable: its shown text has its hidden
 * characters revealed (revealSchemaText). `$schema` stays: it tells the validator which draft the schema is written in.
 */
export function formSchema(schemaText: string): RJSFSchema | null {
  let schema: unknown;
  try {
    schema = JSON.parse(schemaText);
  } catch {
    return null;
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return null;
  const cleaned = revealSchemaText(schema) as Record<string, unknown>;
  return { type: "object", ...cleaned };
}
