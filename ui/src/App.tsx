// The route table, and nothing else.
import { Navigate, Route, Routes } from "react-router";
import ClientsPage from "./features/clients/ClientsPage";
import ConsolePage from "./features/console/ConsolePage";
import ImportPage from "./features/import/ImportPage";
import PresetsPage from "./features/presets/PresetsPage";
import ServerDetailPage from "./features/servers/detail/ServerDetailPage";
import ServersPage from "./features/servers/ServersPage";
import SettingsPage from "./features/settings/SettingsPage";
import AppShell from "./shell/AppShell";

export default function App() {
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route index element={<Navigate to="/servers" replace />} />
        <Route path="servers" element={<ServersPage />} />
        <Route path="servers/:name" element={<ServerDetailPage />} />
        <Route path="presets" element={<PresetsPage />} />
        <Route path="import" element={<ImportPage />} />
        <Route path="clients" element={<ClientsPage />} />
        <Route path="console" element={<ConsolePage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="*" element={<Navigate to="/servers" replace />} />
      </Route>
    </Routes>
  );
}
