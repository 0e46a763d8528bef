// A client's tool budget: how many tools it sees (or would) through Plugboard against its limit, where that limit
// comes from, the servers not counted yet, and, when over, the trims that fit (a profile, or search mode).
import type { ToolBudget, Trim } from "../../ipc/bindings";
import { toolCount } from "./clientState";

/** Props for {@link BudgetLine}. */
type BudgetLineProps = {
  budget: ToolBudget;
  /** The client's name, e.g. "Cursor". */
  label: string;
  /** Connects the client with this profile (a trim that fits). */
  onUseProfile: (profile: string) => void;
};

export default function BudgetLine({ budget, label, onUseProfile }: BudgetLineProps) {
  const { current, limit, over } = budget;
  const seen = current.search
    ? `${toolCount(current.tools)} (profile ${current.profile ?? ""}, search mode)`
    : current.profile !== null
      ? `${toolCount(current.tools)} (profile ${current.profile})`
      : toolCount(current.tools);
  return (
    <div className="flex flex-col gap-1 text-sm">
      <p className={over ? "font-medium text-danger" : undefined}>
        {seen} through Plugboard
        {limit === null
          ? ` · ${label} documents no limit`
          : ` · limit ${limit} (${budget.limitFrom === "chosen" ? "yours" : `documented by ${label}`})`}
        {over && limit !== null && ` · over by ${current.tools - limit}`}
      </p>
      {limit !== null && <Meter tools={current.tools} limit={limit} />}
      {current.unknownServers.length > 0 && (
        <p className="text-xs text-muted">
          Not counted yet: {current.unknownServers.join(", ")} (their tools are known once each has connected in
          Plugboard).
        </p>
      )}
      {over && <Trims trims={budget.trims} onUseProfile={onUseProfile} />}
    </div>
  );
}

/** A bar of the tools against the limit. */
function Meter({ tools, limit }: { tools: number; limit: number }) {
  return (
    <meter
      aria-label="Tools against the limit"
      min={0}
      max={limit}
      high={limit}
      value={Math.min(tools, limit)}
      className="h-1.5 w-full max-w-xs"
    />
  );
}

/** The ways under the limit. */
function Trims({ trims, onUseProfile }: { trims: Trim[]; onUseProfile: (profile: string) => void }) {
  return (
    <ul aria-label="Ways under the limit" className="flex flex-col gap-1">
      {trims.map((trim) =>
        trim.kind === "profile" ? (
          <li key={trim.profile}>
            <button
              type="button"
              onClick={() => onUseProfile(trim.profile)}
              className="rounded-md border border-line px-2 py-0.5 text-xs hover:bg-canvas"
            >
              Connect with profile {trim.profile} ({toolCount(trim.tools)}
              {trim.search ? ", search mode" : ""})
            </button>
          </li>
        ) : (
          <li key="search" className="text-xs">
            Or give a profile <code className="font-mono">&quot;mode&quot;: &quot;search&quot;</code> in servers.json:
            the client then sees {toolCount(trim.tools)} (find, describe and call) and finds the rest by searching.
          </li>
        ),
      )}
    </ul>
  );
}
