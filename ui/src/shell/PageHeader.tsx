// The title row every page starts with: the page's single <h1>. A page reached by an action that closed a dialog
// (Add server → the new server's page) is entered with `{ focusHeading: true }` in the route state, so the focus
// lands on its title instead of being lost with the dialog.
import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";

/** Props for {@link PageHeader}. */
type PageHeaderProps = {
  /** The page title, rendered as the page's only <h1>. */
  title: string;
  /** Optional controls shown at the right end of the row (e.g. a refresh button). */
  actions?: ReactNode;
};

export default function PageHeader({ title, actions }: PageHeaderProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  const focusHeading = (location.state as { focusHeading?: boolean } | null)?.focusHeading === true;
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading, location.key]);
  return (
    <header className="mb-6 flex items-center justify-between gap-4">
      <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold tracking-tight outline-none">
        {title}
      </h1>
      {actions}
    </header>
  );
}
