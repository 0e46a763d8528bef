// The import wizard's steps, in order (kept apart from the components so fast refresh keeps working).
/** The wizard's steps, in order. */
export const STEPS = ["sources", "review", "summary"] as const;
/** One step of the import wizard. */
export type Step = (typeof STEPS)[number];
