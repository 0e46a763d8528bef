// The fake Tauri runtime injected into the page before the app's scripts: window.__TAURI_INTERNALS__ (invoke,
// transformCallback) and the event plugin's listen/unlisten, shaped like @tauri-apps/api/mocks' mockIPC. It must stay
// self-contained (it is serialised into the page) and must never answer a command itself: every command goes to the
// test's fixtures in Node through the `__plugboardInvoke` binding.

/** What the Node side answers for one command: its data, or the error Tauri would reject with. */
export type BridgeReply = { ok: true; data: unknown } | { ok: false; error: unknown };

/** The hooks the test drives from Node with page.evaluate. */
export type PageIpc = {
  /** Delivers a backend event to every listener of `event` (its kebab-case name, e.g. "server-status-changed"). */
  emit: (event: string, payload: unknown) => number;
  /** Runs a callback registered with transformCallback (a Channel's); false when it is no longer registered. */
  runCallback: (id: number, data: unknown) => boolean;
};

declare global {
  interface Window {
    __plugboardInvoke: (command: string, args: unknown) => Promise<BridgeReply>;
    __PLUGBOARD_IPC__: PageIpc;
    __TAURI_INTERNALS__: Record<string, unknown>;
  }
}

/** Installs the fake runtime. Runs in the page, before any of the app's code, on every load. */
export function installIpcMock() {
  const callbacks = new Map<number, (data: unknown) => void>();
  const listeners = new Map<string, number[]>();
  let nextId = 1;

  const transformCallback = (callback?: (data: unknown) => void, once = false) => {
    const id = nextId++;
    callbacks.set(id, (data) => {
      if (once) callbacks.delete(id);
      callback?.(data);
    });
    return id;
  };

  const eventPlugin = (command: string, args: { event: string; handler?: number; eventId?: number }) => {
    const list = listeners.get(args.event) ?? [];
    if (command === "plugin:event|listen" && args.handler !== undefined) {
      listeners.set(args.event, [...list, args.handler]);
      return args.handler;
    }
    if (command === "plugin:event|unlisten") {
      listeners.set(
        args.event,
        list.filter((id) => id !== args.eventId),
      );
      return null;
    }
    // emit/emit_to from the page itself: the app does not emit, so there is nothing to deliver.
    return null;
  };

  window.__TAURI_INTERNALS__ = {
    ...(window.__TAURI_INTERNALS__ ?? {}),
    metadata: { currentWindow: { label: "main" }, currentWebview: { windowLabel: "main", label: "main" } },
    transformCallback,
    unregisterCallback: (id: number) => callbacks.delete(id),
    runCallback: (id: number, data: unknown) => callbacks.get(id)?.(data),
    callbacks,
    invoke: async (command: string, args: Record<string, unknown> = {}) => {
      if (command.startsWith("plugin:event|")) {
        return eventPlugin(command, args as { event: string; handler?: number; eventId?: number });
      }
      // A Channel crosses IPC as "__CHANNEL__:<callback id>" (its __TAURI_TO_IPC_KEY__), as in Tauri: the Node side
      // sends its messages back through runCallback with that id.
      const sent = Object.fromEntries(
        Object.entries(args).map(([key, value]) => {
          const toIpc = (value as Record<string, unknown> | null)?.["__TAURI_TO_IPC_KEY__"];
          return [key, typeof toIpc === "function" ? (toIpc as () => unknown).call(value) : value];
        }),
      );
      const reply = await window.__plugboardInvoke(command, sent);
      if (reply.ok) return reply.data;
      // Tauri rejects with the command's serialised error (a CommandError object, or a bare string of its own).
      throw reply.error;
    },
  };
  window.__TAURI_EVENT_PLUGIN_INTERNALS__ = {
    unregisterListener: (_event: string, id: number) => {
      callbacks.delete(id);
    },
  };
  window.__PLUGBOARD_IPC__ = {
    emit: (event, payload) => {
      const ids = listeners.get(event) ?? [];
      for (const id of ids) callbacks.get(id)?.({ event, id, payload });
      return ids.length;
    },
    runCallback: (id, data) => {
      const callback = callbacks.get(id);
      callback?.(data);
      return callback !== undefined;
    },
  };
}
