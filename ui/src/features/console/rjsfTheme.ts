// The schema form's theme: rjsf's classes styled with the app's tokens, and the templates that keep schema text inert.
import type { TemplatesType } from "@rjsf/utils";
import { DescriptionFieldTemplate, FieldTemplate, TitleFieldTemplate } from "./rjsfTemplates";

/** Classes for the form's root: rjsf's widgets carry `form-control`, styled here with the app's tokens. */
export const FORM_CLASSES = [
  "flex flex-col gap-3 text-sm",
  "[&_.form-control]:w-full [&_.form-control]:rounded-md [&_.form-control]:border [&_.form-control]:border-line",
  "[&_.form-control]:bg-surface [&_.form-control]:px-2.5 [&_.form-control]:py-1.5 [&_.form-control]:font-mono",
  "[&_fieldset]:flex [&_fieldset]:flex-col [&_fieldset]:gap-3 [&_fieldset_fieldset]:border-l [&_fieldset_fieldset]:border-line [&_fieldset_fieldset]:pl-3",
  "[&_button]:rounded-md [&_button]:border [&_button]:border-line [&_button]:bg-surface [&_button]:px-2 [&_button]:py-0.5",
  "[&_input[type=checkbox]]:mr-2",
].join(" ");

/** The templates the console's form overrides; rjsf's defaults cover the rest. */
export const TEMPLATES: Partial<TemplatesType> = { FieldTemplate, DescriptionFieldTemplate, TitleFieldTemplate };
