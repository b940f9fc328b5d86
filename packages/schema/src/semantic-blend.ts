/** A copy of a vector scaled to length 1, or undefined for a missing, empty or all-zero vector. */
export function unitVector(vector: ArrayLike<number> | undefined, dimensions?: number): Float64Array | undefined {
  if (vector === undefined || vector.length === 0 || (dimensions !== undefined && vector.length !== dimensions)) return undefined;
  let norm = 0;
  for (let index = 0; index < vector.length; index++) norm += vector[index]! * vector[index]!;
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const scale = 1 / Math.sqrt(norm);
  const unit = new Float64Array(vector.length);
  for (let index = 0; index < vector.length; index++) unit[index] = vector[index]! * scale;
  return unit;
}

/**
 * Blends word-match scores with cosine similarity: each scaled to 0–1 over this search's candidates
 * (word match by its best score, similarity from its lowest to its highest), then added with the
 * similarity weighted. Every tool with a vector is a candidate, so a tool that shares no word with
 * the request can still rank; a tool scoring 0 on both is left out.
 */
export function blendScores(lexical: ReadonlyMap<number, number>, query: Float64Array, vectors: readonly (Float64Array | undefined)[], weight: number): { id: number; score: number }[] {
  let best = 0;
  for (const score of lexical.values()) best = Math.max(best, score);
  const similarity = new Map<number, number>();
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  vectors.forEach((vector, id) => {
    if (vector === undefined) return;
    let dot = 0;
    for (let index = 0; index < vector.length; index++) dot += vector[index]! * query[index]!;
    similarity.set(id, dot);
    low = Math.min(low, dot);
    high = Math.max(high, dot);
  });
  const spread = high - low;
  const ids = new Set([...lexical.keys(), ...similarity.keys()]);
  const blended: { id: number; score: number }[] = [];
  for (const id of ids) {
    const word = best > 0 ? (lexical.get(id) ?? 0) / best : 0;
    const meaning = similarity.has(id) && spread > 0 ? (similarity.get(id)! - low) / spread : 0;
    const score = word + weight * meaning;
    if (score > 0) blended.push({ id, score });
  }
  return blended;
}
