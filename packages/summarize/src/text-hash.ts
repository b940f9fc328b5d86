// Shared machinery: this folder is kept byte-identical in @ctxkit/tier-summary and @ctxkit/tier-trim,
// because a tier may not import another tier (DESIGN.md §2). tier-trim's span-summary-sync test
// fails when the copies drift. See docs/decisions/0007-summary-and-trim-tiers.md.

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
