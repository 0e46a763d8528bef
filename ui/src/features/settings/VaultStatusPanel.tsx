// Where secrets live this session: the keychain, memory only (and why), or the insecure file the person opted into.
import type { VaultStatus } from "../../ipc/bindings";

const BACKEND_LABELS: Record<VaultStatus["backend"], string> = {
  keychain: "OS keychain",
  memoryOnly: "Memory only (lost when Plugboard quits)",
  insecurePlaintextFile: "Plaintext file (INSECURE)",
};

/** Shows `status`: the backend, its one-sentence summary and, when the keychain is unavailable, why and what to do. */
export default function VaultStatusPanel({ status }: { status: VaultStatus }) {
  const healthy = status.backend === "keychain";
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <span className={healthy ? "font-medium text-ok" : "font-medium text-danger"}>
          {BACKEND_LABELS[status.backend]}
        </span>
        {" — "}
        {status.summary}
      </p>
      {status.keychainUnavailableReason && (
        <p>
          <span className="text-muted">Why: </span>
          {status.keychainUnavailableReason}
        </p>
      )}
      {status.whatToDo && (
        <p>
          <span className="text-muted">What to do: </span>
          {status.whatToDo}
        </p>
      )}
      {status.insecureFilePath && (
        <p>
          <span className="text-muted">File: </span>
          <span className="font-mono break-all">{status.insecureFilePath}</span>
        </p>
      )}
    </div>
  );
}
