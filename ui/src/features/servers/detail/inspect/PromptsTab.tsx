// The Prompts tab of a server's page: its prompts to pick from, a form from the picked prompt's arguments, and the
// messages Get returned. A server that is not ready is explained in words and not asked.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { commands, type ServerStatus } from "../../../../ipc/bindings";
import { call } from "../../../../ipc/client";
import { revealHidden } from "../../revealHidden";
import NotReadyNote from "./NotReadyNote";
import PromptForm from "./PromptForm";
import PromptMessages from "./PromptMessages";
import { LoadError } from "./ResourcesTab";
import { usePrompts } from "./useInspect";

/** Props for {@link PromptsTab}. */
type PromptsTabProps = {
  /** The server's name in servers.json. */
  server: string;
  /** Its live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
};

export default function PromptsTab({ server, status }: PromptsTabProps) {
  const ready = status?.state === "ready";
  const prompts = usePrompts(server, ready);
  const [picked, setPicked] = useState<string | null>(null);
  const get = useMutation({
    mutationFn: ({ prompt, args }: { prompt: string; args: Record<string, string> }) =>
      call(commands.getPrompt(server, prompt, args)),
  });
  if (!ready) return <NotReadyNote status={status} what="prompts" />;
  if (prompts.isPending) {
    return (
      <p role="status" className="text-muted">
        Loading prompts…
      </p>
    );
  }
  if (prompts.isError) return <LoadError what="prompts" message={prompts.error.message} />;
  if (prompts.data.length === 0) return <p className="text-sm text-muted">The server offers no prompts.</p>;

  const prompt = prompts.data.find((p) => p.name === picked) ?? null;
  const pick = (name: string) => {
    setPicked(name);
    get.reset();
  };
  return (
    <div className="grid grid-cols-[minmax(12rem,16rem)_minmax(0,1fr)] gap-4">
      <ul aria-label="Prompts" className="flex max-h-[min(30rem,60vh)] flex-col gap-1 overflow-y-auto">
        {prompts.data.map((p) => (
          <li key={p.name}>
            <button
              type="button"
              aria-pressed={p.name === picked}
              onClick={() => pick(p.name)}
              className="w-full rounded-md px-2 py-1 text-left text-sm hover:bg-canvas aria-pressed:bg-accent-soft aria-pressed:font-medium"
            >
              <span className="block wrap-anywhere">{revealHidden(p.title ?? p.name)}</span>
              {p.description !== null && (
                <span className="line-clamp-2 block text-xs text-muted wrap-anywhere">{revealHidden(p.description)}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
      <div className="min-w-0">
        {prompt === null ? (
          <p className="text-sm text-muted">Pick a prompt to fill in its arguments.</p>
        ) : (
          <>
            <h2 className="mb-2 font-semibold wrap-anywhere">{revealHidden(prompt.title ?? prompt.name)}</h2>
            <PromptForm
              key={prompt.name}
              prompt={prompt}
              busy={get.isPending}
              onGet={(args) => get.mutate({ prompt: prompt.name, args })}
            />
            <section aria-label="Prompt result" aria-live="polite" className="mt-4">
              {get.isPending ? (
                <p role="status" className="text-muted">
                  Getting the prompt…
                </p>
              ) : get.isError ? (
                <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm wrap-anywhere">
                  Couldn't get the prompt: {revealHidden(get.error.message)}
                </p>
              ) : get.isSuccess ? (
                <>
                  {get.data.description !== null && (
                    <p className="mb-2 text-sm wrap-anywhere">{revealHidden(get.data.description)}</p>
                  )}
                  <PromptMessages messages={get.data.messages} />
                </>
              ) : null}
            </section>
          </>
        )}
      </div>
    </div>
  );
}
