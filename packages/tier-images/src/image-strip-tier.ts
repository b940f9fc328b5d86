import { type ContentPart, CtxkitError, type Message, messageKey, messageListProblem, segmentTurns, type TierOutcome, type TierPlugin } from '@ctxkit/core';

const source = 'tier-images';

/** One image the tier removes: what a custom placeholder is written from. */
export interface StrippedImage {
  /** The role of the message it was in. */
  role: 'user' | 'assistant' | 'tool';
  /** The tool that returned it, for images in tool results. */
  toolName?: string;
  /** `image/png`, `image/jpeg`, ... */
  mediaType: string;
  /** The image's URL when it was given by URL (not inline data). */
  url?: string;
  /** Its position among the images of its turn, from 1. */
  position: number;
  /** How many images its turn has. */
  imagesInTurn: number;
  /** The index of its message in the tier's input. */
  messageIndex: number;
}

/** Options for {@link imageStripTier}. */
export interface ImageStripOptions {
  /**
   * The most recent images that stay, counted over the whole transcript (those in the protected recent
   * turns included): the model keeps its latest view of the screen or page.
   * @default 3
   */
  keepRecent?: number;
  /**
   * Do nothing unless removing images frees at least this many tokens: each compaction loses the prompt
   * cache behind the first change, which a few tokens do not repay.
   * @default 500
   */
  minSavingsTokens?: number;
  /** The text that stands for a removed image: a fixed text, or a function of the image. @default defaultImagePlaceholder */
  placeholder?: string | ((image: StrippedImage) => string);
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `imageStripTier option ${name} must be an integer ≥ 0, got ${String(value)}` });
  }
}

