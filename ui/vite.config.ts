// Vite (dev server + production bundle for Tauri's WebKitGTK webview) and Vitest config; must not pull anything from outside the app.
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Set by the Tauri CLI when it runs `beforeBuildCommand` for a debug build.
const tauriDebug = Boolean(process.env.TAURI_ENV_DEBUG);

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // Keep the Rust compiler's output visible when `tauri dev` runs us.
  clearScreen: false,
  server: {
    // tauri.conf.json's devUrl points here; failing beats silently moving to another port.
    port: 1420,
    strictPort: true,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  envPrefix: ["VITE_", "TAURI_ENV_"],
  build: {
    // Linux webview is WebKitGTK (Safari-class engine).
    target: ["es2022", "safari16"],
    outDir: "dist",
    emptyOutDir: true,
    minify: !tauriDebug,
    sourcemap: tauriDebug,
    // The polyfill fetch()es preloads, which the app's CSP (connect-src ipc: only) would block; the webview has native modulepreload.
    modulePreload: { polyfill: false },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    restoreMocks: true,
    // The machines that run these share two cores with Rust builds; role queries over a full page can take seconds.
    testTimeout: 15_000,
  },
});
