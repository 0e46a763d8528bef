// JSON pointers as @cfworker/json-schema writes them (instance and schema locations, local $refs): `#/a/b`.

/** The decoded segments of a `#/a/b` pointer (URI-encoded, with ~0 and ~1 escapes); `#` alone has none. */
export function pointerSegments(pointer: string): string[] {
  return pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((segment) => uriDecoded(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
}

// A $ref comes from the server's schema and may hold a stray "%"; it is then taken as written, never thrown on.
function uriDecoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
