// The schema forms' arrays: a pick-several list (items with `enum`, or `anyOf`/`oneOf` of titled `const`s) is ONE
// group of checkboxes labelled with the server's titles; any other array is rjsf's own. Picking nothing is no answer
// (the field is left out), never an empty list the person did not choose. Server text is inert, hidden characters shown.
import { getDefaultRegistry } from "@rjsf/core";
import { deepEquals, descriptionId, errorId, type FieldProps } from "@rjsf/utils";
import { revealHidden } from "../features/servers/revealHidden";
import { countHint, itemChoicesOf, type Choice } from "./choices";

// rjsf always registers its own fields under these names.
const RjsfArrayField = getDefaultRegistry().fields.ArrayField!;

export default function ChoiceArrayField(props: FieldProps) {
  const { schema, registry } = props;
  const choices = itemChoicesOf(schema, (items) => registry.schemaUtils.retrieveSchema(items));
  if (choices === null) return <RjsfArrayField {...props} />;
  return <ChoiceGroup {...props} choices={choices} />;
}

function ChoiceGroup({ choices, ...props }: FieldProps<unknown> & { choices: Choice[] }) {
  const { fieldPathId, name, schema, formData, required, disabled, readonly, errorSchema, onChange } = props;
  const id = fieldPathId.$id;
  const picked: unknown[] = Array.isArray(formData) ? formData : [];
  const isPicked = (value: unknown) => picked.some((item) => deepEquals(item, value));
  const full = schema.maxItems !== undefined && picked.length >= schema.maxItems;
  const hint = countHint(schema);
  const description = typeof schema.description === "string" && schema.description !== "" ? schema.description : null;
  const hasErrors = (errorSchema?.__errors?.length ?? 0) > 0;
  const describedBy = [description && descriptionId(id), hint && `${id}__hint`, hasErrors && errorId(id)].filter(Boolean);

  const toggle = (value: unknown, on: boolean) => {
    // In the order the schema lists them; a value no choice offers (typed in the JSON view) is kept, not dropped.
    const next = [
      ...choices.filter((choice) => (deepEquals(choice.value, value) ? on : isPicked(choice.value))).map((c) => c.value),
      ...picked.filter((item) => !choices.some((choice) => deepEquals(choice.value, item))),
    ];
    onChange(next.length === 0 ? undefined : next, fieldPathId.path, undefined, id);
  };

  return (
    <fieldset id={id} aria-describedby={describedBy.join(" ") || undefined}>
      <legend className="mb-1 font-medium wrap-anywhere">
        {revealHidden(typeof schema.title === "string" && schema.title !== "" ? schema.title : name)}
        {required === true && (
          <>
            <span aria-hidden="true" className="ml-0.5 text-danger">
              *
            </span>
            <span className="sr-only"> (required)</span>
          </>
        )}
      </legend>
      <div className="flex flex-col gap-1">
        {description !== null && (
          <p id={descriptionId(id)} className="text-xs text-muted wrap-anywhere whitespace-pre-line">
            {revealHidden(description)}
          </p>
        )}
        {hint !== null && (
          <p id={`${id}__hint`} className="text-xs text-muted">
            {hint}
          </p>
        )}
        {choices.map((choice, index) => {
          const checked = isPicked(choice.value);
          return (
            <label key={index} className="flex items-center wrap-anywhere">
              <input
                type="checkbox"
                id={`${id}-${index}`}
                name={id}
                checked={checked}
                // At maxItems the other boxes wait until one is unticked, so the list can never grow too long.
                disabled={disabled === true || readonly === true || (full && !checked)}
                onChange={(event) => toggle(choice.value, event.target.checked)}
              />
              <span>{revealHidden(choice.label)}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
