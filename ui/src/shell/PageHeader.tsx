// The title row every page starts with: the page's single <h1>, focusable from script (where focus lands when a
// dialog that opened this page closes).
import type { ReactNode } from "react";

/** Props for {@link PageHeader}. */
type PageHeaderProps = {
  /** The page title, rendered as the page's only <h1>. */
  title: string;
  /** Optional controls shown at the right end of the row (e.g. a refresh button). */
  actions?: ReactNode;
};

export default function PageHeader({ title, actions }: PageHeaderProps) {
  return (
    <header className="mb-6 flex items-center justify-between gap-4">
      <h1 tabIndex={-1} className="text-xl font-semibold tracking-tight outline-none">
        {title}
      </h1>
      {actions}
    </header>
  );
}
