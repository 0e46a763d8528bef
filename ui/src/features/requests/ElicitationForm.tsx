// A server's form (elicitation), generated from the schema it sent, with Accept, Decline and Cancel. The form checks
// the values against the schema as the person types (without eval, so under the window's CSP), and the backend
// checks them again before they reach the server; its refusal shows in the dialog.
import Form from "@rjsf/core";
import type { RJSFSchema, UiSchema } from "@rjsf/utils";
import { useMemo, useState } from "react";
import { schemaValidator } from "../../forms/schemaValidator";
import { commands, type RequestKind } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import { PRIMARY, SECONDARY } from "./buttons";
import type { Answer } from "./RequestDialog";

type Elicitation = Extract<RequestKind, { kind: "elicitation" }>;

/** One property of a schema (a sub-schema, or `true`/`false`). */
type Property = NonNullable<RJSFSchema["properties"]>[string];

/** The schema with every server-written title and description made inert-safe (hidden characters revealed). */
function revealSchema(schema: RJSFSchema): RJSFSchema {
  const entries = Object.entries(schema.properties ?? {}).map(([name, property]): [string, Property] => {
    if (typeof property !== "object") return [name, property];
    const { title, description } = property;
    return [
      name,
      {
        ...property,
        ...(title !== undefined && { title: revealHidden(title) }),
        ...(description !== undefined && { description: revealHidden(description) }),
      },
    ];
  });
  const properties: Record<string, Property> = Object.fromEntries(entries);
  return { ...schema, title: undefined, description: undefined, properties };
}

function parseSchema(text: string): RJSFSchema {
  try {
    const parsed = JSON.parse(text) as RJSFSchema | null;
    if (typeof parsed === "object" && parsed !== null) return revealSchema(parsed);
  } catch {
    // A broken schema still gets a form with no fields, so the person can decline.
  }
  return { type: "object", properties: {} };
}

// The buttons are ours (children replace rjsf's submit button).
const UI_SCHEMA: UiSchema = { "ui:submitButtonOptions": { norender: true } };

/**
 * @param id the request's id, for the answer.
 * @param ask the message and the requested schema.
 * @param answer sends the answer (see RequestDialog).
 * @param sending whether an answer is on its way (buttons disabled).
 */
export default function ElicitationForm({
  id,
  ask,
  answer,
  sending,
}: {
  id: number;
  ask: Elicitation;
  answer: Answer;
  sending: boolean;
}) {
  const schema = useMemo(() => parseSchema(ask.schema), [ask.schema]);
  const [data, setData] = useState<Record<string, unknown>>({});
  return (
    <>
      <p className="whitespace-pre-wrap wrap-anywhere">{revealHidden(ask.message)}</p>
      <Form
        schema={schema}
        uiSchema={UI_SCHEMA}
        validator={schemaValidator}
        formData={data}
        showErrorList={false}
        noHtml5Validate
        onChange={(event) => setData((event.formData ?? {}) as Record<string, unknown>)}
        onSubmit={(event) =>
          void answer(() => commands.answerElicitation(id, "accept", JSON.stringify(event.formData ?? {})))
        }
        className="pb-form flex flex-col gap-2"
      >
        <div className="mt-2 flex justify-end gap-2">
          <button
            type="button"
            className={SECONDARY}
            disabled={sending}
            onClick={() => void answer(() => commands.answerElicitation(id, "cancel", null))}
          >
            Cancel
          </button>
          <button
            type="button"
            className={SECONDARY}
            disabled={sending}
            onClick={() => void answer(() => commands.answerElicitation(id, "decline", null))}
          >
            Decline
          </button>
          <button type="submit" className={PRIMARY} disabled={sending}>
            Accept
          </button>
        </div>
      </Form>
    </>
  );
}
