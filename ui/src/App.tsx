// The route table, and nothing else. The Servers pages are in the first bundle: the window opens on the list, and
// adding a server lands on its page and focuses its heading at once. Every other page is its own chunk, loaded when
// first visited, so the window's cold start does not parse code it is not showing.
import { lazy, type ReactNode, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import ServerDetailPage from "./features/servers/detail/ServerDetailPage";
import ServersPage from "./features/servers/ServersPage";
import AppShell from "./shell/AppShell";

const ClientsPage = lazy(() => import("./features/clients/ClientsPage"));
const ConsolePage = lazy(() => import("./features/console/ConsolePage"));
const ImportPage = lazy(() => import("./features/import/ImportPage"));
const PresetsPage = lazy(() => import("./features/presets/PresetsPage"));
const SettingsPage = lazy(() => import("./features/settings/SettingsPage"));

export default function App() {
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route index element={<Navigate to="/servers" replace />} />
        <Route path="servers" element={<ServersPage />} />
        <Route path="servers/:name" element={<ServerDetailPage />} />
        <Route path="presets" element={<Page page={<PresetsPage />} />} />
        <Route path="import" element={<Page page={<ImportPage />} />} />
        <Route path="clients" element={<Page page={<ClientsPage />} />} />
        <Route path="console" element={<Page page={<ConsolePage />} />} />
        <Route path="settings" element={<Page page={<SettingsPage />} />} />
        <Route path="*" element={<Navigate to="/servers" replace />} />
      </Route>
    </Routes>
  );
}

/** A page loaded on first visit: a quiet status line while its chunk loads (a local file: a moment). */
function Page({ page }: { page: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p role="status" className="text-muted">
          Loading…
        </p>
      }
    >
      {page}
    </Suspense>
  );
}
