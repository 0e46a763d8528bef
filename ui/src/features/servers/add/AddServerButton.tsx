// The "Add server" button of the Servers page header, and the dialog it opens.
import { Plus } from "lucide-react";
import { useState } from "react";
import AddServerDialog from "./AddServerDialog";

export default function AddServerButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3 py-1.5 text-sm hover:bg-canvas"
      >
        <Plus size={14} aria-hidden="true" />
        Add server
      </button>
      {open && <AddServerDialog onClose={() => setOpen(false)} />}
    </>
  );
}
