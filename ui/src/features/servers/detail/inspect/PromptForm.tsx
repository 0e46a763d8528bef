// A form made from a prompt's declared arguments (all strings): a labelled field each, required ones marked and
// enforced, and Get. Argument names and descriptions are server text, shown inert.
import { useId, useState, type FormEvent } from "react";
import type { PromptInfo } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";

/** Props for {@link PromptForm}. */
type PromptFormProps = {
  /** The prompt as the server lists it. */
  prompt: PromptInfo;
  /** Gets the prompt with these arguments (empty optional ones left out). */
  onGet: (args: Record<string, string>) => void;
  /** Whether a Get is running. */
  busy: boolean;
};

export default function PromptForm({ prompt, onGet, busy }: PromptFormProps) {
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filled = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
    onGet(filled);
  };
  const name = revealHidden(prompt.title ?? prompt.name);
  return (
    <form onSubmit={submit} aria-label={`Arguments of ${name}`} className="flex flex-col gap-2">
      {prompt.arguments.length === 0 && <p className="text-sm text-muted">This prompt takes no arguments.</p>}
      {prompt.arguments.map((argument) => {
        const field = `${id}-${argument.name}`;
        return (
          <div key={argument.name} className="flex flex-col text-sm">
            <label htmlFor={field} className="font-medium">
              {revealHidden(argument.title ?? argument.name)}
              {argument.required && (
                <span className="ml-1 text-danger">
                  <span aria-hidden="true">*</span>
                  <span className="sr-only"> (required)</span>
                </span>
              )}
            </label>
            {argument.description !== null && (
              <span id={`${field}-description`} className="text-muted wrap-anywhere">
                {revealHidden(argument.description)}
              </span>
            )}
            <input
              id={field}
              required={argument.required}
              aria-describedby={argument.description === null ? undefined : `${field}-description`}
              value={values[argument.name] ?? ""}
              onChange={(event) => setValues((old) => ({ ...old, [argument.name]: event.target.value }))}
              className="mt-0.5 max-w-md rounded-md border border-line bg-surface px-2 py-1"
            />
          </div>
        );
      })}
      <div>
        <button
          type="submit"
          disabled={busy}
          className="rounded-md border border-line bg-surface px-3 py-1 text-sm hover:bg-canvas disabled:opacity-60"
        >
          Get prompt
        </button>
        {prompt.arguments.some((argument) => argument.required) && (
          <span className="ml-3 text-xs text-muted">
            <span aria-hidden="true">*</span> required
          </span>
        )}
      </div>
    </form>
  );
}
