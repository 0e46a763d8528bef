// The schema forms' theme: rjsf's classes styled with the app's tokens, the templates that keep schema text inert, the
// widgets and fields that show fixed choices with their titles, and defaults that never invent a value.
import type { Experimental_DefaultFormStateBehavior, RegistryFieldsType, RegistryWidgetsType, TemplatesType } from "@rjsf/utils";
import CheckboxWidget from "./CheckboxWidget";
import ChoiceArrayField from "./ChoiceArrayField";
import { DescriptionFieldTemplate, FieldErrorTemplate, FieldTemplate, TitleFieldTemplate } from "./rjsfTemplates";
import SelectWidget from "./SelectWidget";

/** Classes for the form's root: rjsf's widgets carry `form-control`, styled here with the app's tokens. */
export const FORM_CLASSES = [
  "flex flex-col gap-3 text-sm",
  "[&_.form-control]:w-full [&_.form-control]:rounded-md [&_.form-control]:border [&_.form-control]:border-line",
  "[&_.form-control]:bg-surface [&_.form-control]:px-2.5 [&_.form-control]:py-1.5 [&_.form-control]:font-mono",
  "[&_fieldset]:flex [&_fieldset]:flex-col [&_fieldset]:gap-3 [&_fieldset_fieldset]:border-l [&_fieldset_fieldset]:border-line [&_fieldset_fieldset]:pl-3",
  "[&_button]:rounded-md [&_button]:border [&_button]:border-line [&_button]:bg-surface [&_button]:px-2 [&_button]:py-0.5",
  "[&_input[type=checkbox]]:mr-2",
].join(" ");

/** The templates the forms override; rjsf's defaults cover the rest. */
export const TEMPLATES: Partial<TemplatesType> = {
  FieldTemplate,
  FieldErrorTemplate,
  DescriptionFieldTemplate,
  TitleFieldTemplate,
};

/** Dropdowns and checkboxes with inert labels (a legacy enumNames title shown instead of the raw value). */
export const WIDGETS: RegistryWidgetsType = { SelectWidget, CheckboxWidget };

/** A pick-several array as one checkbox group; other arrays as rjsf draws them. */
export const FIELDS: RegistryFieldsType = { ArrayField: ChoiceArrayField };

/**
 * rjsf fills the data with more than the schema's `default`s unless told not to: a first `const` of a titled list, an
 * item per `minItems`, `false` for a required boolean. The person never chose those (a field rjsf could not draw would
 * still send them), so the forms start from the schema's defaults alone, each shown in its control.
 */
export const DEFAULTS_BEHAVIOR: Experimental_DefaultFormStateBehavior = {
  arrayMinItems: { populate: "never" },
  constAsDefaults: "never",
  requiredBooleanDefault: "skip",
};
