import { type Message, safeCutIndex, type TierOutcome, validateTranscript } from '@ctxkit/core';
import { appliedOutcome, approximateCount, checkTierOutput, runTierConformance, transcriptArbitrary } from '@ctxkit/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { browserRun, screenshotCount, tierContext } from './__fixtures__/browser-run.ts';
import { defaultImagePlaceholder, imageStripTier } from './image-strip-tier.ts';

const applied = (outcome: TierOutcome) => appliedOutcome(outcome).messages;

const imagesIn = (messages: readonly Message[]) =>
  messages.reduce((sum, message) => sum + (typeof message.content === 'string' ? 0 : message.content.filter((part) => part.type === 'image').length), 0);

runTierConformance(() => imageStripTier({ keepRecent: 0, minSavingsTokens: 0 }), { runs: 1000 });
runTierConformance(() => imageStripTier({ minSavingsTokens: 0 }), { runs: 1000 });

describe('imageStripTier on a browser run', () => {
  it('replaces old images in place with a line that says what they were, keeping the last three and the task', async () => {
    const messages = browserRun();
    const context = tierContext({ messages, protectedStart: 10 });
    const output = applied(await imageStripTier().apply(messages, context));

    expect(output[3]).toEqual({
      role: 'tool',
      toolCallId: 'call_1',
      toolName: 'screenshot',
      content: [
        { type: 'text', text: 'Screenshot of https://flights.example.com' },
        { type: 'text', text: '[image: screenshot, 2 of 3 in this turn, removed]' },
      ],
      meta: { ctxkit: { kind: 'placeholder', by: 'images', replaces: ['#3'] } },
    });
    expect(output[5]).toMatchObject({ id: 'click-result', content: [{ type: 'text', text: '[image: click, 3 of 3 in this turn, removed]' }], meta: { ctxkit: { replaces: ['click-result'] } } });
    expect(output[6]!.content).toEqual([
      { type: 'text', text: 'These are the two options my phone shows:' },
      { type: 'text', text: '[image: image/jpeg from the user, 1 of 3 in this turn, removed]' },
      { type: 'text', text: 'and' },
      (messages[6]!.content as unknown[])[3],
    ]);
    for (const index of [0, 1, 2, 4, 7, 8, 9, 10, 11, 12, 13]) expect(output[index]).toBe(messages[index]);
    expect(imagesIn(output)).toBe(4);
    expect(validateTranscript(output)).toEqual([]);
    expect(await checkTierOutput(messages, output, { protectedStart: 10, count: screenshotCount })).toEqual([]);
  });

  it('counts what it removed and what it freed', async () => {
    const outcome = await imageStripTier().apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10 }));
    expect(outcome).toMatchObject({ status: 'applied', detail: 'removed 3 images, kept 4, freed 3,561 tokens' });
    expect(screenshotCount(browserRun()) - screenshotCount(applied(outcome))).toBe(3_561);
  });

  it('removes every image outside the recent turns except the task with keepRecent 0', async () => {
    const messages = browserRun();
    const output = applied(await imageStripTier({ keepRecent: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 10 })));
    expect(output[8]!.content).toEqual([{ type: 'text', text: '[image: screenshot, 3 of 3 in this turn, removed]' }]);
    expect(output[1]).toBe(messages[1]);
    expect(output[12]).toBe(messages[12]);
    expect(imagesIn(output)).toBe(2);
  });

  it('does nothing a second time: placeholders are text', async () => {
    const tier = imageStripTier();
    const once = applied(await tier.apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10 })));
    expect(await tier.apply(once, tierContext({ messages: once, protectedStart: 10 }))).toEqual({
      status: 'skipped',
      reason: "no images to strip: none before the protected recent messages (from index 10) other than the task's and the last 3",
    });
  });

  it('does not mutate its input', async () => {
    const messages = browserRun();
    const before = JSON.stringify(messages);
    await imageStripTier({ keepRecent: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 10 }));
    expect(JSON.stringify(messages)).toBe(before);
  });
});

describe('when it skips', () => {
  it('skips below minSavingsTokens, with the reason', async () => {
    const outcome = await imageStripTier({ minSavingsTokens: 5_000 }).apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10 }));
    expect(outcome).toEqual({
      status: 'skipped',
      reason: 'removing 3 images would free only 3,561 tokens, below minSavingsTokens (5,000); left unchanged to keep the prompt cache',
    });
  });

  it('skips under a counter that prices images below their placeholder', async () => {
    const textOnly = (messages: readonly Message[]) => approximateCount(messages) - 85 * imagesIn(messages);
    const outcome = await imageStripTier({ minSavingsTokens: 0 }).apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10, count: textOnly }));
    expect(outcome).toEqual({ status: 'skipped', reason: 'placeholders would not be smaller than the 3 images by context.count (does it price images?)' });
  });

  it('at the default minimum, a few cheaply priced images are left alone', async () => {
    // approximateCount prices an image at 85 tokens (a low-detail image): three of them do not repay a cache miss.
    const outcome = await imageStripTier().apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10, count: approximateCount }));
    expect(outcome.status).toBe('skipped');
  });
});

