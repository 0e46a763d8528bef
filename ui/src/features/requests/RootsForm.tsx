// A server's roots request: the person lists the folders the server may work in (absolute paths, one per row),
// or declines. The backend checks each path and sends them as file:// URIs.
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { commands } from "../../ipc/bindings";
import AnswerFooter from "./AnswerFooter";
import { SECONDARY } from "./buttons";
import { DIALOG_BODY } from "./layout";
import type { Answer } from "./RequestDialog";

/**
 * @param id the request's id, for the answer.
 * @param answer sends the answer (see RequestDialog).
 * @param sending whether an answer is on its way (buttons disabled).
 */
export default function RootsForm({ id, answer, sending }: { id: number; answer: Answer; sending: boolean }) {
  const [folders, setFolders] = useState<string[]>([""]);
  const edit = (index: number, value: string) => setFolders((all) => all.map((f, i) => (i === index ? value : f)));
  return (
    <form
      className="flex min-h-0 flex-1 flex-col"
      onSubmit={(event) => {
        event.preventDefault();
        // A row left blank (the first one, or one added and not filled) is no folder: the backend would refuse "".
        const listed = folders.filter((folder) => folder.trim() !== "");
        void answer(() => commands.answerRoots(id, listed));
      }}
    >
      <div className={DIALOG_BODY}>
        <p className="text-muted">List the folders this server may work in (absolute paths), or decline.</p>
        <ul className="flex flex-col gap-2">
          {folders.map((folder, index) => (
            <li key={index} className="flex gap-2">
              <input
                aria-label={`Folder ${index + 1}`}
                value={folder}
                onChange={(event) => edit(index, event.target.value)}
                placeholder="/home/me/project"
                className="min-w-0 flex-1 rounded-md border border-line bg-canvas px-2 py-1 font-mono"
              />
              <button
                type="button"
                aria-label={`Remove folder ${index + 1}`}
                className={SECONDARY}
                onClick={() => setFolders((all) => all.filter((_, i) => i !== index))}
              >
                <Trash2 size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className={`${SECONDARY} self-start`} onClick={() => setFolders((all) => [...all, ""])}>
          <Plus size={14} aria-hidden="true" className="mr-1 inline" />
          Add a folder
        </button>
      </div>
      <AnswerFooter
        submitLabel="Share folders"
        onDecline={() => void answer(() => commands.answerRoots(id, null))}
        sending={sending}
      />
    </form>
  );
}
