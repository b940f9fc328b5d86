// @ctxkit/threshold README: thresholds for a few windows, the budget policy, the compaction state.
import { budgetPolicy, compactionThreshold, createCompactionState, thresholdBreakdown } from '@ctxkit/threshold';
import { assert, done } from './_support.mjs';

assert.equal(compactionThreshold(200_000), 100_000);
assert.equal(compactionThreshold(2_000_000), 128_000);
assert.equal(compactionThreshold(272_000, 256_000), 128_000);
assert.equal(compactionThreshold(4_096), 2_048);
assert.equal(thresholdBreakdown(32_000).reason, '50% of the 32,000 window, with 8,192 tokens still free for the answer (default reserve)');
assert.equal(budgetPolicy().decide({ contextWindow: 200_000, maxOutputTokens: 0 }).threshold, 96_000);

const state = createCompactionState();
state.observe(120_000, 100_000);
assert.equal(state.canCompact(120_000), true);
state.recordAttempt(120_000, 70_000);
assert.equal(state.snapshot().attempts, 1);
assert.equal(state.snapshot().successes, 1);
assert.equal(state.snapshot().open, false);
done('thresholds 100000/128000/128000/2048, budget 96000, breaker closed after 1 success');
