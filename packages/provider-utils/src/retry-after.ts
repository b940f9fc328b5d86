/** Milliseconds in one unit of a duration written as `644ms`, `9.8s`, `6m0s`, `60 seconds`. */
const unitMs: Record<string, number> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

/**
 * Parses a duration as rate-limit headers and messages write it: `20`, `0.5s`, `644ms`, `6m0s`,
 * `1h2m3.5s`, `60 seconds`. A bare number is seconds. Undefined when it is not a duration.
 * @example parseDuration('6m0s') // 360_000
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const unit = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|secs?|seconds?|s|mins?|minutes?|m|hours?|hr|h|days?|d)(?![a-z])/g;
  const parts = [...trimmed.matchAll(unit)];
  if (parts.length === 0) return undefined;
  const rest = trimmed.replace(unit, '').trim();
  if (rest !== '') return undefined;
  return Math.round(parts.reduce((total, [, amount, unit]) => total + Number(amount) * (unitMs[unit as string] ?? 0), 0));
}

/** Reads a header case-insensitively from a plain record or a Headers object. */
export function headerValue(headers: Headers | Record<string, string | undefined> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted && value !== undefined) return String(value);
  return undefined;
}

/**
 * How long the provider asks the caller to wait, from the headers (`retry-after-ms`, `retry-after` in
 * seconds or as an HTTP date) or the message (`try again in 644ms`, `retry after 60 seconds`, `please wait 30s`, a quota that
 * `will reset after 8h44m7s`, `"retryDelay": "36s"`). Undefined when neither says.
 */
export function retryAfterMs(headers: Headers | Record<string, string | undefined> | undefined, text = '', now = Date.now()): number | undefined {
  const milliseconds = headerValue(headers, 'retry-after-ms');
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Math.round(Number(milliseconds));
  const retryAfter = headerValue(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = parseDuration(retryAfter);
    if (seconds !== undefined) return seconds;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  // A quota may say when it comes back rather than when to retry: Azure API Management's "Quota will be replenished in 2.12
  // days." (decision 0064, a fifty-sixth set).
  const spoken =
    /(?:(?:try again|retry|resets?|(?:be )?(?:replenished|refilled))(?: in| after)|\bwait(?: for)?)\s+((?:\d+(?:\.\d+)?\s*(?:ms|milliseconds?|secs?|seconds?|s|mins?|minutes?|m|hours?|hr|h|days?|d)(?![a-z])\s*)+)/i.exec(
      text,
    );
  if (spoken?.[1]) return parseDuration(spoken[1]);
  const retryInfo = /retryDelay\W{1,6}(\d+(?:\.\d+)?s)/i.exec(text);
  if (retryInfo?.[1]) return parseDuration(retryInfo[1]);
  return undefined;
}
