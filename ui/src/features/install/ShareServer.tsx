// Sharing a server: its "Add to Plugboard" link, or its entry for another client's config (Cursor, VS Code, Claude
// Code). What is copied carries references, never a secret: each secret becomes the receiving side's way of asking
// for it. Fetched only when the person clicks.
import { Share2 } from "lucide-react";
import { type ClientShape, commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import CopyButton from "../../shell/CopyButton";

const CLIENTS: { shape: ClientShape; label: string }[] = [
  { shape: "cursor", label: "Cursor" },
  { shape: "vs-code", label: "VS Code" },
  { shape: "claude-code", label: "Claude Code" },
];

/** Props for {@link ShareServer}. */
type ShareServerProps = { server: string };

export default function ShareServer({ server }: ShareServerProps) {
  return (
    <details className="mb-4 rounded-md border border-line bg-surface px-3 py-2 text-sm">
      <summary className="inline-flex cursor-pointer items-center gap-1.5">
        <Share2 size={14} aria-hidden="true" />
        Share this server
      </summary>
      <p className="mt-2 text-muted">Secrets are never copied: whoever uses what you copy is asked for their own.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <CopyButton
          label="Copy install link"
          text={() => call(commands.installLinkFor(server))}
          fallbackLabel={`The install link of ${server}`}
        />
        {CLIENTS.map(({ shape, label }) => (
          <CopyButton
            key={shape}
            label={`Copy config for ${label}`}
            text={() => call(commands.clientConfigFor(server, shape))}
            fallbackLabel={`The ${label} config of ${server}`}
          />
        ))}
      </div>
    </details>
  );
}
