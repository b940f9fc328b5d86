import { describe, expect, it } from 'vitest';
import { createCompactionDepth } from './compaction-depth.ts';

describe('createCompactionDepth', () => {
  it("aims at the policy's target before the run has grown a step", () => {
    expect(createCompactionDepth().target(16_000, 9_600)).toBe(9_600);
  });

  it('leaves room for stepsAhead steps of the median growth, within the policy target and maxShare of the threshold', () => {
    const depth = createCompactionDepth({ stepsAhead: 8, maxShare: 0.8 });
    for (const tokens of [1_000, 1_200, 1_400, 1_700, 1_900, 2_100]) depth.observe(tokens); // growth 200, 200, 300, 200, 200: median 200
    expect(depth.target(16_000, 9_600)).toBe(12_800); // 16,000 − 8 × 200 = 14,400, capped at 80% of the threshold
    expect(createCompactionDepthWith([500, 500, 500]).target(16_000, 9_600)).toBe(12_000); // 16,000 − 8 × 500
    expect(createCompactionDepthWith([2_000, 2_000, 2_000]).target(16_000, 9_600)).toBe(9_600); // never deeper than the policy's target
  });

  it('leaves room for the largest recent step, so one large tool result does not bring the threshold back at once', () => {
    expect(createCompactionDepthWith([100, 100, 5_000, 100, 100]).target(16_000, 9_600)).toBe(11_000);
  });

  it('counts growth from where a compaction left the transcript, not across it', () => {
    const depth = createCompactionDepth();
    depth.observe(10_000);
    depth.observe(16_500);
    depth.compacted(11_000);
    depth.observe(11_300);
    // Growth seen: 6,500 and 300; the fall from 16,500 to 11,300 is not growth.
    expect(depth.target(16_000, 9_600)).toBe(9_600);
    const fresh = createCompactionDepth();
    fresh.observe(16_500);
    fresh.compacted(11_000);
    fresh.observe(11_300);
    expect(fresh.target(16_000, 9_600)).toBe(12_800);
  });
});

function createCompactionDepthWith(steps: number[]) {
  const depth = createCompactionDepth();
  let tokens = 1_000;
  depth.observe(tokens);
  for (const step of steps) {
    tokens += step;
    depth.observe(tokens);
  }
  return depth;
}
