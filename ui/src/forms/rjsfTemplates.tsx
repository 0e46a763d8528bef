// The schema form's templates over the app's tokens. Labels, titles and descriptions come from the server's schema,
// so each is rendered as plain text with hidden characters made visible (never markdown, never HTML).
import type { DescriptionFieldProps, FieldErrorProps, FieldTemplateProps, TitleFieldProps } from "@rjsf/utils";
import { errorId, getTemplate, getUiOptions } from "@rjsf/utils";
import { revealHidden } from "../features/servers/revealHidden";

/** One field: its label tied to the input (htmlFor the input's id), the description, the input and its errors. */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, rawDescription, hidden, required, registry, schema, uiSchema } = props;
  const uiOptions = getUiOptions(uiSchema);
  const WrapIfAdditionalTemplate = getTemplate("WrapIfAdditionalTemplate", registry, uiOptions);
  if (hidden) return <div className="hidden">{children}</div>;
  // A checkbox renders its own label around the box; objects and arrays (a choice group too) title themselves with a
  // legend and their own description.
  const displayLabel = props.displayLabel === true && schema.type !== "array";
  const showLabel = displayLabel && uiOptions.widget !== "checkbox" && label !== "";
  const field = (
    <div className="flex flex-col gap-1">
      {showLabel && (
        <label htmlFor={id} className="font-medium wrap-anywhere">
          {revealHidden(label)}
          {required === true && (
            <span aria-hidden="true" className="ml-0.5 text-danger">
              *
            </span>
          )}
        </label>
      )}
      {displayLabel && rawDescription !== undefined && rawDescription !== "" && (
        <p id={`${id}__description`} className="text-xs text-muted wrap-anywhere whitespace-pre-line">
          {revealHidden(rawDescription)}
        </p>
      )}
      {children}
      <div className="text-xs text-danger [&_ul]:list-none">{errors}</div>
    </div>
  );
  // rjsf's registry hands back the same template component on every render; nothing is created here.
  // eslint-disable-next-line react-hooks/static-components -- see above.
  return <WrapIfAdditionalTemplate {...props}>{field}</WrapIfAdditionalTemplate>;
}

/** A description as plain text: rjsf can render markdown here, and server text must never become markup. */
export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (typeof description !== "string" || description === "") return null;
  return (
    <p id={id} className="text-xs text-muted wrap-anywhere whitespace-pre-line">
      {revealHidden(description)}
    </p>
  );
}

/** An object's or array's title, as the legend of its fieldset. */
export function TitleFieldTemplate({ id, title, required }: TitleFieldProps) {
  return (
    <legend id={id} className="mb-1 font-semibold wrap-anywhere">
      {revealHidden(title)}
      {required === true && (
        <span aria-hidden="true" className="ml-0.5 text-danger">
          *
        </span>
      )}
    </legend>
  );
}

/** A field's errors as plain text (they may quote the server's enum values), under the id its input points at. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter((error) => error !== "");
  if (shown.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="list-none">
      {shown.map((error, index) => (
        <li key={index}>{typeof error === "string" ? revealHidden(error) : error}</li>
      ))}
    </ul>
  );
}
