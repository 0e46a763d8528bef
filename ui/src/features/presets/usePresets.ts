// Query hooks of the preset catalog: the presets (with which are added), the preview of one, and adding one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { SERVERS_QUERY_KEY } from "../servers/useServers";

/** Cache key of the catalog listing (it says which presets are already added, so adding refreshes it). */
export const PRESETS_QUERY_KEY = ["presets"] as const;

/** The catalog, each preset with the servers already added from it and a free name to suggest. */
export function usePresets() {
  return useQuery({ queryKey: PRESETS_QUERY_KEY, queryFn: () => call(commands.listPresets()) });
}

/**
 * The exact command line or URL adding `preset` with `inputs` would run. Secret inputs must be sent as a stand-in
 * ("set") when filled, never their value: the preview only shows their keychain reference.
 */
export function usePresetPreview(preset: string, inputs: Record<string, string>) {
  return useQuery({
    queryKey: [...PRESETS_QUERY_KEY, "preview", preset, inputs],
    queryFn: () => call(commands.previewPreset(preset, inputs)),
    placeholderData: keepPreviousData,
  });
}

/** What adding a preset needs: which one, the server's name and every input by key. */
export type AddPresetRequest = { preset: string; name: string; inputs: Record<string, string> };

/** Adds a preset as a server, then refreshes the server list and the catalog. Resolves to the server's name. */
export function useAddPreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ preset, name, inputs }: AddPresetRequest) => call(commands.addPreset(preset, name, inputs)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: PRESETS_QUERY_KEY });
    },
  });
}
