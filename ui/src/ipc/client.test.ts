// Tests for the IPC wrapper: ok results unwrap, error results throw a typed IpcError.
import { describe, expect, it } from "vitest";
import type { CommandError } from "./bindings";
import { call, IpcError, type CommandResult } from "./client";

describe("call", () => {
  // Pins: an ok Result resolves to its data, unchanged.
  it("unwraps an ok result", async () => {
    const result: CommandResult<number[]> = { status: "ok", data: [1, 2] };
    await expect(call(Promise.resolve(result))).resolves.toEqual([1, 2]);
  });

  // Pins: an error Result rejects with an IpcError carrying the CommandError's code, fields and message.
  it("throws IpcError with the command error's code", async () => {
    const error: CommandError = { code: "InvalidConfig", field: "servers.a.url", message: "not a URL" };
    const failing = call(Promise.resolve<CommandResult<never>>({ status: "error", error }));

    const thrown = await failing.catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(IpcError);
    expect(thrown).toBeInstanceOf(Error);
    const ipc = thrown as IpcError;
    expect(ipc.code).toBe("InvalidConfig");
    expect(ipc.detail).toEqual(error);
    expect(ipc.message).toBe("not a URL");
    expect(ipc.name).toBe("IpcError");
  });

  // Pins: a bare string rejection from Tauri (not a CommandError) still surfaces as an Internal IpcError.
  it("treats a non-CommandError payload as Internal", async () => {
    const raw = { status: "error", error: "command list_servers not found" } as unknown as CommandResult<never>;

    const thrown = await call(Promise.resolve(raw)).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(IpcError);
    expect((thrown as IpcError).detail).toEqual({ code: "Internal", message: "command list_servers not found" });
  });
});
