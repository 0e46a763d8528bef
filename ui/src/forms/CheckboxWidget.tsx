// The schema forms' single checkbox (a boolean): rjsf's, with the label (a title or property name from the server)
// inert and its hidden characters shown, as every other field's label is.
import { getDefaultRegistry } from "@rjsf/core";
import type { WidgetProps } from "@rjsf/utils";
import { revealHidden } from "../features/servers/revealHidden";

// rjsf always registers its own widgets under these names.
const RjsfCheckboxWidget = getDefaultRegistry().widgets.CheckboxWidget!;

export default function CheckboxWidget(props: WidgetProps) {
  return <RjsfCheckboxWidget {...props} label={revealHidden(props.label)} />;
}
