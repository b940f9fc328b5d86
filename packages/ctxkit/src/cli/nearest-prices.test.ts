import { describe, expect, it } from 'vitest';
import { nearestPrices } from './nearest-prices.ts';

describe('nearestPrices', () => {
  it('prices a model the catalog lists as itself', () => {
    expect(nearestPrices('gpt-4o')).toEqual({ pricedAs: 'gpt-4o', prices: expect.objectContaining({ input: 2.5, output: 10 }) });
  });

  it('prices a newer release the pinned catalog lacks as the nearest entry of its family', () => {
    expect(nearestPrices('claude-sonnet-4-5')).toMatchObject({ pricedAs: 'claude-sonnet-4-20250514', prices: { input: 3, output: 15 } });
    expect(nearestPrices('anthropic:claude-sonnet-4-5')?.pricedAs).toBe('claude-sonnet-4-20250514');
  });

  it('gives nothing for a model that shares no family with any entry', () => {
    expect(nearestPrices('acme-1')).toBeUndefined();
    expect(nearestPrices('gemini-9')).toBeUndefined();
  });
});
