// A server's form (elicitation), generated from the schema it sent, with Accept, Decline and Cancel under it (always
// in view: the fields scroll, the buttons do not). Accept checks the values against the schema first (the shared
// eval-free validator, so under the window's CSP; missing required fields are named at their fields) and sends only
// what the form shows: what the person entered and the defaults they saw. The backend checks again before sending.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import SchemaForm from "../../forms/SchemaForm";
import { commands, type RequestKind } from "../../ipc/bindings";
import { firstFocus } from "../../shell/useDialogFocus";
import { revealHidden } from "../servers/revealHidden";
import AnswerFooter from "./AnswerFooter";
import { answerContent, elicitationSchema } from "./elicitationSchema";
import { DIALOG_BODY } from "./layout";
import type { Answer } from "./RequestDialog";

type Elicitation = Extract<RequestKind, { kind: "elicitation" }>;

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
  const formId = useId();
  const schema = useMemo(() => elicitationSchema(ask.schema), [ask.schema]);
  const [data, setData] = useState<unknown>({});
  const body = useRef<HTMLDivElement>(null);
  // The form loads after its dialog opened (RequestDialog), whose first focus went to the placeholder now gone (so
  // to the page, or to the dialog itself, which keeps focus inside): it goes to the form's first field instead,
  // unless the person has put it somewhere since.
  useEffect(() => {
    const active = document.activeElement;
    if (active === document.body || active === body.current?.closest('[role="dialog"]')) {
      firstFocus(body.current)?.focus();
    }
  }, []);
  const accept = (formData: unknown) => {
    const content = JSON.stringify(answerContent(schema, formData));
    void answer(() => commands.answerElicitation(id, "accept", content));
  };
  return (
    <>
      <div ref={body} className={DIALOG_BODY}>
        <p className="whitespace-pre-wrap wrap-anywhere">{revealHidden(ask.message)}</p>
        <SchemaForm
          id={formId}
          schema={schema}
          formData={data}
          focusOnFirstError
          onChange={(event) => setData(event.formData)}
          onSubmit={(event) => accept(event.formData)}
        />
      </div>
      {/* Outside the form element (the body scrolls, the footer does not): Accept submits it by its id. */}
      <AnswerFooter
        submitLabel="Accept"
        onCancel={() => void answer(() => commands.answerElicitation(id, "cancel", null))}
        onDecline={() => void answer(() => commands.answerElicitation(id, "decline", null))}
        form={formId}
        sending={sending}
      />
    </>
  );
}
