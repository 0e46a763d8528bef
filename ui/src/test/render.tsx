// Test helper: renders UI inside the app's providers (fresh retry-free query cache, in-memory router at a path, the
// app shell's session memory), alone or as pages by route with links between them.
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { Link, MemoryRouter, Route, Routes } from "react-router";
import { createQueryClient } from "../queryClient";
import SessionMemoryProvider from "../shell/SessionMemoryProvider";

/**
 * Renders `ui` as if the window showed `path` (default "/"), with its own query cache and session memory (as the
 * app shell gives every page). The providers are a wrapper, so `rerender` keeps the same cache, router and memory.
 */
export function renderWithProviders(ui: ReactElement, path = "/") {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <SessionMemoryProvider>{children}</SessionMemoryProvider>
      </MemoryRouter>
    </QueryClientProvider>
  );
  return render(ui, { wrapper });
}

/**
 * Renders `pages` (route pattern → element) as if the window showed `path`, under plain links (name → where it goes),
 * so a test can leave a page and come back as the sidebar would: leaving unmounts the page, the providers (and so
 * the session memory) stay.
 */
export function renderRoutes(pages: Record<string, ReactElement>, path: string, links: Record<string, string>) {
  return renderWithProviders(
    <>
      {Object.entries(links).map(([name, to]) => (
        <Link key={name} to={to}>
          {name}
        </Link>
      ))}
      <Routes>
        {Object.entries(pages).map(([pattern, page]) => (
          <Route key={pattern} path={pattern} element={page} />
        ))}
      </Routes>
    </>,
    path,
  );
}
