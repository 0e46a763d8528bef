// Starts a backend failure message with a capital letter when it begins with an ordinary word; it never touches a
// message that starts with a name, a path, a URL or code, and never interprets the text.

/**
 * The first word of a message that reads as prose: lower-case letters (an apostrophe or hyphen inside), followed by
 * a space or the end. "npx: not found", "mcpServers.x.url: …", "`command` …" or "http://…" do not match: capitalising
 * a program's or a field's name would misspell it.
 */
const PROSE_START = /^[a-z][a-z'-]*(?=\s|$)/u;

/**
 * `message` with its first letter capitalised when the backend started it with a lower-case word, e.g. "exited with
 * status 1" → "Exited with status 1"; anything else is returned unchanged.
 */
export function sentenceStart(message: string): string {
  if (!PROSE_START.test(message)) return message;
  return message.charAt(0).toUpperCase() + message.slice(1);
}
