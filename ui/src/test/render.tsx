// Test helper: renders UI inside the app's providers (fresh retry-free query cache, in-memory router at a path).
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { createQueryClient } from "../queryClient";

/**
 * Renders `ui` as if the window showed `path` (default "/"), with its own query cache. The providers are a
 * wrapper, so `rerender` keeps the same cache and router.
 */
export function renderWithProviders(ui: ReactElement, path = "/") {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  return render(ui, { wrapper });
}
