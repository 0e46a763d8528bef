// The Import section: a placeholder until the feature ships, so the shell never pretends it works.
import PlaceholderPage from "../../shell/PlaceholderPage";

export default function ImportPage() {
  return <PlaceholderPage title="Import" />;
}
