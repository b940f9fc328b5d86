import fc from 'fast-check';
import { beforeEach } from 'vitest';

/** The seed CI uses when CTXKIT_FC_SEED is unset. */
export const ciSeed = 20_261_201;

/**
 * Seeds every fast-check property of the run, so a CI failure replays exactly. The seed comes from
 * `CTXKIT_FC_SEED` (a number, or `random`); without it CI runs (`CI` set) use a fixed seed and local
 * runs a fresh one, to keep exploring. A failing test prints the seed and the command that replays it.
 */
export const fastCheckSeed = pickSeed(process.env.CTXKIT_FC_SEED, Boolean(process.env.CI));

/** The seed for this run: the environment's number, a fixed one in CI, else a random one. */
export function pickSeed(fromEnv: string | undefined, inCi: boolean): number {
  const random = () => (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  if (fromEnv === undefined || fromEnv === '') return inCi ? ciSeed : random();
  if (fromEnv === 'random') return random();
  const seed = Number(fromEnv);
  if (!Number.isInteger(seed)) throw new Error(`[ctxkit:tools] CTXKIT_FC_SEED must be an integer or "random", got ${JSON.stringify(fromEnv)}`);
  return seed | 0;
}

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: fastCheckSeed });

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    console.error(`[ctxkit:tools] fast-check seed ${fastCheckSeed}: replay with CTXKIT_FC_SEED=${fastCheckSeed}`);
  });
});
