// How each live state looks (its icon, colour token and whether the icon spins), shared by the status badge and the
// status summary so a state looks the same wherever it is named.
import {
  CircleAlert,
  CircleCheck,
  CircleOff,
  CircleStop,
  KeyRound,
  LockKeyhole,
  LoaderCircle,
  RotateCw,
  ShieldAlert,
  type LucideIcon,
} from "lucide-react";
import type { ServerStatus } from "../../ipc/bindings";

/** The icon, its colour (a semantic token) and whether it spins, of one state. */
export type StatusLook = { icon: LucideIcon; className: string; spin?: boolean };

export const STATUS_LOOK: Record<ServerStatus["state"], StatusLook> = {
  disabled: { icon: CircleOff, className: "text-muted" },
  stopped: { icon: CircleStop, className: "text-muted" },
  connecting: { icon: LoaderCircle, className: "text-muted", spin: true },
  needsApproval: { icon: ShieldAlert, className: "text-accent" },
  needsLogin: { icon: KeyRound, className: "text-accent" },
  keychainLocked: { icon: LockKeyhole, className: "text-accent" },
  ready: { icon: CircleCheck, className: "text-ok" },
  reconnecting: { icon: RotateCw, className: "text-accent" },
  failed: { icon: CircleAlert, className: "text-danger" },
};
