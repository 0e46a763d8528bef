// Checks a new server's name and entry with the core as the person types (the same check a save makes).
import { useQuery } from "@tanstack/react-query";
import { commands } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { useDebounced } from "../detail/useDebounced";

/** The core's verdict on `entry` for `name` (null: usable), once both have been still for a moment. */
export function useNewServerCheck(name: string, entry: string) {
  const settled = useDebounced({ name, entry }, 250);
  return useQuery({
    queryKey: ["checkServerEntry", "new", settled.name, settled.entry],
    queryFn: () => call(commands.checkServerEntry(settled.name, settled.entry)),
    enabled: settled.name !== "",
  });
}
