// Query hooks of the import wizard: which client configs exist, the plan for them, and applying it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, type ImportChoice } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { SERVERS_QUERY_KEY } from "../servers/useServers";

/** Cache key of the detected client configs (also read by the Servers page's first-run view). */
export const IMPORT_SOURCES_QUERY_KEY = ["import", "sources"] as const;
/** Cache key of the import plan; it is computed afresh whenever the wizard starts over. */
export const IMPORT_PLAN_QUERY_KEY = ["import", "plan"] as const;

/** The client config files found on this machine, and the clients that have none (with where they were looked for). */
export function useImportSources() {
  return useQuery({
    queryKey: IMPORT_SOURCES_QUERY_KEY,
    queryFn: () => call(commands.detectImportSources()),
  });
}

/** Every entry of every found file with its outcome; nothing is written. Always fetched fresh. */
export function useImportPlan() {
  return useQuery({
    queryKey: IMPORT_PLAN_QUERY_KEY,
    queryFn: () => call(commands.planImport()),
    staleTime: 0,
    gcTime: 0,
  });
}

/** Applies the import with the person's conflict choices, then refreshes the server list. */
export function useApplyImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: ImportChoice[]) => call(commands.applyImport(choices)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY });
    },
  });
}