function groupDigits(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The default placeholder: `[image: screenshot, 1 of 3 in this turn, removed]`. It names the tool that
 * returned the image, or its media type and who sent it, and its URL when it was linked rather than inline.
 */
export function defaultImagePlaceholder(image: StrippedImage): string {
  let what = image.role === 'tool' ? (image.toolName ?? `${image.mediaType} tool output`) : `${image.mediaType} from the ${image.role}`;
  if (image.url !== undefined && /^https?:\/\//.test(image.url) && image.url.length <= 120) what += ` at ${image.url}`;
  const where = image.imagesInTurn > 1 ? `, ${image.position} of ${image.imagesInTurn} in this turn` : '';
  return `[image: ${what}${where}, removed]`;
}

/**
 * Image stripping: image parts outside the protected recent turns (in user, assistant and tool messages)
 * become a one-line text part, such as `[image: screenshot, 1 of 3 in this turn, removed]`, in place.
 * The most recent `keepRecent` images and the task's images (the first user message) stay.
 *
 * When to use: computer-use and browser agents, and chats with pasted screenshots, where each image costs
 * hundreds to thousands of tokens long after the model has acted on it.
 *
 * Gotchas: removed images are not archived (the placeholder is the trace); an image the model must keep
 * seeing belongs in the task or the recent turns. It relies on `context.count` pricing images: with a
 * counter that counts them as nothing, nothing shrinks and the tier skips, saying so.
 * @default keepRecent 3, minSavingsTokens 500
 * @throws CtxkitError INVALID_ARGUMENT for a bad option (at creation, not during a run)
 * @example
 * ```ts
 * const registry = createRegistry([microcompactTier(), imageStripTier({ keepRecent: 1 }), trimTier()]);
 * ```
 */
export function imageStripTier(options: ImageStripOptions = {}): TierPlugin<'images'> {
  const { keepRecent = 3, minSavingsTokens = 500, placeholder = defaultImagePlaceholder } = options;
  checkCount('keepRecent', keepRecent);
  checkCount('minSavingsTokens', minSavingsTokens);
  if (typeof placeholder !== 'string' && typeof placeholder !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `imageStripTier option placeholder must be a string or a function, got ${typeof placeholder}` });
  }
  const write = typeof placeholder === 'string' ? () => placeholder : placeholder;

  return {
    specificationVersion: 'v1',
    kind: 'tier',
    id: 'images',
    category: 'structural',
    async apply(messages, context): Promise<TierOutcome> {
      const { protectedStart } = context;
      const problem = messageListProblem(messages);
      if (problem !== undefined) return { status: 'failed', reason: problem };
      if (typeof protectedStart !== 'number' || Number.isNaN(protectedStart)) {
        return { status: 'failed', reason: `context.protectedStart must be a message index, got ${String(protectedStart)}` };
      }
      if (context.signal.aborted) return { status: 'failed', reason: 'aborted before it started', error: context.signal.reason };
      const end = Math.min(Math.max(0, Math.floor(protectedStart)), messages.length);
      const task = messages.findIndex((message) => message.role === 'user');

      // Every image in order, with its turn, so placeholders can say "2 of 3 in this turn".
      const images: { messageIndex: number; partIndex: number; turn: number }[] = [];
      const imagesInTurn: number[] = [];
      segmentTurns(messages).forEach((turn, turnIndex) => {
        imagesInTurn[turnIndex] = 0;
        for (let index = turn.start; index < turn.end; index++) {
          const content = messages[index]!.content;
          if (typeof content === 'string') continue;
          content.forEach((part, partIndex) => {
            if (part.type !== 'image') return;
            images.push({ messageIndex: index, partIndex, turn: turnIndex });
            imagesInTurn[turnIndex]! += 1;
          });
        }
      });
      const kept = keepRecent === 0 ? [] : images.slice(-keepRecent);
      const removable = images.filter((image) => image.messageIndex < end && image.messageIndex !== task && !kept.includes(image));
      if (removable.length === 0) {
        return { status: 'skipped', reason: `no images to strip: none before the protected recent messages (from index ${end}) other than the task's and the last ${keepRecent}` };
      }

      const positionInTurn = new Map<(typeof images)[number], number>();
      const seenInTurn: number[] = [];
      for (const image of images) {
        seenInTurn[image.turn] = (seenInTurn[image.turn] ?? 0) + 1;
        positionInTurn.set(image, seenInTurn[image.turn]!);
      }

      const output = messages.slice();
      let removed = 0;
      const byMessage = new Map<number, typeof removable>();
      for (const image of removable) byMessage.set(image.messageIndex, [...(byMessage.get(image.messageIndex) ?? []), image]);
      for (const [messageIndex, group] of byMessage) {
        const original = messages[messageIndex] as Exclude<Message, { role: 'system' }>;
        const parts = (original.content as ContentPart[]).slice();
        for (const image of group) {
          const part = parts[image.partIndex] as Extract<ContentPart, { type: 'image' }>;
          const text = write({
            role: original.role,
            ...(original.role === 'tool' && original.toolName !== undefined ? { toolName: original.toolName } : {}),
            mediaType: part.mediaType,
            ...(part.url === undefined ? {} : { url: part.url }),
            position: positionInTurn.get(image)!,
            imagesInTurn: imagesInTurn[image.turn]!,
            messageIndex,
          });
          if (typeof text !== 'string') {
            return { status: 'failed', reason: `imageStripTier option placeholder must return text, got ${typeof text}` };
          }
          parts[image.partIndex] = { type: 'text', text };
        }
        const rewritten = {
          ...original,
          content: parts,
          meta: { ...original.meta, ctxkit: { kind: 'placeholder', by: 'images', replaces: [messageKey(original, messageIndex)] } },
        } as Message;
        // A counter that prices images below their placeholder would make the message larger: keep it.
        if (context.count([rewritten]) >= context.count([original])) continue;
        output[messageIndex] = rewritten;
        removed += group.length;
      }
      if (removed === 0) {
        return { status: 'skipped', reason: `placeholders would not be smaller than the ${removable.length} images by context.count (does it price images?)` };
      }
      const before = context.currentTokens;
      const after = context.count(output);
      const freed = before - after;
      if (freed <= 0) return { status: 'skipped', reason: `placeholders would not shrink the transcript (${groupDigits(before)} → ${groupDigits(after)} tokens)` };
      if (freed < minSavingsTokens) {
        return {
          status: 'skipped',
          reason: `removing ${removed} image${removed === 1 ? '' : 's'} would free only ${groupDigits(freed)} tokens, below minSavingsTokens (${groupDigits(minSavingsTokens)}); left unchanged to keep the prompt cache`,
        };
      }
      const keptNote = images.length - removed > 0 ? `, kept ${images.length - removed}` : '';
      return {
        status: 'applied',
        messages: output,
        tokens: after,
        detail: `removed ${removed} image${removed === 1 ? '' : 's'}${keptNote}, freed ${groupDigits(freed)} tokens`,
      };
    },
  };
}
