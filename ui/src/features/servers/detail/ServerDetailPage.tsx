// One server's page (#/servers/:name): what it is and how it is doing, its tool allowlist, resources, prompts and
// log, and its raw config entry.
import * as Tabs from "@radix-ui/react-tabs";
import { ChevronLeft, SquareTerminal } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link, useParams } from "react-router";
import PageHeader from "../../../shell/PageHeader";
import ShareServer from "../../install/ShareServer";
import LoginFacts from "../../auth/LoginFacts";
import LoginPanel from "../../auth/LoginPanel";
import { useLogin } from "../../auth/useLogin";
import FailureDetails from "../FailureDetails";
import ServerActions from "../ServerActions";
import { useServers } from "../useServers";
import { useServerStatuses } from "../useServerStatuses";
import ServerOverview from "./ServerOverview";
import ServerToolsTab from "./ServerToolsTab";
import DiagnosePanel from "./DiagnosePanel";
import SecretsPanel from "./SecretsPanel";
import ServerLifecycle from "./ServerLifecycle";
import LogTab from "./inspect/LogTab";
import PromptsTab from "./inspect/PromptsTab";
import ResourcesTab from "./inspect/ResourcesTab";

// The entry's editor is CodeMirror, the largest part of the UI's script: loaded with this page, not with the window.
const ConfigEditor = lazy(() => import("./ConfigEditor"));

const TAB_TRIGGER =
  "-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm text-muted hover:text-fg data-[state=active]:border-accent data-[state=active]:font-medium data-[state=active]:text-fg";

export default function ServerDetailPage() {
  const { name = "" } = useParams();
  const servers = useServers();
  const statuses = useServerStatuses();
  const summary = servers.data?.servers.find((server) => server.name === name);
  const invalid = servers.data?.invalid.find((entry) => entry.name === name);
  const status = statuses.data?.get(name);
  // The same login as on the Servers table: Log in here shows its progress under the header.
  const login = useLogin(name);
  const loginShown = (login.phase === "waiting" && status?.state === "needsLogin") || login.phase === "failed";

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-1 text-sm">
        <Link to="/servers" className="inline-flex items-center gap-1 rounded text-muted hover:text-fg">
          <ChevronLeft size={14} aria-hidden="true" />
          Servers
        </Link>
      </nav>
      <PageHeader
        title={name}
        actions={
          summary !== undefined && (
            <div className="flex items-center gap-2">
              {status?.state === "ready" && (
                <Link
                  to={`/console?server=${encodeURIComponent(name)}`}
                  className="inline-flex items-center gap-1 rounded-md border border-line px-2.5 py-1 text-sm hover:bg-canvas"
                >
                  <SquareTerminal size={14} aria-hidden="true" />
                  Try in console
                </Link>
              )}
              <ServerActions server={name} status={status} oauth={summary.oauth} login={login} />
              <ServerLifecycle server={name} enabled={summary.enabled} status={status} />
            </div>
          )
        }
      />
      {loginShown && (
        <div className="mb-4">
          <LoginPanel server={name} login={login} />
        </div>
      )}
      {summary !== undefined && <ShareServer server={name} />}
      {servers.isPending ? (
        <p role="status" className="text-muted">
          Loading the server…
        </p>
      ) : servers.isError ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 wrap-anywhere">
          Couldn't load servers: {servers.error.message}
        </p>
      ) : summary === undefined && invalid === undefined ? (
        <section className="rounded-lg border border-line bg-surface px-5 py-4">
          <h2 className="mb-1 font-semibold">No server named “{name}”</h2>
          <p className="text-muted">
            It is not in servers.json (it may have been removed or renamed).{" "}
            <Link to="/servers" className="text-accent underline">
              Back to all servers
            </Link>
          </p>
        </section>
      ) : (
        <>
          {summary !== undefined ? (
            <>
              <ServerOverview summary={summary} status={status} />
              {/* The same cause, in the same red box, as the server's row on the Servers page. */}
              {status?.state === "failed" && (
                <div className="mt-4">
                  <FailureDetails server={name} error={status.error} stderrTail={status.stderrTail} />
                </div>
              )}
              {summary.oauth && <LoginFacts server={name} />}
              <SecretsPanel server={name} status={status} />
              {status !== undefined && status.state !== "ready" && status.state !== "disabled" && (
                <DiagnosePanel server={name} />
              )}
            </>
          ) : (
            invalid !== undefined && (
              <p role="status" className="mb-4 rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm wrap-anywhere">
                This entry cannot be used as written: {invalid.field}: {invalid.message}. Fix it in the config below.
              </p>
            )
          )}
          {/* Keyed by server: moving to another server's page starts its editors afresh. */}
          <Tabs.Root key={name} defaultValue={summary !== undefined ? "tools" : "config"} className="mt-5">
            <Tabs.List aria-label="Server details" className="mb-4 flex gap-1 border-b border-line">
              {summary !== undefined && (
                <>
                  <Tabs.Trigger value="tools" className={TAB_TRIGGER}>
                    Tools
                  </Tabs.Trigger>
                  <Tabs.Trigger value="resources" className={TAB_TRIGGER}>
                    Resources
                  </Tabs.Trigger>
                  <Tabs.Trigger value="prompts" className={TAB_TRIGGER}>
                    Prompts
                  </Tabs.Trigger>
                  <Tabs.Trigger value="log" className={TAB_TRIGGER}>
                    Log
                  </Tabs.Trigger>
                </>
              )}
              <Tabs.Trigger value="config" className={TAB_TRIGGER}>
                Config
              </Tabs.Trigger>
            </Tabs.List>
            {/* Both panels stay mounted, so unsaved work in one survives a look at the other. */}
            {summary !== undefined && (
              <Tabs.Content value="tools" forceMount className="data-[state=inactive]:hidden">
                <ServerToolsTab server={name} ready={status?.state === "ready"} />
              </Tabs.Content>
            )}
            {/* Looks inside the server mount only when opened: they ask the server only then. */}
            {summary !== undefined && (
              <>
                <Tabs.Content value="resources">
                  <ResourcesTab server={name} status={status} />
                </Tabs.Content>
                <Tabs.Content value="prompts">
                  <PromptsTab server={name} status={status} />
                </Tabs.Content>
                <Tabs.Content value="log">
                  <LogTab server={name} status={status} />
                </Tabs.Content>
              </>
            )}
            <Tabs.Content value="config" forceMount className="data-[state=inactive]:hidden">
              <Suspense
                fallback={
                  <p role="status" className="text-muted">
                    Loading the editor…
                  </p>
                }
              >
                <ConfigEditor server={name} />
              </Suspense>
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </>
  );
}