describe('placeholders', () => {
  it('takes a fixed text or a function of the image', async () => {
    const fixed = applied(await imageStripTier({ placeholder: '[image removed]' }).apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10 })));
    expect(fixed[5]!.content).toEqual([{ type: 'text', text: '[image removed]' }]);
    const custom = applied(
      await imageStripTier({ placeholder: (image) => `[${image.mediaType} #${image.messageIndex}.${image.position}]` }).apply(
        browserRun(),
        tierContext({ messages: browserRun(), protectedStart: 10 }),
      ),
    );
    expect(custom[6]!.content).toMatchObject([{}, { type: 'text', text: '[image/jpeg #6.1]' }, {}, { type: 'image' }]);
  });

  it('fails, leaving the transcript as it was, when a placeholder function returns no text', async () => {
    const outcome = await imageStripTier({ placeholder: () => undefined as unknown as string }).apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10 }));
    expect(outcome).toEqual({ status: 'failed', reason: 'imageStripTier option placeholder must return text, got undefined' });
  });

  it('says what the image was: the tool, or the media type and sender, and a linked URL', () => {
    const base = { position: 1, imagesInTurn: 1, messageIndex: 4 };
    expect(defaultImagePlaceholder({ ...base, role: 'tool', toolName: 'screenshot', mediaType: 'image/png' })).toBe('[image: screenshot, removed]');
    expect(defaultImagePlaceholder({ ...base, role: 'tool', mediaType: 'image/png' })).toBe('[image: image/png tool output, removed]');
    expect(defaultImagePlaceholder({ ...base, role: 'user', mediaType: 'image/webp', url: 'https://example.com/chart.webp', position: 2, imagesInTurn: 3 })).toBe(
      '[image: image/webp from the user at https://example.com/chart.webp, 2 of 3 in this turn, removed]',
    );
    expect(defaultImagePlaceholder({ ...base, role: 'user', mediaType: 'image/png', url: 'data:image/png;base64,AAAA' })).toBe('[image: image/png from the user, removed]');
  });
});

describe('bad input', () => {
  it('rejects bad options at creation, naming the option', () => {
    expect(() => imageStripTier({ keepRecent: -2 })).toThrow('[ctxkit:tier-images] imageStripTier option keepRecent must be an integer ≥ 0, got -2');
    expect(() => imageStripTier({ placeholder: 42 as unknown as string })).toThrow(/placeholder must be a string or a function, got number/);
    expect(() => imageStripTier({ minSavingsTokens: 0.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('[ctxkit:tier-images] imageStripTier option minSavingsTokens') }),
    );
  });

  it('fails when the run was aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await imageStripTier().apply(browserRun(), tierContext({ messages: browserRun(), protectedStart: 10, signal: controller.signal }));
    expect(outcome).toMatchObject({ status: 'failed', reason: 'aborted before it started' });
  });
});

describe('on generated transcripts', () => {
  it('changes nothing but image parts, each into one text part in its place', async () => {
    let strippedSome = 0;
    await fc.assert(
      fc.asyncProperty(transcriptArbitrary(), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 3 }), async (messages, cut, keepRecent) => {
        const protectedStart = Math.max(messages[0]?.role === 'system' ? 1 : 0, safeCutIndex(messages, Math.floor(cut * messages.length)));
        const outcome = await imageStripTier({ keepRecent, minSavingsTokens: 0 }).apply(messages, tierContext({ messages: messages, protectedStart }));
        if (outcome.status !== 'applied') return;
        strippedSome += 1;
        expect(outcome.messages.length).toBe(messages.length);
        outcome.messages.forEach((message, index) => {
          const original = messages[index]!;
          if (message === original) return;
          expect(index).toBeLessThan(protectedStart);
          const { content: _after, meta: _meta, ...restAfter } = message;
          const { content: _before, meta: _originalMeta, ...restBefore } = original;
          expect(restAfter).toEqual(restBefore);
          const before = original.content as unknown[];
          const after = message.content as { type: string }[];
          expect(after.length).toBe(before.length);
          after.forEach((part, partIndex) => {
            if (part !== before[partIndex]) expect([(before[partIndex] as { type: string }).type, part.type]).toEqual(['image', 'text']);
          });
        });
        expect(imagesIn(outcome.messages)).toBeGreaterThanOrEqual(Math.min(keepRecent, imagesIn(messages)));
      }),
      { numRuns: 500 },
    );
    expect(strippedSome).toBeGreaterThan(5);
  });
});

describe('imageStripTier: input that is not a transcript', () => {
  it('fails with a reason naming what is wrong instead of throwing a TypeError', async () => {
    const tier = imageStripTier();
    const outcome = await tier.apply(null as unknown as Message[], tierContext({ protectedStart: 0 }));
    expect(outcome).toEqual({ status: 'failed', reason: 'messages must be an array of messages, got null' });
    const withNull = [{ role: 'user', content: 'look' }, null] as unknown as Message[];
    expect(await tier.apply(withNull, tierContext({ protectedStart: 1, messages: [] }))).toEqual({
      status: 'failed',
      reason: 'message 1: must be a message object with a string role, got null',
    });
  });
});
