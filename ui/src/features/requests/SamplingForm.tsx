// A server's sampling request: Plugboard runs no LLM, so the person reads the server's messages (inert text) and
// may write the reply themselves, which the server receives as the assistant's message, or decline.
import { useState } from "react";
import { commands, type RequestKind } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import AnswerFooter from "./AnswerFooter";
import { DIALOG_BODY } from "./layout";
import type { Answer } from "./RequestDialog";

type Sampling = Extract<RequestKind, { kind: "sampling" }>;

/**
 * @param id the request's id, for the answer.
 * @param ask the server's messages, system prompt and token limit.
 * @param answer sends the answer (see RequestDialog).
 * @param sending whether an answer is on its way (buttons disabled).
 */
export default function SamplingForm({
  id,
  ask,
  answer,
  sending,
}: {
  id: number;
  ask: Sampling;
  answer: Answer;
  sending: boolean;
}) {
  const [reply, setReply] = useState("");
  const send = () => void answer(() => commands.answerSampling(id, reply));
  return (
    <form
      className="flex min-h-0 flex-1 flex-col"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div className={DIALOG_BODY}>
        <p className="text-muted">
          The server wants a reply an AI model would write. Plugboard runs no model: you can write the reply yourself
          (the server receives it as the model&apos;s answer, marked as written by a person), or decline.
        </p>
        {ask.systemPrompt !== null && (
          <section aria-label="System prompt" className="rounded-md border border-line px-3 py-2">
            <h3 className="text-xs font-medium text-muted">System prompt</h3>
            <p className="whitespace-pre-wrap wrap-anywhere">{revealHidden(ask.systemPrompt)}</p>
          </section>
        )}
        <ol aria-label="Messages" className="flex flex-col gap-2">
          {ask.messages.map((message, index) => (
            <li key={index} className="rounded-md border border-line px-3 py-2">
              <span className="text-xs font-medium text-muted">{message.role}</span>
              <p className="whitespace-pre-wrap wrap-anywhere">{revealHidden(message.text)}</p>
            </li>
          ))}
        </ol>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Your reply (up to about {ask.maxTokens} tokens)</span>
          <textarea
            value={reply}
            onChange={(event) => setReply(event.target.value)}
            onKeyDown={(event) => {
              // Enter sends, Shift+Enter starts a new line.
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                send();
              }
            }}
            rows={4}
            className="rounded-md border border-line bg-canvas px-2 py-1"
          />
        </label>
      </div>
      <AnswerFooter
        submitLabel="Send reply"
        onDecline={() => void answer(() => commands.answerSampling(id, null))}
        sending={sending}
      />
    </form>
  );
}
