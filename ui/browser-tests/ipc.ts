// The Node side of the mocked IPC: per-test answers for each command (data, or a function of its arguments), the
// record of every call, and backend events pushed into the page. It never starts the real backend.
import type { Page } from "@playwright/test";
import type { Channel } from "@tauri-apps/api/core";
import type { CommandError, commands, events } from "../src/ipc/bindings";
import { type BridgeReply, installIpcMock } from "./mockIpc";

type Commands = typeof commands;
/** A generated command's name, e.g. "listServers". */
export type CommandName = keyof Commands;
/** What a command resolves to when it succeeds. */
export type CommandData<K extends CommandName> = Extract<Awaited<ReturnType<Commands[K]>>, { status: "ok" }>["data"];
/** A command's arguments, positional as in `commands.x(...)`. */
export type CommandArgs<K extends CommandName> = Parameters<Commands[K]>;

/** A command's answer: its data, or a function of its arguments returning (a promise of) it or throwing {@link Rejection}. */
export type Responder<K extends CommandName> =
  | CommandData<K>
  | ((...args: CommandArgs<K>) => CommandData<K> | Promise<CommandData<K>>);

/** The data-driven part of a test: one answer per command. */
export type Responses = { [K in CommandName]?: Responder<K> };

/** Thrown (or returned by `rejectWith`) to make a command fail with a CommandError, as the Rust side would. */
export class Rejection extends Error {
  constructor(readonly error: CommandError) {
    super(error.message);
  }
}

/** A responder that fails with `error`. */
export function rejectWith(error: CommandError) {
  return () => {
    throw new Rejection(error);
  };
}

type Events = typeof events;
/** A generated event's name, e.g. "serverStatusChanged". */
export type EventName = keyof Events;
/** What an event carries. */
export type EventPayload<K extends EventName> = Parameters<Parameters<Events[K]["listen"]>[0]>[0]["payload"];

/**
 * The Node end of a Tauri Channel the page passed to a command: `send` delivers a message to the page's
 * `onmessage` with the index Channel orders by, `end` closes it. Get it from a responder's argument with
 * {@link channelOf}.
 */
export class MockChannel<T> {
  private next = 0;

  constructor(
    private readonly page: Page,
    /** The transformCallback id the page's Channel registered. */
    readonly id: number,
  ) {}

  /** Delivers `message` to the page's Channel, in order; resolves once the page ran its handler. */
  async send(message: T) {
    const index = this.next++;
    await this.deliver({ index, message });
  }

  /** Closes the channel as Tauri does after the command's last message. */
  async end() {
    await this.deliver({ index: this.next, end: true });
  }

  private async deliver(raw: unknown) {
    const delivered = await this.page.evaluate(([id, data]) => window.__PLUGBOARD_IPC__.runCallback(id, data), [
      this.id,
      raw,
    ] as const);
    if (!delivered) throw new Error(`channel ${this.id} is no longer listened to`);
  }
}

/** The mock behind a Channel argument a responder received (the generated types call it a Channel). */
export function channelOf<T>(channel: Channel<T>): MockChannel<T> {
  if (!((channel as unknown) instanceof MockChannel)) throw new Error("not a channel the page passed");
  return channel as unknown as MockChannel<T>;
}

const CHANNEL_PREFIX = "__CHANNEL__:";

/** `listServers` → `list_servers`: the name the generated code invokes. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** `serverStatusChanged` → `server-status-changed`: the name the generated code listens to. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** One page's mocked backend. Change answers with {@link respond} at any time; later calls see the new answer. */
export class MockIpc {
  private readonly responders = new Map<string, (...args: unknown[]) => unknown>();
  private readonly log: { command: string; args: unknown[] }[] = [];
  /** Commands the page invoked that no fixture answers (they reject, as an unknown command does in Tauri). */
  readonly unanswered: string[] = [];

  constructor(
    private readonly page: Page,
    responses: Responses,
  ) {
    this.respond(responses);
  }

  /** Installs the fake runtime into the page; call before the first navigation. */
  async install() {
    await this.page.exposeBinding("__plugboardInvoke", (_source, command: string, args: Record<string, unknown>) =>
      this.answer(command, args),
    );
    await this.page.addInitScript(installIpcMock);
  }

  /** Sets (or replaces) the answers of the named commands. */
  respond(responses: Responses) {
    for (const [name, responder] of Object.entries(responses)) {
      this.responders.set(
        snake(name),
        typeof responder === "function" ? (responder as (...args: unknown[]) => unknown) : () => responder,
      );
    }
  }

  /** Every call of `command` so far, oldest first, each as its positional arguments. */
  calls<K extends CommandName>(command: K): CommandArgs<K>[] {
    return this.log.filter((entry) => entry.command === snake(command)).map((entry) => entry.args as CommandArgs<K>);
  }

  /**
   * Emits a backend event into the page and returns how many listeners got it. Emitting before the page subscribed
   * delivers to nobody, as in the app: wait for the listener with {@link emitWhenHeard}.
   */
  async emit<K extends EventName>(event: K, payload: EventPayload<K>): Promise<number> {
    return this.page.evaluate(([name, data]) => window.__PLUGBOARD_IPC__.emit(name, data), [kebab(event), payload] as const);
  }

  /** Emits once at least one listener is subscribed (pages subscribe after their first render). */
  async emitWhenHeard<K extends EventName>(event: K, payload: EventPayload<K>, timeout = 10_000) {
    const deadline = Date.now() + timeout;
    while ((await this.emit(event, payload)) === 0) {
      if (Date.now() > deadline) throw new Error(`nobody listened to ${event} within ${timeout} ms`);
      await this.page.waitForFunction(() => true, undefined, { polling: "raf" });
    }
  }

  private async answer(command: string, args: Record<string, unknown>): Promise<BridgeReply> {
    // The generated code builds `{ a, b }` from `(a, b)`, so the values are the positional arguments in order.
    const positional = Object.values(args).map((value) =>
      typeof value === "string" && value.startsWith(CHANNEL_PREFIX)
        ? new MockChannel(this.page, Number(value.slice(CHANNEL_PREFIX.length)))
        : value,
    );
    this.log.push({ command, args: positional });
    const responder = this.responders.get(command);
    if (responder === undefined) {
      this.unanswered.push(command);
      return { ok: false, error: `no fixture answers ${command}: add one in browser-tests/fixtures.ts` };
    }
    try {
      return { ok: true, data: (await responder(...positional)) ?? null };
    } catch (error) {
      if (error instanceof Rejection) return { ok: false, error: error.error };
      throw error;
    }
  }
}
