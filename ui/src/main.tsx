// Entry point: mounts the app inside the query cache, behind the start-up gate (the window says why when Plugboard
// cannot start), and a hash router (Tauri's custom protocol has no server for deep paths).
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HashRouter } from "react-router";
import App from "./App";
import "./index.css";
import { applyTheme, loadTheme } from "./features/settings/theme";
import { createQueryClient } from "./queryClient";
import StartupGate from "./shell/StartupGate";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// Before the first paint, so a pinned theme never flashes the other one.
applyTheme(loadTheme());

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <StartupGate>
        <HashRouter>
          <App />
        </HashRouter>
      </StartupGate>
    </QueryClientProvider>
  </StrictMode>,
);
