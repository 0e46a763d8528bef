// What the window shows before anything else: the app, or, when Plugboard's engine could not start (its config
// folder cannot be created, a file it follows cannot be watched), what is wrong and what to do, in place of an app
// that would fail at every click. The backend's text names paths, shown as inert text.
import { useQuery } from "@tanstack/react-query";
import { OctagonAlert } from "lucide-react";
import type { ReactNode } from "react";
import { commands, type StartupProblem } from "../ipc/bindings";
import { call } from "../ipc/client";
import { revealHidden } from "../features/servers/revealHidden";
import Logo from "./Logo";

/** Props for {@link StartupGate}. */
type StartupGateProps = {
  /** The app, shown once the engine is known to run. */
  children: ReactNode;
};

/** The window's whole content when Plugboard could not start. */
export function StartupProblemScreen({ problem }: { problem: StartupProblem }) {
  return (
    <main className="mx-auto flex h-full max-w-2xl flex-col justify-center gap-4 px-8">
      <div className="flex items-center gap-2">
        <Logo size={24} className="text-fg" />
        <span className="text-base font-semibold tracking-tight">Plugboard</span>
      </div>
      <section
        role="alert"
        aria-labelledby="startup-problem"
        className="flex flex-col gap-3 rounded-md border border-danger/40 bg-danger-soft px-5 py-4"
      >
        <h1 id="startup-problem" className="flex items-center gap-2 text-lg font-semibold">
          <OctagonAlert size={20} aria-hidden="true" />
          Plugboard cannot start
        </h1>
        <p className="wrap-anywhere">{revealHidden(problem.what)}</p>
        <h2 className="font-medium">What to do</h2>
        <p className="wrap-anywhere">{revealHidden(problem.remedy)}</p>
      </section>
    </main>
  );
}

export default function StartupGate({ children }: StartupGateProps) {
  const startup = useQuery({
    queryKey: ["startup-problem"],
    queryFn: () => call(commands.startupProblem()),
    staleTime: Infinity,
  });
  if (startup.isPending) return null;
  // Not knowing is no reason to hide the app: its own pages say what fails.
  if (startup.isError || startup.data === null) return children;
  return <StartupProblemScreen problem={startup.data} />;
}
