// The Settings section: a placeholder until the feature ships, so the shell never pretends it works.
import PlaceholderPage from "../../shell/PlaceholderPage";

export default function SettingsPage() {
  return <PlaceholderPage title="Settings" />;
}
