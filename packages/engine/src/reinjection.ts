import type { Message, ReinjectionBlock, ReinjectionSourcePlugin } from '@ctxkit/core';
import type { ReinjectedBlock } from './events.ts';

/** The marker that starts a reinjected message, so a model (and a later compaction) can tell it apart. */
export const reinjectionHeader = '[ctxkit: restored after a compaction; the earlier conversation was summarized above]';

interface Collected {
  source: string;
  block: ReinjectionBlock;
  tokens: number;
}

/**
 * The largest size every block may keep so that all fit in the budget, cutting the largest first
 * (water-filling): blocks under the cap stay whole.
 */
export function fairCap(sizes: readonly number[], budget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = budget;
  for (let index = 0; index < sorted.length; index++) {
    const share = remaining / (sorted.length - index);
    if (sorted[index]! > share) return Math.max(0, Math.floor(share));
    remaining -= sorted[index]!;
  }
  return Number.POSITIVE_INFINITY;
}

function cutText(text: string, tokens: number, cap: number): string {
  if (tokens <= cap) return text;
  const keep = Math.max(0, Math.floor((text.length * cap) / tokens) - 60);
  return `${text.slice(0, keep)}\n[... cut to fit the reinjection budget]`;
}

/** What {@link collectReinjection} found. */
export interface ReinjectionResult {
  message?: Message;
  blocks: ReinjectedBlock[];
  failures: { source: string; reason: string }[];
}

/**
 * Asks every source for its blocks, cuts the largest first until all fit in `budgetTokens`, and builds
 * one user message that carries them (meta.ctxkit.kind 'reinjected'). A failing source is reported, not fatal.
 */
export async function collectReinjection(
  sources: readonly ReinjectionSourcePlugin[],
  context: { original: readonly Message[]; compacted: readonly Message[]; budgetTokens: number; countText(text: string): number; signal: AbortSignal },
): Promise<ReinjectionResult> {
  const collected: Collected[] = [];
  const failures: ReinjectionResult['failures'] = [];
  for (const source of sources) {
    try {
      const result = await source.collect({ ...context, budgetTokens: context.budgetTokens });
      const blocks = result === undefined ? [] : Array.isArray(result) ? result : [result as ReinjectionBlock];
      for (const block of blocks) {
        if (block.text.trim() !== '') collected.push({ source: source.id, block, tokens: context.countText(`## ${block.title}\n${block.text}`) });
      }
    } catch (error) {
      failures.push({ source: source.id, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  if (collected.length === 0) return { blocks: [], failures };
  const cap = fairCap(
    collected.map((entry) => entry.tokens),
    context.budgetTokens,
  );
  const parts = collected.map((entry) => `## ${entry.block.title}\n${cutText(entry.block.text, entry.tokens, cap)}`);
  const blocks = collected.map((entry) => ({ source: entry.source, title: entry.block.title, tokens: Math.min(entry.tokens, cap), cut: entry.tokens > cap }));
  return {
    message: { role: 'user', content: `${reinjectionHeader}\n\n${parts.join('\n\n')}`, meta: { ctxkit: { kind: 'reinjected', by: 'engine' } } },
    blocks,
    failures,
  };
}
