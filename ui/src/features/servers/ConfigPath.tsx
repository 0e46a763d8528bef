// Shows where the config file lives, as selectable plain text.
/** Props for {@link ConfigPath}. */
type ConfigPathProps = {
  /** Absolute path of the config file, shown verbatim. */
  path: string;
  /** Extra classes for the paragraph (spacing). */
  className?: string;
};

export default function ConfigPath({ path, className }: ConfigPathProps) {
  return (
    <p className={`text-sm ${className ?? ""}`}>
      <span className="text-muted">Config file: </span>
      <code className="rounded bg-canvas px-1.5 py-0.5 font-mono text-[13px] wrap-anywhere select-all">{path}</code>
    </p>
  );
}
