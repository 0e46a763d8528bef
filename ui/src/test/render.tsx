// Test helper: renders UI inside the app's providers (fresh retry-free query cache, in-memory router at a path).
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { createQueryClient } from "../queryClient";

/** Renders `ui` as if the window showed `path` (default "/"), with its own query cache. */
export function renderWithProviders(ui: ReactElement, path = "/") {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}
