// A unified diff of a client's file, shown before anything is written: added lines marked +, removed lines -, as
// inert text (the file is the person's, its text may hold anything, and it is never read as HTML).

/** Props for {@link DiffView}. */
type DiffViewProps = {
  /** The unified diff, headers included. */
  diff: string;
};

/** How a line of a unified diff looks, by its first character. */
function lineKind(line: string): "added" | "removed" | "hunk" | "header" | "context" {
  if (line.startsWith("+++") || line.startsWith("---")) return "header";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return "context";
}

const LINE_CLASSES = {
  added: "bg-accent-soft",
  removed: "bg-danger-soft",
  hunk: "text-muted",
  header: "text-muted",
  context: "",
} as const;

export default function DiffView({ diff }: DiffViewProps) {
  const lines = diff.replace(/\n$/, "").split("\n");
  return (
    <pre
      aria-label="The change to the file"
      tabIndex={0}
      className="max-h-80 overflow-auto rounded-md border border-line bg-canvas py-1 font-mono text-xs leading-5"
    >
      {lines.map((line, index) => {
        const kind = lineKind(line);
        return (
          // The diff never reorders: a line's index is its identity.
          <div key={index} data-kind={kind} className={`px-2 whitespace-pre ${LINE_CLASSES[kind]}`}>
            {line === "" ? " " : line}
          </div>
        );
      })}
    </pre>
  );
}
