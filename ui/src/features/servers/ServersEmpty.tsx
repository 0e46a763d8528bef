// What the Servers page shows when the config declares no servers: how to add one and where the config file is.
import ConfigPath from "./ConfigPath";

/** Props for {@link ServersEmpty}. */
type ServersEmptyProps = {
  /** Absolute path of the config file, shown verbatim so a person can find and edit it. */
  configPath: string;
};

export default function ServersEmpty({ configPath }: ServersEmptyProps) {
  return (
    <section
      aria-labelledby="servers-empty-title"
      className="rounded-lg border border-dashed border-line bg-surface px-6 py-8"
    >
      <h2 id="servers-empty-title" className="mb-2 text-base font-semibold">
        No servers yet
      </h2>
      <p className="mb-4 text-muted">
        Servers are added by import (coming in a later release) or by editing the config file.
      </p>
      <ConfigPath path={configPath} />
    </section>
  );
}
