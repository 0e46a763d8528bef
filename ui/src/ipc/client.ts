// The one IPC wrapper: turns a command's Result into its data or a thrown IpcError. UI code never branches on `status`.
import type { CommandError } from "./bindings";

/**
 * What every generated command resolves to. Declared here rather than imported because tauri-specta
 * 2.0.0-rc.26 inlines this shape into each command instead of exporting a `Result` type.
 */
export type CommandResult<T> = { status: "ok"; data: T } | { status: "error"; error: CommandError };

/** A command failed on the Rust side. `detail` is the `CommandError` the UI branches on (by `code`). */
export class IpcError extends Error {
  override readonly name = "IpcError";
  readonly detail: CommandError;

  constructor(detail: unknown) {
    const normalized = asCommandError(detail);
    super(normalized.message);
    this.detail = normalized;
  }

  /** The `CommandError` variant, e.g. `"NotFound"`. */
  get code(): CommandError["code"] {
    return this.detail.code;
  }
}

/** Awaits a generated command and returns its data, or throws an {@link IpcError}. */
export async function call<T>(pending: Promise<CommandResult<T>>): Promise<T> {
  const result = await pending;
  if (result.status === "ok") return result.data;
  throw new IpcError(result.error);
}

// Tauri itself rejects with a bare string (unknown command, bad arguments) before our Rust code runs, and the
// generated code passes that through typed as CommandError; keep the UI's contract by calling it Internal.
function asCommandError(value: unknown): CommandError {
  if (
    typeof value === "object" &&
    value !== null &&
    "code" in value &&
    typeof value.code === "string" &&
    "message" in value &&
    typeof value.message === "string"
  ) {
    return value as CommandError;
  }
  return { code: "Internal", message: typeof value === "string" ? value : "Unexpected error from the app backend." };
}
