// The Settings screen: where secrets are kept (and what to do when the keychain is unavailable), the gateway for
// other apps, the desktop app (start at login), where Plugboard's files are (each shown in its folder on request),
// and the colour theme.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import ShowInFolder from "../../shell/ShowInFolder";
import { THEMES, type Theme, chooseTheme, loadTheme } from "./theme";
import DesktopPanel from "./DesktopPanel";
import GatewayPanel from "./GatewayPanel";
import VaultStatusPanel from "./VaultStatusPanel";

const THEME_LABELS: Record<Theme, string> = { system: "Follow the system", light: "Light", dark: "Dark" };

export default function SettingsPage() {
  const vault = useQuery({ queryKey: ["vault-status"], queryFn: () => call(commands.vaultStatus()) });
  const paths = useQuery({ queryKey: ["app-paths"], queryFn: () => call(commands.appPaths()) });
  const [theme, setTheme] = useState<Theme>(loadTheme);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 p-6">
      <h1 className="text-xl font-semibold">Settings</h1>

      <section aria-labelledby="secrets-heading" className="rounded-lg border border-line bg-surface p-4">
        <h2 id="secrets-heading" className="mb-2 font-semibold">
          Secrets
        </h2>
        {vault.isPending && <p role="status">Checking the keychain…</p>}
        {vault.isError && <p role="alert">Could not read where secrets are kept: {vault.error.message}</p>}
        {vault.data && <VaultStatusPanel status={vault.data} />}
      </section>

      <GatewayPanel />

      <DesktopPanel />

      <section aria-labelledby="files-heading" className="rounded-lg border border-line bg-surface p-4">
        <h2 id="files-heading" className="mb-2 font-semibold">
          Files
        </h2>
        {paths.isError && <p role="alert">Could not read the paths: {paths.error.message}</p>}
        {paths.data && (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">Config file</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono break-all select-all">{paths.data.configFile}</span>
              <ShowInFolder place={{ place: "configFile" }} what="the config file" />
            </dd>
            <dt className="text-muted">Data folder</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono break-all select-all">{paths.data.dataDir}</span>
              <ShowInFolder place={{ place: "dataDir" }} what="the data folder" />
            </dd>
            <dt className="text-muted">Logs</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono break-all select-all">{paths.data.logDir}</span>
              <ShowInFolder place={{ place: "logDir" }} what="the log folder" />
            </dd>
            <dt className="text-muted">Version</dt>
            <dd>{paths.data.version}</dd>
          </dl>
        )}
      </section>

      <section className="rounded-lg border border-line bg-surface p-4">
        <fieldset>
          <legend className="mb-2 font-semibold">Theme</legend>
          <div className="flex flex-wrap gap-4">
            {THEMES.map((option) => (
              <label key={option} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="theme"
                  value={option}
                  checked={theme === option}
                  onChange={() => {
                    chooseTheme(option);
                    setTheme(option);
                  }}
                />
                {THEME_LABELS[option]}
              </label>
            ))}
          </div>
        </fieldset>
      </section>
    </div>
  );
}
