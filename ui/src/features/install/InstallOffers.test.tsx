// Tests for install links in the window: an offer opens the consent dialog with what it runs and its flags; only
// Add adds (through the link command); Cancel adds nothing; the offers of a cold start are shown too.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type BundleOffer, commands, events, type InstallOffer } from "../../ipc/bindings";
import { ok } from "../../test/importFixtures";
import { renderWithProviders } from "../../test/render";
import InstallOffers from "./InstallOffers";

vi.mock("../../ipc/bindings", () => ({
  commands: {
    missedInstallOffers: vi.fn(),
    missedBundles: vi.fn(),
    previewInstallLink: vi.fn(),
    addFromInstallLink: vi.fn(),
    openBundle: vi.fn(),
    previewBundle: vi.fn(),
    addBundle: vi.fn(),
  },
  events: { installOffered: { listen: vi.fn() }, bundleDropped: { listen: vi.fn() } },
}));

const LINK = "plugboard://install?name=weather&config=eyJjb21tYW5kIjoibnB4In0";
const OFFER: InstallOffer = {
  link: LINK,
  suggestedName: "weather",
  preset: {
    name: "link/weather",
    title: "weather",
    description: "Offered by an install link. Check what it runs before you add it.",
    version: "",
    websiteUrl: null,
    repositoryUrl: null,
    launch: { kind: "command", command: "npx", args: [["-y"], ["some-server"]], env: [{ name: "WEATHER_API_KEY", template: "{WEATHER_API_KEY}" }] },
    inputs: [
      {
        key: "WEATHER_API_KEY",
        description: "Asked for by the link (env.WEATHER_API_KEY).",
        required: true,
        secret: true,
        default: null,
        path: null,
        placeholder: null,
        choices: [],
      },
    ],
    authNote: null,
    sources: [],
  },
  preview: { target: "npx -y some-server", env: [{ name: "WEATHER_API_KEY", template: "${secret:WEATHER_API_KEY}" }], headers: [] },
  flags: [{ id: "unpinned", message: "some-server has no pinned version: whatever is published next runs at the next start." }],
};

/** Fires `installOffered` as the backend would. */
/** The offer the backend makes for a bundle "Hello" at `path`. */
function helloBundle(path: string): BundleOffer {
  return {
    path,
    displayName: "Hello",
    version: "1.0.0",
    author: "Ada",
    description: "Says hello.",
    spec: "0.3",
    tools: [{ name: "hello", description: null }],
    signature: {
      status: "untrusted",
      signer: { publisher: "Ada Tools", issuer: "Ada CA", fingerprint: "AB:CD", validUntil: "Dec  2 14:00:00 2027 GMT" },
      reason: "no certificate authority this computer trusts vouches for the signer",
    },
    compatibility: "platforms: linux",
    preset: { ...OFFER.preset, name: "mcpb/hello", title: "Hello" },
    suggestedName: "hello",
    preview: OFFER.preview,
    flags: [],
  };
}

let fire: (offer: InstallOffer) => void = () => {};
/** Fires `bundleDropped` as the backend would. */
let drop: (path: string) => void = () => {};

