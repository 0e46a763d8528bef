// One main-navigation link; React Router's NavLink sets aria-current="page" on the active one.
import { NavLink } from "react-router";
import type { Section } from "./sections";

/** Props for {@link SidebarLink}. */
type SidebarLinkProps = {
  /** The section this link opens. */
  section: Section;
};

export default function SidebarLink({ section }: SidebarLinkProps) {
  const Icon = section.icon;
  return (
    <NavLink
      to={section.path}
      className={({ isActive }) =>
        [
          "flex items-center gap-2.5 rounded-md px-3 py-1.5 text-sm",
          isActive ? "bg-accent-soft font-medium text-fg" : "text-muted hover:bg-surface hover:text-fg",
        ].join(" ")
      }
    >
      <Icon size={16} aria-hidden="true" />
      {section.label}
    </NavLink>
  );
}
