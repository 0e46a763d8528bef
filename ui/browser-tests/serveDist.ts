// Global setup: serves the built UI (ui/dist) on 127.0.0.1 at a free port for the tests, and stops it afterwards.
// Serves files only (no directory listing, nothing outside dist); the app is hash-routed, so "/" is all it needs.
// Every response carries the app's CSP (from tauri.conf.json), so the tests run under the real window's policy.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { appCsp } from "./appCsp";

const DIST = resolve(import.meta.dirname, "../dist");
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

export default async function serveDist() {
  if (!existsSync(join(DIST, "index.html"))) {
    throw new Error(`${DIST}/index.html is missing: run \`npm run build\` first (npm run test:browser does)`);
  }
  const csp = appCsp();
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    const file = join(DIST, path === "/" ? "index.html" : path);
    if (!file.startsWith(DIST) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-security-policy": csp,
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  // Workers inherit the environment global setup leaves behind; playwright.config.ts reads it for baseURL.
  process.env.PLUGBOARD_UI_URL = `http://127.0.0.1:${port}`;
  return () => new Promise<void>((done) => server.close(() => done()));
}
