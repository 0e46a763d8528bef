// A Copy button that says how it went. When the webview refuses the clipboard, the text is shown selected in a
// read-only field to copy by hand. The text may be fetched only when the person asks (a token), never before.
import { Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useCopyText } from "./useCopyText";

/** Props for {@link CopyButton}. */
type CopyButtonProps = {
  label: string;
  /** What to copy; called at the click. */
  text: () => string | Promise<string>;
  /** Said above the field the text is shown in when the clipboard is refused. */
  fallbackLabel: string;
};

export default function CopyButton({ label, text, fallbackLabel }: CopyButtonProps) {
  const { state, copy } = useCopyText();
  const [copied, setCopied] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (state === "refused") field.current?.select();
  }, [state]);

  const copyNow = (value: string) => {
    setCopied(value);
    copy(value);
  };
  const onClick = async () => {
    setProblem(null);
    try {
      const value = text();
      // Text at hand is copied within the click itself (a browser may refuse the clipboard later).
      if (typeof value === "string") copyNow(value);
      else copyNow(await value);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => void onClick()}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm hover:bg-canvas"
      >
        <Copy size={14} aria-hidden="true" />
        {state === "copied" ? "Copied" : label}
      </button>
      {problem !== null && <p role="alert">{problem}</p>}
      {state === "refused" && copied !== null && (
        <label className="flex w-full flex-col gap-1 text-xs">
          {fallbackLabel}
          <input
            ref={field}
            readOnly
            value={copied}
            onFocus={(event) => event.currentTarget.select()}
            className="w-full rounded-md border border-line bg-canvas px-2 py-1 font-mono"
          />
        </label>
      )}
    </>
  );
}
