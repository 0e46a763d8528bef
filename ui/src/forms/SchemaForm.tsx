// The form every JSON Schema in the app is edited with (a tool's arguments, a server's elicitation): rjsf over the
// shared eval-free validator (the app's CSP forbids eval), with the shared theme, no submit button of its own (each
// caller has its buttons) and no error list (errors sit next to their fields). It never renders server text as HTML.
import Form, { type FormProps } from "@rjsf/core";
import type { UiSchema } from "@rjsf/utils";
import { schemaValidator } from "./schemaValidator";
import { DEFAULTS_BEHAVIOR, FIELDS, FORM_CLASSES, TEMPLATES, WIDGETS } from "./rjsfTheme";

const UI_SCHEMA: UiSchema = { "ui:submitButtonOptions": { norender: true } };

/** rjsf's Form props, less those the shared form sets; `className` is added to the theme's classes. */
export type SchemaFormProps = Omit<
  FormProps,
  "validator" | "templates" | "widgets" | "fields" | "uiSchema" | "showErrorList" | "experimental_defaultFormStateBehavior"
>;

export default function SchemaForm({ className, ...props }: SchemaFormProps) {
  return (
    <Form
      validator={schemaValidator}
      templates={TEMPLATES}
      widgets={WIDGETS}
      fields={FIELDS}
      uiSchema={UI_SCHEMA}
      showErrorList={false}
      noHtml5Validate
      experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOR}
      className={className === undefined ? FORM_CLASSES : `${FORM_CLASSES} ${className}`}
      {...props}
    />
  );
}
