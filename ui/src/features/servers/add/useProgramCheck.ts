// Checks with the core, as the person types, whether a local server's program can be found the way Plugboard will
// start it, so a missing `uvx` is said before saving rather than as a failed server after.
import { useQuery } from "@tanstack/react-query";
import { commands } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { useDebounced } from "../detail/useDebounced";

/** What is wrong with `program` (null: it is there), once the field has been still for a moment. */
export function useProgramCheck(program: string) {
  const settled = useDebounced(program.trim(), 300);
  return useQuery({
    queryKey: ["checkServerProgram", settled],
    queryFn: () => call(commands.checkServerProgram(settled)),
    enabled: settled !== "",
  });
}
