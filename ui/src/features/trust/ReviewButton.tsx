// "Review" on a server that awaits approval (or was refused): opens the approval dialog on what it would run.
import { ShieldAlert } from "lucide-react";
import { requestReview } from "./reviewRequest";

/** Props for {@link ReviewButton}. */
type ReviewButtonProps = {
  /** The server to review; part of the button's accessible name ("Review files"). */
  server: string;
};

export default function ReviewButton({ server }: ReviewButtonProps) {
  return (
    <button
      type="button"
      onClick={() => requestReview(server)}
      className="inline-flex items-center gap-1.5 rounded-md border border-accent/60 bg-surface px-2.5 py-0.5 text-sm whitespace-nowrap text-accent hover:bg-accent-soft"
    >
      <ShieldAlert size={14} aria-hidden="true" />
      Review <span className="sr-only">{server}</span>
    </button>
  );
}
