// The product's top-level sections, in sidebar order: one place to add a section to the nav.
import { Cable, Download, Layers, MonitorSmartphone, Settings, SquareTerminal, type LucideIcon } from "lucide-react";

/** One entry in the main navigation. */
export type Section = {
  /** Route path (hash-routed), e.g. "/servers". */
  path: string;
  /** Visible label, also the link's accessible name. */
  label: string;
  /** Decorative icon shown before the label. */
  icon: LucideIcon;
};

export const SECTIONS: readonly Section[] = [
  { path: "/servers", label: "Servers", icon: Cable },
  { path: "/presets", label: "Presets", icon: Layers },
  { path: "/import", label: "Import", icon: Download },
  { path: "/clients", label: "Clients", icon: MonitorSmartphone },
  { path: "/console", label: "Console", icon: SquareTerminal },
  { path: "/settings", label: "Settings", icon: Settings },
];
