// Tests for the app shell: the main navigation and the product name.
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import App from "../App";
import { renderWithProviders } from "../test/render";

// The shell listens for refused deep links, install links, servers' requests and servers awaiting approval on every
// page (DeepLinkBanner.test.tsx, install/InstallOffers.test.tsx, requests/PendingRequests.test.tsx and
// trust/ApprovalDialog.test.tsx test those).
vi.mock("../ipc/bindings", () => ({
  commands: {
    missedDeepLinkRejections: vi.fn(() => Promise.resolve({ status: "ok", data: [] })),
    missedInstallOffers: vi.fn(() => Promise.resolve({ status: "ok", data: [] })),
    missedBundles: vi.fn(() => Promise.resolve({ status: "ok", data: [] })),
    pendingRequests: vi.fn(() => Promise.resolve({ status: "ok", data: [] })),
    pendingApprovals: vi.fn(() => Promise.resolve({ status: "ok", data: [] })),
  },
  events: {
    deepLinkRejected: { listen: vi.fn(() => Promise.resolve(() => {})) },
    installOffered: { listen: vi.fn(() => Promise.resolve(() => {})) },
    bundleDropped: { listen: vi.fn(() => Promise.resolve(() => {})) },
    pendingRequestArrived: { listen: vi.fn(() => Promise.resolve(() => {})) },
    pendingRequestWithdrawn: { listen: vi.fn(() => Promise.resolve(() => {})) },
    serverStatusChanged: { listen: vi.fn(() => Promise.resolve(() => {})) },
    configChanged: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

// The shell is under test, not the page inside it (ConsolePage.test.tsx covers the console).
vi.mock("../features/console/ConsolePage", () => ({ default: () => <h1>Console</h1> }));

describe("AppShell", () => {
  // Pins: the "Main" nav has exactly the six sections, in order, each a link to its hash route.
  it("has the six main sections", () => {
    renderWithProviders(<App />, "/console");

    const nav = screen.getByRole("navigation", { name: "Main" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual(["Servers", "Presets", "Import", "Clients", "Console", "Settings"]);
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "/servers",
      "/presets",
      "/import",
      "/clients",
      "/console",
      "/settings",
    ]);
  });

  // Pins: the product name is shown beside the logo.
  it("shows the product name", () => {
    renderWithProviders(<App />, "/console");

    expect(screen.getByText("Plugboard")).toBeInTheDocument();
  });
});
