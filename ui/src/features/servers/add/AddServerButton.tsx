// The "Add server" button of the Servers page header, and the dialog it opens (which gives the focus back to it).
import { Plus } from "lucide-react";
import { useState } from "react";
import AddServerDialog from "./AddServerDialog";

export default function AddServerButton() {
  // The button that opened the dialog, kept while it is open: where the focus goes back when it closes.
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  return (
    <>
      <button
        type="button"
        onClick={(event) => setOpener(event.currentTarget)}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3 py-1.5 text-sm hover:bg-canvas"
      >
        <Plus size={14} aria-hidden="true" />
        Add server
      </button>
      {opener !== null && <AddServerDialog onClose={() => setOpener(null)} opener={opener} />}
    </>
  );
}
