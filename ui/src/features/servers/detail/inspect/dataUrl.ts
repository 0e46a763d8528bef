// Builds a data: URL for image bytes a server sent, only when the MIME type is an image type and the payload is
// plain base64, so nothing else can smuggle itself into an <img src>.

const IMAGE_MIME = /^image\/[a-z0-9][a-z0-9.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A `data:` URL for `base64` as `mime`, or null when `mime` is not image/* or the payload is not base64. */
export function imageDataUrl(mime: string | null, base64: string): string | null {
  if (mime === null || !IMAGE_MIME.test(mime.trim())) return null;
  const compact = base64.replace(/\s+/g, "");
  if (!BASE64.test(compact)) return null;
  return `data:${mime.trim().toLowerCase()};base64,${compact}`;
}
