// The Console section: a placeholder until the feature ships, so the shell never pretends it works.
import PlaceholderPage from "../../shell/PlaceholderPage";

export default function ConsolePage() {
  return <PlaceholderPage title="Console" />;
}
