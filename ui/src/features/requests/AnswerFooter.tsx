// The answer buttons under a request dialog's body, the same for every request kind: Cancel (when the kind has it),
// Decline, then the primary button that submits the form. The footer never scrolls, so they stay in view however long
// the body is; while an answer is on its way every button is disabled, so a request is answered once.
import { PRIMARY, SECONDARY } from "./buttons";
import { DIALOG_FOOTER } from "./layout";

/** Props for {@link AnswerFooter}. */
type AnswerFooterProps = {
  /** The primary button's text, saying what submitting sends ("Accept", "Send reply", "Share folders"). */
  submitLabel: string;
  /** Sends the kind's refusal. */
  onDecline: () => void;
  /** Sends "cancel" (the person dismissed the request rather than refusing it); no Cancel button when absent. */
  onCancel?: () => void;
  /**
   * The id of the form the primary button submits, when the footer sits outside that form element (the elicitation
   * form is rendered by SchemaForm inside the scrolling body); absent when the footer is inside its form.
   */
  form?: string;
  /** Whether an answer is on its way (every button disabled). */
  sending: boolean;
};

export default function AnswerFooter({ submitLabel, onDecline, onCancel, form, sending }: AnswerFooterProps) {
  return (
    <div className={DIALOG_FOOTER}>
      {onCancel !== undefined && (
        <button type="button" className={SECONDARY} disabled={sending} onClick={onCancel}>
          Cancel
        </button>
      )}
      <button type="button" className={SECONDARY} disabled={sending} onClick={onDecline}>
        Decline
      </button>
      <button type="submit" form={form} className={PRIMARY} disabled={sending}>
        {submitLabel}
      </button>
    </div>
  );
}
