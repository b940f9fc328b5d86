import { CtxkitError, type ContentPart, type Message, textOf } from '@ctxkit/core';
import { extractNames, forEachName } from '@ctxkit/summarize';

const quoted = /"([^"\n\\]{3,80})"|'([^'\n\\]{3,80})'|`([^`\n\\]{3,80})`/g;

/**
 * The retention names in one piece of text: the distinctive names of `@ctxkit/summarize`'s
 * `extractNames` (paths, file names, identifiers, dotted names, line numbers), and quoted phrases of
 * several words (prefixed `"`).
 */
export function retentionNames(text: string): Set<string> {
  const into = new Set(extractNames(text).keys());
  for (const match of text.matchAll(quoted)) {
    const inner = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (inner.length >= 3 && /\S\s+\S/.test(inner)) into.add(`"${inner}`);
  }
  return into;
}

/** The names of a text that are among `tracked` (quoted phrases left out: those are looked up in the text itself). */
function trackedNames(text: string, tracked: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  forEachName(text, (name) => {
    if (tracked.has(name)) found.add(name);
  });
  return found;
}

/** Every string value of a tool call's arguments (JSON text), keys left out; the raw text when it is not JSON. */
function argumentValues(argumentsText: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return [argumentsText];
  }
  const values: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number') values.push(String(value));
    else if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  walk(parsed);
  return values;
}

/** What a message says in text: its content, and for an assistant its tool calls' names and argument values. */
export function messageText(message: Message): string {
  const content = textOf(message.content as string | ContentPart[]);
  if (message.role !== 'assistant' || !message.toolCalls?.length) return content;
  return [content, ...message.toolCalls.flatMap((call) => [call.name, ...argumentValues(call.arguments)])].join('\n');
}

/** Retention of one replay: how much of what the agent used next the requests still held. */
export interface RetentionTally {
  /** Share of the names each next move took from earlier in the run that the request held verbatim. 1 when none were used. */
  retention: number;
  /** The same for names last seen more than `nearMessages` messages before the move. */
  farRetention: number;
  /** Names used, summed over steps (each name counted once a step). */
  namesUsed: number;
  namesHeld: number;
  farNamesUsed: number;
  farNamesHeld: number;
}

/** Options for {@link createRetentionTracker}. */
export interface RetentionOptions {
  /** Names whose last sighting is within this many messages of the move are "near"; the rest are "far". @default 4 */
  nearMessages?: number;
  /**
   * The moves `score` will be given, when known in advance (a replay of a recorded run): only the names
   * they use are then tracked, so memory follows what the moves can score instead of every name of the
   * run (a 40 MB base64 tool result holds about a million). Tallies are the same as without it.
   * `score` then throws for a move that uses a name none of these moves use.
   */
  moves?: readonly Message[];
}

/** The names (not quoted phrases) the moves use: all a tracker given the moves has to follow. */
function movesNames(moves: readonly Message[]): Set<string> {
  const names = new Set<string>();
  for (const move of moves) for (const name of retentionNames(messageText(move))) if (!name.startsWith('"')) names.add(name);
  return names;
}

/** @throws CtxkitError INVALID_ARGUMENT when a move uses a name the tracker was not told to follow */
function checkTracked(used: ReadonlySet<string>, tracked: ReadonlySet<string>): void {
  for (const name of used) {
    if (name.startsWith('"') || tracked.has(name)) continue;
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'retention',
      message: `score() got a move that uses ${JSON.stringify(name)}, which none of options.moves uses; pass every move that will be scored`,
    });
  }
}

/**
 * Measures retention along a replay. Feed it every recorded message in order with `observe`; at each
 * assistant step call `score(request, move)` before observing the move: the names of the move (its text
 * and tool-call argument values) that appeared earlier in the run, outside the system message, are the
 * names the agent took from its history, and each one counts as held when the request being sent has it
 * verbatim (as a whole token, or the quoted string as a substring).
 * @example
 * const tracker = createRetentionTracker();
 * for (const message of recorded) { if (message.role === 'assistant') tracker.score(request, message); tracker.observe(message); }
 * tracker.tally().farRetention
 */
export function createRetentionTracker(options: RetentionOptions = {}) {
  const nearMessages = options.nearMessages ?? 4;
  const tracked = options.moves ? movesNames(options.moves) : undefined;
  const lastSeen = new Map<string, number>();
  const observedTexts: string[] = [];
  const namesOf = new WeakMap<Message, Set<string>>();
  const textOfMessage = new WeakMap<Message, string>();
  const tally = { namesUsed: 0, namesHeld: 0, farNamesUsed: 0, farNamesHeld: 0 };
  let position = 0;

  const cachedText = (message: Message) => {
    let text = textOfMessage.get(message);
    if (text === undefined) {
      text = messageText(message);
      textOfMessage.set(message, text);
    }
    return text;
  };
  const cachedNames = (message: Message) => {
    let names = namesOf.get(message);
    if (!names) {
      names = tracked ? trackedNames(cachedText(message), tracked) : retentionNames(cachedText(message));
      namesOf.set(message, names);
    }
    return names;
  };
  /** Where a quoted string was last seen, scanning back from the newest message. */
  const lastSightingOf = (phrase: string): number | undefined => {
    for (let index = observedTexts.length - 1; index >= 0; index -= 1) if (observedTexts[index]!.includes(phrase)) return index;
    return undefined;
  };

  return {
    /** Adds a recorded message to the run's history (the system message is observed but never a source of names). */
    observe(message: Message): void {
      const index = position++;
      if (message.role === 'system') {
        observedTexts.push('');
        return;
      }
      observedTexts.push(cachedText(message));
      for (const name of cachedNames(message)) if (!name.startsWith('"')) lastSeen.set(name, index);
    },
    /** Scores one step: `request` is what is sent, `move` the recorded assistant message that follows it. */
    score(request: readonly Message[], move: Message): void {
      const used = retentionNames(messageText(move));
      if (tracked) checkTracked(used, tracked);
      for (const name of used) {
        const phrase = name.startsWith('"') ? name.slice(1) : undefined;
        const seenAt = phrase === undefined ? lastSeen.get(name) : lastSightingOf(phrase);
        if (seenAt === undefined) continue;
        const far = position - seenAt > nearMessages;
        const held = request.some((message) => (phrase === undefined ? cachedNames(message).has(name) : cachedText(message).includes(phrase)));
        tally.namesUsed += 1;
        if (held) tally.namesHeld += 1;
        if (far) {
          tally.farNamesUsed += 1;
          if (held) tally.farNamesHeld += 1;
        }
      }
    },
    tally(): RetentionTally {
      return {
        retention: tally.namesUsed === 0 ? 1 : tally.namesHeld / tally.namesUsed,
        farRetention: tally.farNamesUsed === 0 ? 1 : tally.farNamesHeld / tally.farNamesUsed,
        ...tally,
      };
    },
  };
}
