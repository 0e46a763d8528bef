// A server's login as facts: logged in or not, the issuer, the scopes granted and when the access token expires.
// Everything shown came from the authorization server, so it is inert text with hidden characters revealed.
import { useState } from "react";
import type { LoginState } from "../../ipc/bindings";
import { expiryText } from "./expiryText";
import { revealHidden } from "../servers/revealHidden";
import { useLoginState } from "./useLoginState";

/** Props for {@link LoginFacts}. */
type LoginFactsProps = {
  /** The OAuth server whose login is shown. */
  server: string;
  /** The clock, for tests; defaults to now. */
  now?: number;
};

export default function LoginFacts({ server, now }: LoginFactsProps) {
  const login = useLoginState(server);
  // Read once per mount: the page shows a span ("expires in 40 min"), not a ticking clock.
  const [mountedAt] = useState(Date.now);
  if (login.isPending) return null;
  if (login.isError) {
    return (
      <p role="alert" className="mt-3 rounded-md border border-danger/40 bg-danger-soft px-4 py-2 text-sm wrap-anywhere">
        Couldn't read the login from the keychain: {login.error.message}
      </p>
    );
  }
  if (login.data === null) return null;
  return (
    <section aria-label="Login" className="mt-3 rounded-lg border border-line bg-surface px-5 py-3 text-sm">
      <h2 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">Login (OAuth)</h2>
      <Facts state={login.data} now={now ?? mountedAt} />
    </section>
  );
}

/** Props for {@link Facts}. */
type FactsProps = {
  /** The login facts from the core. */
  state: LoginState;
  /** Milliseconds since the epoch. */
  now: number;
};

function Facts({ state, now }: FactsProps) {
  if (!state.loggedIn) {
    return <p>Not logged in. Use Log in above: your browser opens the server's sign-in page.</p>;
  }
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-1">
      <dt className="text-muted">Status</dt>
      <dd>Logged in</dd>
      <dt className="text-muted">Issuer</dt>
      <dd className="wrap-anywhere">{state.issuer === null ? "Not stated" : revealHidden(state.issuer)}</dd>
      <dt className="text-muted">Scopes</dt>
      <dd className="wrap-anywhere">
        {state.scopes.length === 0 ? "None stated" : state.scopes.map((scope) => revealHidden(scope)).join(" ")}
      </dd>
      <dt className="text-muted">Access</dt>
      <dd>{expiryText(state, now)}</dd>
      <dt className="text-muted">Token</dt>
      <dd>
        {state.boundToKey
          ? "Bound to this computer's key (DPoP): a copy is useless without it"
          : "Bearer: whoever holds a copy can use it"}
      </dd>
    </dl>
  );
}
