// Choosing a client's tool limit: a number of the person's own, or back to what the client documents.
import { useState } from "react";
import type { ToolBudget } from "../../ipc/bindings";
import { useChooseLimit } from "./useClients";

/** The largest limit the backend takes (MAX_CHOSEN_LIMIT in export/chosen.rs). */
const MAX_LIMIT = 10_000;

/** Props for {@link LimitEditor}. */
type LimitEditorProps = {
  client: string;
  budget: ToolBudget;
};

export default function LimitEditor({ client, budget }: LimitEditorProps) {
  const choose = useChooseLimit();
  const [text, setText] = useState(budget.limitFrom === "chosen" && budget.limit !== null ? String(budget.limit) : "");
  const value = Number(text);
  const valid = text !== "" && Number.isInteger(value) && value >= 1 && value <= MAX_LIMIT;
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) choose.mutate({ client, limit: value });
      }}
    >
      <label className="flex flex-col text-xs">
        Your tool limit
        <input
          inputMode="numeric"
          value={text}
          placeholder={budget.documented === null ? "none" : String(budget.documented)}
          aria-invalid={text !== "" && !valid}
          onChange={(event) => setText(event.currentTarget.value)}
          className="w-24 rounded-md border border-line bg-canvas px-2 py-1 font-mono"
        />
      </label>
      <button
        type="submit"
        disabled={!valid || choose.isPending}
        className="rounded-md border border-line px-2.5 py-1 hover:bg-canvas disabled:opacity-50"
      >
        Use this limit
      </button>
      {budget.limitFrom === "chosen" && (
        <button
          type="button"
          disabled={choose.isPending}
          onClick={() => {
            setText("");
            choose.mutate({ client, limit: null });
          }}
          className="px-2 py-1 hover:underline"
        >
          {budget.documented === null ? "No limit" : `Back to the documented ${budget.documented}`}
        </button>
      )}
      {text !== "" && !valid && <p className="w-full text-xs text-danger">A limit is a whole number from 1 to 10000.</p>}
      {choose.isError && <p role="alert" className="w-full">Could not choose the limit: {choose.error.message}</p>}
    </form>
  );
}
