// Makes invisible characters in server-supplied text visible as `\u{…}` escapes; it never interprets markup.
/**
 * Characters that change how text looks or reads without showing themselves: C0/C1 controls other than tab and
 * newline (ANSI escapes, lone carriage returns), soft hyphen, zero-width characters, bidi marks, embeddings,
 * overrides and isolates, invisible operators and the byte-order mark.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/**
 * `text` with every hidden character replaced by its code point, e.g. `"a\u200bb"` → `"a\\u{200b}b"`, so an error
 * or stderr line cannot hide or reorder what it says. A `\r` that ends a Windows line (`\r\n`) is left alone.
 */
export function revealHidden(text: string): string {
  return text.replace(HIDDEN, (char, offset: number) =>
    char === "\r" && text[offset + 1] === "\n" ? char : `\\u{${char.codePointAt(0)!.toString(16)}}`,
  );
}
