import type { ToolMessage } from '@ctxkit/core';
import { digestOutput, type StubDetailOptions, type StubDigest } from './stub-digest.ts';

/** A result's stub digest, computed once per message object. */
export type DigestOf = (message: ToolMessage, text: string, detail: StubDetailOptions) => StubDigest;

/**
 * A digest cache keyed by message object: a host prepares the same message objects again at every
 * compaction, so a result's output is read once, not at every compaction.
 */
export function createDigestCache(): DigestOf {
  const digests = new WeakMap<object, StubDigest>();
  return (message, text, detail) => {
    let digest = digests.get(message);
    if (!digest) {
      digest = digestOutput(text, detail);
      digests.set(message, digest);
    }
    return digest;
  };
}
