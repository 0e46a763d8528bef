// Query hooks of the preset catalog: the presets (with which are added), the preview of one, and adding one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, type EntryRef } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { SERVERS_QUERY_KEY } from "../servers/useServers";

/** Cache key of the catalog listing (it says which presets are already added, so adding refreshes it). */
export const PRESETS_QUERY_KEY = ["presets"] as const;

/** The catalog, each preset with the servers already added from it and a free name to suggest. */
export function usePresets() {
  return useQuery({ queryKey: PRESETS_QUERY_KEY, queryFn: () => call(commands.listPresets()) });
}

/** Where a preset comes from: the embedded catalog (by its name), a registry's entry, or an install link. */
export type PresetSource =
  | { kind: "catalog"; preset: string }
  | { kind: "registry"; entry: EntryRef }
  | { kind: "link"; link: string }
  | { kind: "bundle"; path: string };

/**
 * The exact command line or URL adding the preset with `inputs` would run. Secret inputs must be sent as a stand-in
 * ("set") when filled, never their value: the preview only shows their keychain reference.
 */
export function usePresetPreview(source: PresetSource, inputs: Record<string, string>) {
  return useQuery({
    queryKey: [...PRESETS_QUERY_KEY, "preview", source, inputs],
    queryFn: () =>
      call(
        source.kind === "registry"
          ? commands.previewRegistryEntry(source.entry, inputs)
          : source.kind === "link"
            ? commands.previewInstallLink(source.link, inputs)
            : source.kind === "bundle"
              ? commands.previewBundle(source.path, inputs)
              : commands.previewPreset(source.preset, inputs),
      ),
    placeholderData: keepPreviousData,
  });
}

/** What adding a preset needs: where it comes from, the server's name and every input by key. */
export type AddPresetRequest = { source: PresetSource; name: string; inputs: Record<string, string> };

/** Adds a preset as a server, then refreshes the server list and the catalog. Resolves to the server's name. */
export function useAddPreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ source, name, inputs }: AddPresetRequest) =>
      call(
        source.kind === "registry"
          ? commands.addRegistryEntry(source.entry, name, inputs)
          : source.kind === "link"
            ? commands.addFromInstallLink(source.link, name, inputs)
            : source.kind === "bundle"
              ? commands.addBundle(source.path, name, inputs)
              : commands.addPreset(source.preset, name, inputs),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: PRESETS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ["registry"] });
    },
  });
}