describe("InstallOffers", () => {
  beforeEach(() => {
    vi.mocked(commands.missedInstallOffers).mockReset().mockReturnValue(ok([]));
    vi.mocked(commands.missedBundles).mockReset().mockReturnValue(ok([]));
    vi.mocked(commands.openBundle).mockReset();
    vi.mocked(commands.addBundle).mockReset();
    vi.mocked(commands.previewInstallLink).mockReset().mockReturnValue(ok(OFFER.preview));
    vi.mocked(commands.addFromInstallLink).mockReset().mockReturnValue(ok("weather"));
    vi.mocked(events.installOffered.listen).mockImplementation((callback) => {
      fire = (offer) => callback({ payload: { offer } } as never);
      return Promise.resolve(() => {});
    });
    vi.mocked(events.bundleDropped.listen).mockImplementation((callback) => {
      drop = (path) => callback({ payload: { path } } as never);
      return Promise.resolve(() => {});
    });
  });

  // Pins: a link's offer opens the consent dialog with the exact command, the variable's name as a reference, its
  // flags and a password field; Add sends the link back with the name and inputs (the backend parses it again).
  it("asks before adding, showing what it runs and its flags", async () => {
    const user = userEvent.setup();
    renderWithProviders(<InstallOffers />);
    await waitFor(() => expect(events.installOffered.listen).toHaveBeenCalled());
    fire(OFFER);
    const dialog = await screen.findByRole("dialog", { name: "Add weather from a link?" });
    expect(await within(dialog).findByTestId("preset-target")).toHaveTextContent("npx -y some-server");
    expect(within(dialog).getByText("WEATHER_API_KEY=${secret:WEATHER_API_KEY}")).toBeInTheDocument();
    expect(within(dialog).getByRole("region", { name: "Worth a second look" })).toHaveTextContent("no pinned version");
    const key = within(dialog).getByLabelText(/WEATHER_API_KEY \(required\)/);
    expect(key).toHaveAttribute("type", "password");
    expect(commands.addFromInstallLink).not.toHaveBeenCalled();
    await user.type(key, "wk_1");
    await user.click(within(dialog).getByRole("button", { name: "Add server" }));
    expect(commands.addFromInstallLink).toHaveBeenCalledWith(LINK, "weather", { WEATHER_API_KEY: "wk_1" });
    // The dialog lives above every page, so it closes itself once the server is added.
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  // Pins: Cancel adds nothing and closes; an offer the app was started with is shown as well.
  it("adds nothing on Cancel, and shows a cold start's offer", async () => {
    const user = userEvent.setup();
    vi.mocked(commands.missedInstallOffers).mockReturnValue(ok([{ offer: OFFER }]));
    renderWithProviders(<InstallOffers />);
    const dialog = await screen.findByRole("dialog", { name: "Add weather from a link?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(commands.addFromInstallLink).not.toHaveBeenCalled();
  });

  // Pins: a dropped bundle is opened by the backend and shown with its manifest (author, signature as checked,
  // declared tools) before anything is installed; Add installs it through the bundle command with its path. A bad
  // bundle's refusal is shown as an alert.
  it("shows a dropped bundle's manifest, then installs it", async () => {
    const user = userEvent.setup();
    vi.mocked(commands.openBundle).mockImplementation((path) =>
      path.endsWith("bad.mcpb")
        ? (Promise.resolve({ status: "error", error: { code: "InvalidConfig", field: "bundle", message: "the bundle holds a path that escapes its folder: \"../x\"" } }) as never)
        : ok(helloBundle(path)),
    );
    vi.mocked(commands.previewBundle).mockReturnValue(ok(OFFER.preview));
    vi.mocked(commands.addBundle).mockReturnValue(ok("hello"));
    renderWithProviders(<InstallOffers />);
    await waitFor(() => expect(events.bundleDropped.listen).toHaveBeenCalled());
    drop("/home/ada/bad.mcpb");
    expect(await screen.findByRole("alert")).toHaveTextContent("escapes its folder");
    drop("/home/ada/hello.mcpb");
    const dialog = await screen.findByRole("dialog", { name: "Install the bundle Hello?" });
    const about = within(dialog).getByLabelText("About the bundle");
    expect(about).toHaveTextContent(/Author\s*Ada/);
    expect(about).toHaveTextContent(
      /Signed by "Ada Tools", but no certificate authority this computer trusts vouches for the signer: trust it no more than an unsigned one/,
    );
    expect(about).toHaveTextContent(/Certificate SHA-256 AB:CD, valid until Dec 2 14:00:00 2027 GMT/);
    expect(about).toHaveTextContent(/Declares\s*hello/);
    await user.type(within(dialog).getByLabelText(/WEATHER_API_KEY/), "k");
    await user.click(within(dialog).getByRole("button", { name: "Add server" }));
    expect(commands.addBundle).toHaveBeenCalledWith("/home/ada/hello.mcpb", "hello", { WEATHER_API_KEY: "k" });
    expect(commands.addFromInstallLink).not.toHaveBeenCalled();
  });

  // Pins: a bundle the app was started with (opened with Plugboard from a file manager) is opened by the backend and
  // shown like a dropped one; nothing is installed before Add.
  it("shows the bundle the app was opened with", async () => {
    vi.mocked(commands.missedBundles).mockReturnValue(ok([{ path: "/home/ada/Downloads/hello.mcpb" }]));
    vi.mocked(commands.openBundle).mockImplementation((path) => ok(helloBundle(path)));
    renderWithProviders(<InstallOffers />);
    await screen.findByRole("dialog", { name: "Install the bundle Hello?" });
    expect(commands.openBundle).toHaveBeenCalledWith("/home/ada/Downloads/hello.mcpb");
    expect(commands.addBundle).not.toHaveBeenCalled();
  });
});
