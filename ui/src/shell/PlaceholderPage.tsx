// A section that has not shipped yet: its title and one honest line, no pretend controls.
import PageHeader from "./PageHeader";

/** Props for {@link PlaceholderPage}. */
type PlaceholderPageProps = {
  /** The section's name, shown as the page heading. */
  title: string;
};

export default function PlaceholderPage({ title }: PlaceholderPageProps) {
  return (
    <>
      <PageHeader title={title} />
      <p className="text-muted">Coming in a later release.</p>
    </>
  );
}
