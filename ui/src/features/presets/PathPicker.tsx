// Buttons beside a path input that open the system's folder or file picker and put the chosen path into the field:
// the backend shows the picker, so the page never browses the file system; cancelling leaves the field as it was.
import { useMutation } from "@tanstack/react-query";
import { File, FolderOpen } from "lucide-react";
import { commands, type PathKind } from "../../ipc/bindings";
import { call } from "../../ipc/client";

/** Props for {@link PathPicker}. */
type PathPickerProps = {
  /** What the input names; `any` offers both pickers. */
  kind: PathKind;
  /** The input's name, for the buttons' accessible names and the picker's title. */
  inputKey: string;
  onPicked: (path: string) => void;
};

const BUTTON = "inline-flex items-center gap-1 rounded-md border border-line px-2 py-1 text-xs hover:bg-canvas";

export default function PathPicker({ kind, inputKey, onPicked }: PathPickerProps) {
  const pick = useMutation({
    mutationFn: (which: "folder" | "file") =>
      call(commands.choosePath(which, `Choose the ${which} for ${inputKey}`)),
    onSuccess: (path) => {
      if (path !== null) onPicked(path);
    },
  });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {kind !== "file" && (
        <button type="button" aria-label={`Choose folder: ${inputKey}`} onClick={() => pick.mutate("folder")} className={BUTTON}>
          <FolderOpen size={12} aria-hidden="true" />
          Choose folder…
        </button>
      )}
      {kind !== "folder" && (
        <button type="button" aria-label={`Choose file: ${inputKey}`} onClick={() => pick.mutate("file")} className={BUTTON}>
          <File size={12} aria-hidden="true" />
          Choose file…
        </button>
      )}
      {pick.isError && (
        <span role="alert" className="text-xs">
          {pick.error.message}
        </span>
      )}
    </span>
  );
}
