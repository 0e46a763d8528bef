// One resource template with a fill-in form: a labelled field per URI-template variable, the URI it makes, and Read.
import { useId, useState, type FormEvent } from "react";
import type { ResourceTemplateInfo } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";
import { expandTemplate, templateVariables } from "./uriTemplate";

/** Props for {@link TemplateForm}. */
type TemplateFormProps = {
  /** The template as the server lists it. */
  template: ResourceTemplateInfo;
  /** Reads the resource at the filled-in URI. */
  onRead: (uri: string) => void;
};

export default function TemplateForm({ template, onRead }: TemplateFormProps) {
  const id = useId();
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const name = revealHidden(template.title ?? template.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRead(uri);
  };
  return (
    <form onSubmit={submit} aria-label={`Template ${name}`} className="rounded-md border border-line bg-surface px-3 py-2">
      <p className="font-medium wrap-anywhere">{name}</p>
      <code className="block font-mono text-xs text-muted wrap-anywhere">{revealHidden(template.uriTemplate)}</code>
      {template.description !== null && <p className="text-sm wrap-anywhere">{revealHidden(template.description)}</p>}
      <div className="mt-2 flex flex-wrap items-end gap-3">
        {variables.map((variable) => (
          <label key={variable} htmlFor={`${id}-${variable}`} className="flex flex-col text-sm">
            <span className="text-muted">{revealHidden(variable)}</span>
            <input
              id={`${id}-${variable}`}
              value={values[variable] ?? ""}
              onChange={(event) => setValues((old) => ({ ...old, [variable]: event.target.value }))}
              className="rounded-md border border-line bg-surface px-2 py-1"
            />
          </label>
        ))}
        <button type="submit" className="rounded-md border border-line px-3 py-1 text-sm hover:bg-canvas">
          Read
        </button>
      </div>
      <p className="mt-1 text-xs text-muted wrap-anywhere">
        URI: <code className="font-mono">{revealHidden(uri)}</code>
      </p>
    </form>
  );
}
