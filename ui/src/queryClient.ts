// Builds the app's TanStack Query client; IPC failures are deterministic, so nothing retries behind the user's back.
import { QueryClient } from "@tanstack/react-query";

/** A QueryClient for the app: no automatic retries (the error state offers Retry instead). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false },
    },
  });
}
