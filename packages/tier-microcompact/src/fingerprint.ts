/**
 * A 64-bit fingerprint of a text (two 32-bit FNV-1a passes with different offsets), as 16 hex digits.
 * Used to find an earlier archive of the same tool result; a collision is harmless because the
 * archived record is compared in full before its handle is reused.
 */
export function fingerprint(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x5bd1e995);
    high ^= high >>> 15;
  }
  return (low >>> 0).toString(16).padStart(8, '0') + (high >>> 0).toString(16).padStart(8, '0');
}
