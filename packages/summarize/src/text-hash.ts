/**
 * FNV-1a over UTF-16 code units, as 8 hex digits: a short, stable fingerprint of a text.
 * Not a security hash; used for data boundaries and message ids.
 */
export function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
