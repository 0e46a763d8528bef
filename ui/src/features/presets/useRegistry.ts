// Query hooks of the MCP Registry: a search over every configured registry, the next page of one, and the list of
// registries searched.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";

/** Cache key of registry searches and of the registries list. */
export const REGISTRY_QUERY_KEY = ["registry"] as const;

/** Every registry's first page of active servers matching `text` (each registry answers or says why not). */
export function useRegistrySearch(text: string) {
  return useQuery({
    queryKey: [...REGISTRY_QUERY_KEY, "search", text],
    queryFn: () => call(commands.searchRegistry(text, null, null)),
    enabled: text.trim().length > 0,
    staleTime: 60_000,
  });
}

/** Fetches the page of `registry` that starts at `cursor` ("More"). */
export function useNextRegistryPage() {
  return useMutation({
    mutationFn: ({ text, registry, cursor }: { text: string; registry: string; cursor: string }) =>
      call(commands.searchRegistry(text, registry, cursor)),
  });
}

/** The registries searched. */
export function useRegistrySources() {
  return useQuery({ queryKey: [...REGISTRY_QUERY_KEY, "sources"], queryFn: () => call(commands.listRegistrySources()) });
}

/** Adds (`url` and `name`) or removes (`url` alone) a registry, then searches again. */
export function useChangeRegistrySources() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ url, name, remove }: { url: string; name?: string; remove?: boolean }) =>
      call(remove ? commands.removeRegistrySource(url) : commands.addRegistrySource(name ?? "", url)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: REGISTRY_QUERY_KEY }),
  });
}
