// "Show in folder" for one of Plugboard's own files or a client's file: the page names the place, the backend
// works out the folder and opens it in the file manager (the page can never name a path), and a failure is said.
import { useMutation } from "@tanstack/react-query";
import { FolderOpen } from "lucide-react";
import { commands, type Place } from "../ipc/bindings";
import { call } from "../ipc/client";

/** Props for {@link ShowInFolder}. */
type ShowInFolderProps = {
  place: Place;
  /** What is shown, for the button's accessible name, e.g. "the config file". */
  what: string;
};

export default function ShowInFolder({ place, what }: ShowInFolderProps) {
  const show = useMutation({ mutationFn: () => call(commands.showInFolder(place)) });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        aria-label={`Show in folder: ${what}`}
        onClick={() => show.mutate()}
        className="inline-flex items-center gap-1 rounded-md border border-line px-2 py-0.5 text-xs hover:bg-canvas"
      >
        <FolderOpen size={12} aria-hidden="true" />
        Show in folder
      </button>
      {show.isError && (
        <span role="alert" className="text-xs">
          {show.error.message}
        </span>
      )}
    </span>
  );
}
