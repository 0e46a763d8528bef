// The Settings screen's desktop panel: starting Plugboard at login (off until the person turns it on; it then
// starts in the tray, so the gateway is there for other apps), and what closing the window does.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";

const QUERY_KEY = ["launch-at-login"];

export default function DesktopPanel() {
  const queryClient = useQueryClient();
  const enabled = useQuery({ queryKey: QUERY_KEY, queryFn: () => call(commands.launchAtLogin()) });
  const change = useMutation({
    mutationFn: (on: boolean) => call(commands.setLaunchAtLogin(on)),
    onSuccess: (now) => queryClient.setQueryData(QUERY_KEY, now),
  });
  const checked = change.isPending ? change.variables : (enabled.data ?? false);

  return (
    <section aria-labelledby="desktop-heading" className="rounded-lg border border-line bg-surface p-4">
      <h2 id="desktop-heading" className="mb-2 font-semibold">
        Desktop
      </h2>
      <p className="mb-3 text-sm text-muted">
        Closing the window keeps Plugboard running in the tray while the HTTP gateway or a server is running, so apps
        using them keep working. Quit from the tray icon&apos;s menu.
      </p>
      {enabled.isError && <p role="alert">Could not read whether Plugboard starts at login: {enabled.error.message}</p>}
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={checked}
          disabled={enabled.isPending || change.isPending}
          onChange={(event) => change.mutate(event.currentTarget.checked)}
        />
        Start Plugboard when I log in (in the tray, without a window)
      </label>
      {change.isError && <p role="alert">Could not change it: {change.error.message}</p>}
    </section>
  );
}
