// A tool's arguments, edited as a form generated from its input schema or as JSON; both views edit the same text,
// which is what Run sends. One check of that text against the schema (argumentsCheck.ts) puts each error beside its
// field once the person edits the form (or Run was refused), and the JSON view lists them with syntax errors marked.
import * as Tabs from "@radix-ui/react-tabs";
import { useId, useMemo, useState } from "react";
import SchemaForm from "../../forms/SchemaForm";
import JsonCodeEditor from "../servers/detail/JsonCodeEditor";
import { revealHidden } from "../servers/revealHidden";
import { useArgumentsCheck } from "./argumentsCheck";
import { formatArgs, parseArgs } from "./argsJson";

const TAB_TRIGGER =
  "-mb-px border-b-2 border-transparent px-3 py-1 text-sm text-muted hover:text-fg data-[state=active]:border-accent data-[state=active]:font-medium data-[state=active]:text-fg";

/** Props for {@link ArgumentsEditor}. */
type ArgumentsEditorProps = {
  /** The tool's name, for labels. */
  tool: string;
  /** The tool's input schema as JSON text (ToolInfo.inputSchema). */
  schemaText: string;
  /** The arguments as JSON object text. */
  text: string;
  /** Called with the new text after an edit in either view. */
  onChange: (text: string) => void;
  /** Whether Run was refused for these arguments: the form then shows every error, even before an edit. */
  showErrors?: boolean;
};

export default function ArgumentsEditor({ tool, schemaText, text, onChange, showErrors = false }: ArgumentsEditorProps) {
  const messageId = useId();
  const parsed = useMemo(() => parseArgs(text), [text]);
  const { schema, check } = useArgumentsCheck(schemaText, parsed);
  // A fresh form shows no errors (nothing is wrong yet); the person's first edit, or a refused Run, shows them all.
  const [edited, setEdited] = useState(false);

  return (
    <Tabs.Root defaultValue={schema === null ? "json" : "form"} className="flex flex-col">
      <Tabs.List aria-label={`Arguments of ${tool}`} className="mb-3 flex gap-1 border-b border-line">
        <Tabs.Trigger value="form" className={TAB_TRIGGER}>
          Form
        </Tabs.Trigger>
        <Tabs.Trigger value="json" className={TAB_TRIGGER}>
          JSON
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="form">
        {schema === null ? (
          <p className="text-sm text-muted">This tool's input schema cannot be read as a form; use the JSON view.</p>
        ) : !parsed.ok ? (
          <p role="status" className="text-sm text-warn">
            The JSON view holds text that is not a JSON object; fix it there to use the form.
          </p>
        ) : (
          <SchemaForm
            // A div, not a form: Run (outside) is the console's submit.
            tagName="div"
            schema={schema}
            formData={parsed.value}
            extraErrors={edited || showErrors ? check.errorSchema : undefined}
            onChange={(event, fieldId) => {
              // rjsf also reports the schema's defaults it fills in on mount, with no field id: that is no edit.
              if (fieldId !== undefined) setEdited(true);
              onChange(formatArgs(event.formData));
            }}
          />
        )}
      </Tabs.Content>
      <Tabs.Content value="json" className="flex flex-col gap-2">
        <div className="h-48">
          <JsonCodeEditor
            value={text}
            onChange={onChange}
            problem={parsed.ok ? null : parsed.problem}
            label={`Arguments of ${tool} as JSON`}
            describedBy={messageId}
          />
        </div>
        <div id={messageId} aria-live="polite" className="min-h-5 text-sm wrap-anywhere">
          {!parsed.ok ? (
            <p className="text-danger">
              {`Line ${parsed.problem.line}, column ${parsed.problem.column}: ${parsed.problem.message}`}
            </p>
          ) : check.stacks.length > 0 ? (
            <ul className="text-warn">
              {check.stacks.map((error) => (
                <li key={error}>{`Schema: ${revealHidden(error)}`}</li>
              ))}
            </ul>
          ) : (
            <p className="text-ok">Valid arguments.</p>
          )}
        </div>
      </Tabs.Content>
    </Tabs.Root>
  );
}
