// The add dialog of a preset: the exact command line or URL that will run (before anything is saved), the
// server's name, the preset's inputs (secrets as password fields, bound for the keychain), then Add → the
// new server's page.
import * as Dialog from "@radix-ui/react-dialog";
import { LoaderCircle, X } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { useNavigate } from "react-router";
import type { PresetInput, PresetListing, ReviewFlag } from "../../ipc/bindings";
import { useDialogFocus } from "../../shell/useDialogFocus";
import { useDebounced } from "../servers/detail/useDebounced";
import { revealHidden } from "../servers/revealHidden";
import PathPicker from "./PathPicker";
import PresetPreviewPanel from "./PresetPreviewPanel";
import { type PresetSource, useAddPreset, usePresetPreview } from "./usePresets";

/** Props for {@link AddPresetDialog}. */
type AddPresetDialogProps = {
  /** The preset to add, with the free name to suggest. */
  listing: PresetListing;
  /** Closes the dialog (Cancel, Escape, or after a failed add the person gives up on). */
  onClose: () => void;
  /** The button that opened the dialog: focus goes back to it when the dialog closes. */
  opener?: HTMLElement | null;
  /** Where the preset comes from; the embedded catalog when absent. */
  source?: PresetSource;
  /** The title, "Add <preset>" when absent. */
  heading?: string;
  /** What deserves a second look in what it would run (an install link's trust flags). */
  flags?: ReviewFlag[];
  /** Called with the new server's name once it is added (a dialog that outlives the page must close itself). */
  onAdded?: (name: string) => void;
  /** What the dialog shows about where the server comes from, under its description (a bundle's manifest). */
  about?: ReactNode;
};

const FIELD = "w-full rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm";

export default function AddPresetDialog({
  listing,
  onClose,
  opener,
  source,
  heading,
  flags = [],
  onAdded,
  about,
}: AddPresetDialogProps) {
  const { preset } = listing;
  const from: PresetSource = source ?? { kind: "catalog", preset: preset.name };
  // Opens on the Server name field (not the ✕); back to the opener on close, to the server's page heading after Add.
  const focus = useDialogFocus(opener);
  const navigate = useNavigate();
  const add = useAddPreset();
  const [name, setName] = useState(listing.suggestedName);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(preset.inputs.map((input) => [input.key, input.default ?? ""])),
  );
  const preview = usePresetPreview(from, useDebounced(previewInputs(preset.inputs, values), 200));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { source: from, name: name.trim(), inputs: values },
      {
        onSuccess: (added) => {
          onAdded?.(added);
          void navigate(`/servers/${encodeURIComponent(added)}`);
        },
      },
    );
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          {...focus}
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(40rem,94vw)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line bg-surface p-5 text-fg shadow-lg"
        >
          <div className="mb-1 flex items-start justify-between gap-2">
            <Dialog.Title className="text-base font-semibold">{heading ?? `Add ${revealHidden(preset.title)}`}</Dialog.Title>
            <Dialog.Close aria-label="Close" className="rounded p-1 text-muted hover:bg-canvas">
              <X size={16} aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mb-4 text-sm text-muted">{revealHidden(preset.description)}</Dialog.Description>
          {about}
          {preset.authNote && (
            <p role="note" aria-label="About logging in" className="mb-4 rounded-md bg-accent-soft px-3 py-2 text-sm">
              {revealHidden(preset.authNote)}
            </p>
          )}
          <form onSubmit={submit} className="flex flex-col gap-3">
            <label className="flex flex-col gap-1 text-sm">
              <span>
                Server name <span className="text-muted">(required)</span>
              </span>
              <input
                required
                value={name}
                onChange={(event) => setName(event.target.value)}
                className={`${FIELD} font-mono`}
                spellCheck={false}
              />
            </label>
            {preset.inputs.map((input) => (
              <InputField
                key={input.key}
                input={input}
                value={values[input.key] ?? ""}
                onChange={(value) => setValues((now) => ({ ...now, [input.key]: value }))}
              />
            ))}
            <PresetPreviewPanel preview={preview.data} error={preview.error?.message} />
            {flags.length > 0 && (
              <section aria-label="Worth a second look" className="rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm">
                <h3 className="mb-1 font-semibold">Worth a second look</h3>
                <ul className="list-disc pl-5">
                  {flags.map((flag) => (
                    <li key={flag.id}>{revealHidden(flag.message)}</li>
                  ))}
                </ul>
              </section>
            )}
            {preset.sources.length > 0 && (
              <p className="text-xs text-muted wrap-anywhere">
                Checked against the publisher's documentation: {preset.sources.map(revealHidden).join(", ")}
              </p>
            )}
            {add.isError && (
              <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger wrap-anywhere">
                Couldn't add the server: {revealHidden(add.error.message)}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Dialog.Close className="rounded-md border border-line bg-surface px-3.5 py-1.5 text-sm hover:bg-canvas">
                Cancel
              </Dialog.Close>
              <button
                type="submit"
                disabled={add.isPending}
                className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3.5 py-1.5 text-sm font-medium text-on-accent hover:opacity-90 disabled:opacity-50"
              >
                {add.isPending && <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />}
                Add server
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Props for {@link InputField}. */
type InputFieldProps = {
  input: PresetInput;
  value: string;
  onChange: (value: string) => void;
};

/**
 * One input of the preset: a list for an input with choices, a password field for a secret, a path field with the
 * system's picker, with its description and whether it is required.
 */
function InputField({ input, value, onChange }: InputFieldProps) {
  const hintId = `preset-input-${input.key}-hint`;
  const field = (
    <label className="flex flex-col gap-1 text-sm">
      <span>
        <span className="font-mono">{input.key}</span>{" "}
        <span className="text-muted">{input.required ? "(required)" : "(optional)"}</span>
      </span>
      {input.choices.length > 0 ? (
        <select
          required={input.required}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={hintId}
          className={`${FIELD} font-mono`}
        >
          {!input.required && <option value="">(none)</option>}
          {input.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      ) : (
        <input
          type={input.secret ? "password" : "text"}
          required={input.required}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder={input.placeholder ?? (input.path ? "/path/on/this/computer" : undefined)}
          aria-describedby={hintId}
          className={`${FIELD} font-mono`}
        />
      )}
      <span id={hintId} className="text-xs text-muted">
        {input.description ? revealHidden(input.description) : null}
        {input.secret && (input.description ? " " : "") + "Stored in your keychain, never in servers.json."}
      </span>
    </label>
  );
  if (!input.path) return field;
  // Beside the label, not in it: a button inside a label would share the field's name.
  return (
    <div className="flex flex-col gap-1">
      {field}
      <PathPicker kind={input.path} inputKey={input.key} onPicked={onChange} />
    </div>
  );
}

/** The inputs for the preview: a filled secret becomes "set" so its value never leaves the form before Add. */
function previewInputs(inputs: PresetInput[], values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    inputs
      .map((input) => [input.key, values[input.key] ?? ""] as const)
      .filter(([, value]) => value !== "")
      .map(([key, value]) => [key, inputs.find((i) => i.key === key)?.secret ? "set" : value]),
  );
}
