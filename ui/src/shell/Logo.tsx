// Plugboard's logo mark: a patch panel (rounded square) with two sockets joined by a cable. Decorative only.
/** Props for {@link Logo}. */
type LogoProps = {
  /** Rendered width and height in pixels. Defaults to 24. */
  size?: number;
  /** Extra classes, e.g. a text colour: the panel outline follows `currentColor`. */
  className?: string;
};

/** The logo mark. Hidden from assistive technology: the product name always sits beside it. */
export default function Logo({ size = 24, className }: LogoProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <rect x="2" y="2" width="20" height="20" rx="5" stroke="currentColor" strokeWidth="1.75" />
      <circle cx="7.5" cy="8" r="2.25" fill="currentColor" />
      <circle cx="16.5" cy="16" r="2.25" fill="currentColor" />
      <path
        d="M7.5 10.25 C7.5 15.5 16.5 8.5 16.5 13.75"
        stroke="var(--pb-accent)"
        strokeWidth="1.75"
        strokeLinecap="round"
      />
    </svg>
  );
}
