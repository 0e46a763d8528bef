// The schema forms' dropdown: rjsf's select with every choice labelled as choices.ts reads it (so a legacy `enumNames`
// title shows instead of the raw value) and each label inert, hidden characters shown.
import { getDefaultRegistry } from "@rjsf/core";
import { deepEquals, type WidgetProps } from "@rjsf/utils";
import { revealHidden } from "../features/servers/revealHidden";
import { choicesOf } from "./choices";

// rjsf always registers its own widgets under these names.
const RjsfSelectWidget = getDefaultRegistry().widgets.SelectWidget!;

export default function SelectWidget(props: WidgetProps) {
  const { schema, options } = props;
  const choices = choicesOf(schema) ?? [];
  const enumOptions = options.enumOptions?.map((option) => {
    const label = choices.find((choice) => deepEquals(choice.value, option.value))?.label ?? option.label;
    return { ...option, label: revealHidden(label) };
  });
  return <RjsfSelectWidget {...props} options={{ ...options, enumOptions }} />;
}
