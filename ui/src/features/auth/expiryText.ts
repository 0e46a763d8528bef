// When a login's access token expires and what happens then, in words (for the login facts on a server's page).
import type { LoginState } from "../../ipc/bindings";

/** When the access token expires, and what happens then, in words. */
export function expiryText(state: LoginState, now: number): string {
  const renewal = state.renewsByItself
    ? "Plugboard renews it by itself"
    : "you will need to log in again then";
  if (state.expiresAtMs === null) return `No expiry stated; ${renewal.replace(" then", " when it ends")}`;
  const left = state.expiresAtMs - now;
  if (left <= 0) {
    return state.renewsByItself
      ? "Expired; renewed on the next use"
      : "Expired; log in again";
  }
  const at = new Date(state.expiresAtMs).toLocaleString();
  return `Expires in ${duration(left)} (${at}); ${renewal}`;
}

/** A rough, readable span: "45 s", "12 min", "3 h 5 min", "2 days". */
function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}
