// The banner shown while servers.json on disk does not parse: the backend's reason, verbatim as text.
/** Props for {@link ConfigFileProblem}. */
type ConfigFileProblemProps = {
  /** Why the file on disk is not in use, as the backend reports it; shown as plain text. */
  problem: string;
};

export default function ConfigFileProblem({ problem }: ConfigFileProblemProps) {
  return (
    <div role="alert" className="mb-4 rounded-lg border border-danger/40 bg-danger-soft px-5 py-4">
      <h2 className="mb-1 text-sm font-semibold text-danger">servers.json cannot be read</h2>
      <p className="mb-2 font-mono text-[13px] wrap-anywhere whitespace-pre-wrap">{problem}</p>
      <p>Plugboard keeps using the last version it could read; fix the file and it reloads by itself.</p>
    </div>
  );
}
