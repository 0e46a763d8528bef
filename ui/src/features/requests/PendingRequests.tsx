// The host of servers' requests for the person, mounted once in the app shell: one dialog at a time, oldest first,
// with the count of the others; a request the server withdraws closes its dialog.
import RequestDialog from "./RequestDialog";
import { usePendingRequests } from "./usePendingRequests";

export default function PendingRequests() {
  const { queue, remove } = usePendingRequests();
  const current = queue[0];
  if (!current) return null;
  // Keyed by id: the next request gets a fresh form, never the previous one's half-typed answer.
  return (
    <RequestDialog key={current.id} request={current} others={queue.length - 1} onDone={() => remove(current.id)} />
  );
}
