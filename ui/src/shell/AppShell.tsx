// The window layout: a sidebar with the product name and main navigation, and the current page beside it (under the
// notices of refused plugboard:// links, which can arrive on any page), servers' requests for the person and the
// approvals of what servers run as dialogs over any page, and the pages' memory for the app's lifetime (the Console's pick and arguments, the Servers page's
// search, filter and sort).
import { Outlet } from "react-router";
import DeepLinkBanner from "../features/auth/DeepLinkBanner";
import InstallOffers from "../features/install/InstallOffers";
import PendingRequests from "../features/requests/PendingRequests";
import ApprovalDialog from "../features/trust/ApprovalDialog";
import Logo from "./Logo";
import { SECTIONS } from "./sections";
import SessionMemoryProvider from "./SessionMemoryProvider";
import SidebarLink from "./SidebarLink";

export default function AppShell() {
  return (
    <div className="flex h-full min-h-0">
      <aside className="flex w-52 shrink-0 flex-col border-r border-line bg-sidebar">
        <div className="flex items-center gap-2 px-4 pt-5 pb-4">
          <Logo size={24} className="text-fg" />
          <span className="text-base font-semibold tracking-tight">Plugboard</span>
        </div>
        <nav aria-label="Main" className="px-2">
          <ul className="flex flex-col gap-0.5">
            {SECTIONS.map((section) => (
              <li key={section.path}>
                <SidebarLink section={section} />
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <main className="min-w-0 flex-1 overflow-y-auto">
        <div className="mx-auto max-w-5xl px-8 py-6">
          <DeepLinkBanner />
          {/* Above the routes, so what a page remembers outlives a visit to another page. */}
          <SessionMemoryProvider>
            <Outlet />
          </SessionMemoryProvider>
        </div>
      </main>
      <PendingRequests />
      <ApprovalDialog />
      <InstallOffers />
    </div>
  );
}
