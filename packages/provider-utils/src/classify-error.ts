import { CtxkitError, type ErrorClassification, type ProviderErrorKind } from '@ctxkit/core';
import { isOfflineCode, networkErrorCode } from './http.ts';
import { type ProviderCallFailure, ProviderCallError } from './provider-call-error.ts';
import { retryAfterMs } from './retry-after.ts';

/** An error classification with what the fallback chain and the logs need besides the core fields. */
export interface ProviderErrorClassification extends ErrorClassification {
  /** True where waiting `retryAfterMs` and sending the same request to the same model can succeed. */
  retryable: boolean;
  /** The HTTP status, when there was one. */
  status?: number;
  /** The provider named by the error or by the classifier. */
  provider?: string;
}

/** A provider error as plain data: what `classifyError` accepts besides an Error or a fetch Response. */
export interface ProviderErrorDetails {
  status?: number;
  /** The response body: text as received, or parsed JSON. */
  body?: unknown;
  headers?: Headers | Record<string, string | undefined>;
  provider?: string;
  message?: string;
}

/** What the classifier reads from any error shape: status, one flat text, headers, network facts. */
export interface NormalizedError {
  status?: number;
  /** Every message and body text found, unescaped and on one line. */
  text: string;
  headers?: Headers | Record<string, string | undefined>;
  provider?: string;
  failure?: ProviderCallFailure;
  /** A Node network code found in the cause chain (`ECONNREFUSED`). */
  networkCode?: string;
  /** The error's `name` (`AbortError`, `TimeoutError`). */
  name?: string;
}

/**
 * A provider-specific rule, run before the shared families; returns the kind (and anything else it
 * knows) or undefined to let the shared families decide.
 */
export type ClassifierRule = (error: NormalizedError) => (Partial<ProviderErrorClassification> & { kind: ProviderErrorKind }) | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asStatus(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 100 && number <= 599 ? number : undefined;
}

function textOfValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * Bodies arrive JSON-in-JSON, as Python reprs or escaped in logs: flatten them so one pattern fits all. Thousands
 * separators go from every group of a figure ("5,958,968 tokens"; decision 0064, a thirty-ninth set).
 */
function flatten(text: string): string {
  return text
    .replace(/\\+n/g, ' ')
    .replace(/\\+(["'`])/g, '$1')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Reads the status, text, headers and network facts out of anything a provider call can throw: a
 * ProviderCallError, an SDK error (`status`, `statusCode`, `responseBody`, `error`, `headers`), a fetch
 * Response, `{ status, body, headers, provider }`, a response body or stream event, or a string.
 */
export function normalizeError(error: unknown, provider?: string): NormalizedError {
  const texts: string[] = [];
  const result: NormalizedError = { text: '' };
  if (provider) result.provider = provider;
  if (ProviderCallError.isInstance(error)) {
    result.failure = error.failure;
    if (error.status !== undefined) result.status = error.status;
    result.headers = error.headers;
    result.provider = provider ?? error.provider;
    texts.push(error.body ?? '', error.message);
  } else if (typeof Response !== 'undefined' && error instanceof Response) {
    result.status = error.status;
    result.headers = error.headers as Headers;
    texts.push(error.statusText);
  } else if (typeof error === 'string') {
    texts.push(error);
  } else if (isRecord(error) || error instanceof Error) {
    const record = error as Record<string, unknown>;
    const response = isRecord(record.response) ? record.response : undefined;
    // AWS SDK v3 errors carry the status in `$metadata.httpStatusCode`.
    const awsMetadata = isRecord(record.$metadata) ? record.$metadata : undefined;
    const status = asStatus(record.status) ?? asStatus(record.statusCode) ?? asStatus(response?.status) ?? asStatus(awsMetadata?.httpStatusCode);
    if (status !== undefined) result.status = status;
    const headers = record.headers ?? record.responseHeaders ?? response?.headers;
    if (isRecord(headers) || (typeof Headers !== 'undefined' && headers instanceof Headers)) result.headers = headers as Headers | Record<string, string | undefined>;
    if (typeof record.provider === 'string' && !result.provider) result.provider = record.provider;
    if (CtxkitError.isInstance(error, 'TIMEOUT')) result.failure = 'timeout';
    else if (CtxkitError.isInstance(error, 'ABORTED')) result.failure = 'aborted';
    if (error instanceof Error) {
      result.name = error.name;
      texts.push(error.message);
      const code = networkErrorCode(error);
      if (code) result.networkCode = code;
      // Wrappers (a retry error, an SDK error) keep the provider's words in the cause.
      let cause: unknown = error.cause;
      for (let depth = 0; depth < 3 && cause instanceof Error; depth++, cause = cause.cause) {
        texts.push(cause.message);
        if (ProviderCallError.isInstance(cause)) {
          texts.push(cause.body ?? '');
          if (result.status === undefined && cause.status !== undefined) result.status = cause.status;
          if (result.headers === undefined) result.headers = cause.headers;
          result.failure ??= cause.failure;
        }
      }
      for (const field of ['body', 'responseBody', 'error', 'data'] as const) texts.push(textOfValue(record[field]));
      texts.push(textOfValue(response?.data));
    } else {
      const keys = Object.keys(record);
      const isDetails = keys.length > 0 && keys.every((key) => ['status', 'statusCode', 'body', 'headers', 'provider', 'message'].includes(key));
      texts.push(isDetails ? `${textOfValue(record.message)} ${textOfValue(record.body)}` : textOfValue(record));
    }
  } else if (error !== undefined && error !== null) {
    texts.push(String(error));
  }
  result.text = flatten(texts.filter(Boolean).join(' | '));
  return result;
}

const number = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));

function firstNumber(text: string, patterns: readonly RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

/** Waits longer than this (15 minutes) mark a rate limit as not retryable: it is a quota, not a burst. */
const longestSensibleWaitMs = 15 * 60_000;

// ---- families, in the order they are tried ----

// An account out of money: credits spent, a spending limit reached, a key's monthly cap (decision 0056); a gateway's
// "not enough balance" (and its NOT_ENOUGH_BALANCE code) in either word order (decision 0064, a twenty-first set); LiteLLM's proxy
// naming whose budget ran out ("ExceededTokenBudget", "ExceededTeamBudget") or stating spend against a max budget
// ("Current spend for token: 5.21; Max Budget for Token: 5.0"; decision 0064, a twenty-second set); an account that has
// "run out of funds" or is told to "top up your balance", and a credit balance named exhausted, as a code too
// ("credit_balance_exhausted"; decision 0064, a twenty-third set). A free plan's usage limit may name the product between
// "free" and "usage limit" ("your free Grok Build usage limit"; decision 0064, a forty-fourth set). A free allocation or
// allowance used up ("Free AI allocation of 10,000 neurons exhausted", Workers AI), a relay's pre-deduction that failed for want
// of quota (new-api's 预扣费额度失败, `pre_consume_quota_failed`), count too; a free tier's limits said to "apply" state the
// tier's rate, not a spent allowance (Replicate; decision 0064, a forty-seventh set). Free memory, a buffer or a disk
// allocated is the machine's, not an allowance ("free memory allocation failed: pool exhausted"; decision 0100).
const outOfCredit =
  /(?:out of|used all (?:available )?|more|no remaining) credits|\b(?:run|ran|running) out of (?:funds|balance|money)\b|\btop up (?:your |the )?(?:balance|account)\b|\bcredit[_ ]balance[_ ](?:is[_ ])?(?:exhausted|depleted|used[_ ]up|empty)\b|credits? (?:are |is )?(?:required|exhausted|depleted)|(?:balance|credits?|funds) (?:is |are )?(?:insufficient|too low)|spend(?:ing)? limit|(?:does(?:n't| not)|do(?:n't| not)) have (?:any |enough |sufficient )?(?:credits?|balance|funds)\b|\bnot[_ ]enough[_ ](?:account[_ ])?(?:balance|credits?|funds)\b|\b(?:balance|credits?|funds)[_ ](?:is[_ ]|are[_ ])?not[_ ]enough\b|(?:key|account) with a higher (?:monthly )?limit|\bkey limit (?:exceeded|reached)\b|higher monthly limit|billing[ _]hard[ _]limit|\bbilling (?:account )?(?:is )?(?:not active|inactive|disabled|closed)\b|\bbilling (?:is )?not enabled\b|\brequires billing to be enabled\b|payment required|\barrearage\b|\bin arrears\b|\boverdue (?:balance|bill|payment)\b|(?:balance|bill) (?:is )?overdue|\boverdue-payment\b|account (?:is )?in good standing|free[- ]tier (?:limit|quota)(?!s? appl(?:y|ies)\b)|\bfree[- ]tier\b[^.]{0,30}?\b(?:exhausted|used up|depleted)\b|\bfree (?:(?:allocated|usage|trial) |(?:[\w.-]+ ){1,3}usage )?(?:limit|quota)\b|\bfree (?:(?!(?:memory|heap|buffer|page|gpu|vram|disk)\b)[\w.-]+ ){0,2}(?:allocation|allowance)\b[^.]{0,40}?\b(?:exhausted|used up|depleted|spent)\b|免费(?:使用)?额度|\bover (?:its |their |your |the )?budget\b|\bexceeded ?(?:(?:token|key|user|team|end ?user|customer|org(?:anization)?) ?)?budget\b|\bcurrent (?:spend|cost)\b[^\n]{0,60}?\bmax budget\b|(?<!token )\bbudget (?:has been |is |was )?(?:exhausted|exceeded|spent|depleted|used up)\b|\b(?:set|configured) (?:inference|spending|usage) limit\b|\b(?:model|service|endpoint) (?:service )?(?:has been|is|was) paused\b|\b(?:depleted|exhausted|used up)\s+(?:all\s+(?:of\s+)?)?(?:your|the|its|their)\s+(?:[\w-]+\s+){0,2}?credits?\b|\bremain_?quota\s*[=:]\s*0\b|\b(?:token|quota|credit|balance) amount (?:has been |is |was )?(?:exhausted|used up|depleted)\b|余额不足|(?:配额|额度)不足|欠费|预扣费(?:额度)?失败|\bpre_?consume_?quota_?failed\b/;
// A period's or a plan's allowance used up (Z.ai's "Weekly Limit Exhausted"): a quota, not a burst. A window named by its
// length ("5-hour limit reached"), or a limit reached with the time it resets ("limit reached; resets at 12pm"), is one too
// (decision 0064, a twenty-fourth set).
const periodLimitExhausted =
  /\b(?:hourly|daily|weekly|monthly|usage|plan) limit (?:exhausted|used up|depleted)\b|\b\d+[- ]?(?:hours?|days?|weeks?) (?:usage |rate |plan )?limit (?:reached|hit|exceeded|exhausted)\b|\blimit (?:reached|hit|exceeded)\b[^.]{0,20}?\bresets? (?:at|in|on)\b/;
// A plan's usage cap reached, in Chinese relays' words ("已达到套餐用量上限", "额度已用尽"): a quota that waiting does not
// restore (decision 0064, a thirty-sixth set).
// The cap may follow the verb ("AppId:**wP34 达到使用量上限", LongCat through the AI SDK: reached the usage cap; decision 0064, a
// fifty-sixth set); a usage amount, allowance or quota must name it, so a context length's cap (上下文长度达到上限) is not one.
const planCapChinese = /套餐[^。，,]{0,8}上限|(?:用量|额度)(?:已)?(?:用尽|耗尽|达到上限)|(?:达到|超过|超出)了?(?:使用量|用量|额度|配额)(?:的)?上限/;
// Credits, points or an allowance said to be used up, in Chinese relays' words ("本月积分已用完": this month's credits are used
// up, an SSE error event): a quota that waiting does not restore. The thing used up must be a credit or an allowance, so
// memory or a context window used up (内存已耗尽, 上下文已用完) is not one (decision 0064, a sixty-fifth set).
const creditsUsedUpChinese = /(?:积分|点数|额度|余额|配额|次数|令牌数)(?:已经?|都|全部)?(?:用完|用尽|耗尽|用光)/;
// Groq counts more than tokens and requests: "seconds of audio per day (ASPD)". A quantity per period named by its
// abbreviation is a rate limit or a quota (decision 0064, a thirty-sixth set).
const perPeriodAbbreviated = /\bper (?:min|minute|hour|day) \([A-Z]{2,5}\)/;
// A cap on requests in flight reached ("request reached max organization concurrency: 1", Kimi): a rate limit that clears
// when an earlier request ends (decision 0064, a forty-sixth set).
const concurrencyCap = /\b(?:reached|exceeded|hit|over) (?:the |your )?(?:max(?:imum)? )?(?:\w+ )?concurrency(?: limit)?\b(?! retries)|\bconcurrency limit (?:exceeded|reached)\b/;
// DashScope's allocation-quota codes, which may come alone in a 403 body (`{"error":{"code":"AllocationQuota.FreeTierOnly"}}`)
// or as `Throttling.AllocationQuota`: the code names the quota, though no word boundary sets "Quota" apart (decision 0064,
// a fifty-fourth set).
// A subscription plan's token allowance used up, said of the plan itself: MiniMax's code 2056 "Token Plan exceeded", a
// coding or subscription plan "exhausted" (decision 0064, a fifty-seventh set). A quota that waiting a moment does not restore.
const planAllowanceUsedUp = /\b(?:token|coding|subscription|usage) plan(?:'s)? (?:(?:usage|quota|limit|allowance) )?(?:(?:has been|is|was) )?(?:exceeded|exhausted|used up|depleted|reached)\b/;
// An upstream's HTTP 402 named inside a wrapper's body ("kiro API error (500 ...): ... HTTP 402 from Kiro IDE: You have
// reached the limit."): payment required, whatever status the wrapper answers with (decision 0064, a fifty-seventh set).
const wrappedPaymentRequired = /\bHTTP(?:\/[\d.]+)?\s+402\b(?!\s*(?:tokens?|bytes|characters|chars|ms|s)\b)/;
// A rolling usage window named by its length ("5-hour usage limit reached. Resets in 13min."): the length is the window's, not a
// daily quota's, so where the window's own reset is stated, that wait decides (decision 0064, a fifty-ninth set).
const usageWindowLength = /\b\d+[- ]?hours? (?:usage |rate |request |token )?(?:limit|window)\b/gi;
const windowResetStated = /\bresets? (?:in|after)\s+\d/i;
// A usage limit reached, in any tense ("The usage limit has been reached", Codex under 429): a plan's allowance counted over
// hours or longer, not a burst. Where its reset is stated, that wait decides, as for a window named by its length. A usage
// limit counted per minute is a burst, and an agent's own tool, command or step budget no provider's (decision 0064, a
// sixty-first set). Nor is a machine resource's ("The memory usage limit has been reached", a sandbox's disk or CPU).
const usageLimitReached =
  /(?<!\b(?:tool|command|function|step|turn|iteration|memory|disk|storage|cpu|gpu|vram|ram)s? )\busage limit (?:has been |was |is )?(?:reached|hit)\b(?![^.]{0,20}?\b(?:minute|second|min|sec)s?\b)/i;
// A token or request limit stated with the period it counts ("Token limit (500,000 per day) exceeded.", a gateway under 500):
// a rate limit, and a quota where the period is a day or longer. A limit with no period ("Token limit (4096) exceeded") is
// no rate limit, and neither is a count per request or per turn (decision 0064, a sixtieth set).
const periodStatedLimit =
  /\b(?:tokens?|requests?|messages?) limit\s*(?:\(\s*|of\s+)[\d,.]+\s*(?:tokens?\s+|requests?\s+|messages?\s+)?(?:per|a|\/)\s*(?:min(?:ute)?|hour|day|week|month)\)?\s*(?:has been |was |is )?(?:exceeded|reached|hit)\b/;
// Precision families (decision 0064, a sixty-third set), each tried before the words it shares with the loop's kinds:
// - an agent's own budget for tools, steps or turns ("Daily tool usage limit reached for \"web_search\"", "Tool call limit
//   exceeded."): no provider's limit, whatever period it names;
const agentOwnBudget = /\b(?:tool|command|function)[ _-]?(?:usage|calls?|uses?)[ _-]limit (?:has been |was |is )?(?:reached|hit|exceeded)\b/i;
// - a local tokenizer's length warning (Hugging Face transformers: "Token indices sequence length is longer than the specified
//   maximum sequence length for this model (716 > 512)"): an embedding or local model's input, not the chat model's window;
const tokenizerLengthWarning = /\btoken indices sequence length is longer than the specified maximum sequence length\b/i;
// - a database's own pool or statement timeout (SQLAlchemy's "QueuePool limit of size 5 overflow 10 reached, connection timed
//   out", PostgreSQL's 57014 "canceling statement due to statement timeout", HikariCP's "Connection is not available, request
//   timed out"): the caller's store, not the provider, timed out. An HTTP client's own pool ("Timeout waiting for connection
//   from pool", Apache HttpClient) holds the connections to the provider: that stays a timeout, worth retrying;
const databaseTimeout = /\bQueuePool limit of size \d+|\bcanceling statement due to (?:statement|lock) timeout\b|\bConnection is not available, request timed out after\b/i;
// - a plan's limit named after a model, with the way out the plan offers (Claude Code: "You've reached your Fable 5 limit.
//   Switch to another model, or manage usage credits ..."): a rate limit and a spent allowance;
const planModelLimit = /\b(?:hit|reached) your (?!(?:rate|requests?|concurrency|burst)\b)(?:[\w.-]+ ){1,4}limit\b(?=[^\n]{0,160}?(?:\bswitch to another model\b|\busage credits\b))/i;
// - a quota exceeded for a billing account ("RESOURCE_EXHAUSTED: quota_exceeded for billing account"): money, not a minute.
const billingAccountQuota = /\bquota[ _](?:exceeded|exhausted)\b[^.\n]{0,40}?\bfor (?:the |a |your |this )?billing account\b/i;
const allocationQuotaCode = /\b(?:Throttling\.)?AllocationQuota(?:\.\w+)?\b/;
// Words only a rate limit or a quota uses. Tried first: a rate-limit body may ask to "reduce the prompt length". A quota
// named as a snake_case code ("token_quota_exceeded", Cerebras), and tokens or requests counted "in the last minute", are
// ones too (decision 0064, a twenty-fifth set). So is Zhipu's "频率过高" (frequency too high), beside its "并发数过高"
// (decision 0064, a forty-seventh set). AWS's "Rate exceeded" is one, a sample, bit, frame or baud rate exceeded is not (decision 0100).
// Tokens or requests per week or month ("Tokens per month exceeded.", Mistral) are a
// quota as per day is (decision 0064, a fifty-fourth set).
const rateLimitWords = new RegExp(
  String.raw`rate.?limit|throttl|\bquota|[a-z]_quota_(?:exceeded|exhausted|reached)\b|\b(?:tokens?|requests?)\b[^.]{0,30}?\b(?:in|within|during|over) the (?:last|past) (?:\d+ )?(?:seconds?|minutes?|hours?)\b|\brequests? limit (?:exceeded|reached)|resource.?exhausted|\bresources? (?:has|have) been exhausted\b|(?:tokens?|requests?) per (?:min|minute|hour|day|week|month)\b|${allocationQuotaCode.source}|${planAllowanceUsedUp.source}|${usageLimitReached.source}|${periodStatedLimit.source}|${wrappedPaymentRequired.source}|\b[TR]P[MD]\b|insufficient_quota|\bexceeded_current_quota(?:_error)?\b|${periodLimitExhausted.source}|${planCapChinese.source}|${creditsUsedUpChinese.source}|${perPeriodAbbreviated.source}|too many requests|(?<!\b(?:sample|sampling|bit|frame|baud) )\brate exceeded\b|per[- ]model limit|for this (?:minute|hour|day)\b|usage limit (?:reached|for)|(?:\b|_)usage[ _]limit[ _]exceeded\b|hit your (?:[\w.-]+ )?usage limit|(?:hit|reached) your (?:(?:rate|request|session|weekly|daily|monthly|hourly|plan|subscription) )?limit\b|速率限制|限流|(?:过于|太|过度)频繁|频率超限|(?<!采样)频率过高|并发(?:数)?(?:超限|过高)|request rate (?:increased |rose |grew |is |was )?too (?:quickly|fast|high)|\blimit_burst_rate\b|insufficient (?:account )?(?:balance|credits?|funds)|too many (?:concurrent |simultaneous |parallel )?(?:requests|connections)|${concurrencyCap.source}|${outOfCredit.source}|${planModelLimit.source}`,
  'i',
);
// OpenAI's "exceeded your current quota" sends the reader to its error-codes guide (the billing error, decision 0064);
// Gemini says the same words of a per-minute quota and links its rate-limits page, which waiting does restore.
// LiteLLM names the vendor before its words ("OpenAIException - You exceeded your current quota"): that is OpenAI's
// billing error too, though LiteLLM drops the link (decision 0064, a fortieth set).
// The link may be cut where a log or report cuts the line ("read the docs: https://platform.openai.com/docs/guides/error-code"):
// OpenAI's own docs host after the words says the same (decision 0064, a fifty-sixth set).
// The OpenAI Python SDK names its vendor in its exception's module ("openai.RateLimitError: You exceeded your current quota"):
// OpenAI's billing error as LiteLLM's prefix is; a bare "RateLimitError" any SDK may raise is not (decision 0064, a sixty-first set).
const openAiBillingQuota =
  /exceeded your current quota\b[\s\S]{0,200}?(?:\berror-codes\b|\bplatform\.openai\.com\b)|\b(?:OpenAIException|openai(?:\.error)?\.RateLimitError)\W{1,5}You exceeded your current quota\b/;
// A quota that waiting a moment does not restore: daily caps, an exhausted balance. One-api relays' balance check names the
// user's quota and its figures before "is not enough"; Tencent CloudBase says a token usage "exceeded quota limit" until
// resources are bought (decision 0064, a thirty-eighth set). A token quota reached (watsonx's `token_quota_reached`, a plan's
// monthly allowance) and no quota or credit "remaining" or "left" are such quotas (decision 0064, a forty-seventh set), and so
// is a subscription plan's usage limit ("Token Plan usage limit reached"; decision 0064, a forty-eighth set). DashScope's
// `FreeTierOnly` code says the free allowance is spent and only it was allowed (decision 0064, a fifty-fourth set).
const exhaustedQuota = new RegExp(
  String.raw`insufficient[_ ]quota|per[ _]?day|daily|monthly|weekly|(?:this|per|each|a) (?:month|week)\b|\bfor the (?:month|week|day)\b|\b\d+[- ]?hours?\b|billing (?:cycle|period)|quota (?:has been |is |was )?(?:used up|exhausted|depleted)|\bquota(?:[ _]is)?[ _]not[ _]enough\b|\bquota\b[^.\n]{0,60}?\bis not enough\b|\b(?:token )?usage exceeded (?:the |your )?quota limit\b|\bexceed_token_quota_limit\b|\btoken[ _]quota[ _](?:reached|exhausted|used[ _]up)\b|\bno (?:remaining )?(?:quota|credits?|balance) (?:remaining|left)\b|\bno remaining quota\b|\bplan(?:'s)? usage limit\b(?!\s+(?:is|of)\s+\d)|\busage_limit_reached\b|${usageLimitReached.source}|\bFreeTierOnly\b|${planAllowanceUsedUp.source}|${wrappedPaymentRequired.source}|\b[TR]PD\b|insufficient (?:account )?(?:balance|credits?|funds)|credit balance|billing[ _]hard[ _]limit|exceeded_current_quota_error|account [^.]{0,40}is not active|${openAiBillingQuota.source}|${periodLimitExhausted.source}|${planCapChinese.source}|${creditsUsedUpChinese.source}|${outOfCredit.source}|${planModelLimit.source}|${billingAccountQuota.source}`,
  'i',
);
// Words that make an error an overflow whatever its status: Anthropic answers 429 for a long-context
// request the account may not send, and compacting below the standard window is what fixes it.
// The long window may be named by its size instead ("Extra usage is required for 1M context"; decision 0064, a fifty-seventh set).
const overflowWhateverStatus = /extra usage is required for (?:long|\d+(?:\.\d+)?\s?[km](?:[- ]?tokens?)?) context/i;
// A limit a failing server says it has cut for now ("maximum context length is temporarily reduced", a 503): the server's
// state, not the request's size, so it is a busy service to wait out or route around (decision 0064, a fiftieth set).
const temporarilyCutLimit = /\btemporar(?:il)?y (?:reduced|lowered|limited|decreased|capped)\b/i;
// Caps on a single request that are not the model's window (embedding batches), and Mistral's embeddings answer "Too many
// tokens overall, split into more batches." (code 3210; decision 0064, a fifty-third set).
const perRequestCap = /tokens? per request|tokens? in (?:the )?batch\b|\bsplit (?:it |them |the (?:input|request) )?into (?:more|smaller) batches\b/i;
// An output budget the server worked out as negative ("max_tokens must be at least 1, got -563072"): the
// input alone already fills the window (vLLM), so no smaller max_tokens helps.
const negativeOutputBudget = /max_(?:new_|completion_)?tokens\b[^.]{0,40}?\bgot -\d+/i;
// Input and output budget together over the window: an overflow, though a smaller output budget may fix it.
const inputPlusOutput = /input\w*\W+(?:length\W+|tokens?\W+(?:count\W+)?)?(?:\+|and)\W+max_(?:new_)?tokens\W+(?:parameter\W+)?(?:exceed|must be|>)/i;
// The output budget set against what the input leaves: "max_tokens: 32768 > context_window: 200000 - input_tokens: 190000"
// (decision 0064, a forty-third set).
const outputOverWindowLessInput = /\bmax_tokens\W{1,3}(\d+)\s*>\s*context_window\W{1,3}(\d+)\s*-\s*input_tokens\W{1,3}(\d+)/i;
// vLLM's overrun, the output named first: "you requested 4096 output tokens and your prompt contains 127075 input tokens".
const outputFirst = /requested (\d+) output tokens and your prompt contains (?:at least )?(\d+)(\W{0,2}input tokens)?/i;
// The same sentence cut before the prompt's count ("maximum context length is 24000 tokens. However, you requested 24000
// output tokens", Workers AI as a client quotes it): only the output is known, and it alone may fill the window
// (decision 0064, a fifty-seventh set).
const outputAlone = /\byou requested (\d+) output tokens\b(?! and your prompt)/i;
// TGI's account of the sum, kept when a log cuts the sentence's start ("`max_new_tokens` must be <= 32769. Given: 30558
// `inputs` tokens and 15000 `max_new_tokens`"; decision 0064, a forty-second set).
const givenInputAndOutput = /\bgiven:?\W{0,3}\d+\W{0,2}inputs?\W{0,2} tokens and \d+\W{0,2}max_new_tokens\b/i;
// One request larger than the per-minute token budget (Groq's 413 "Request too large ... on tokens per minute (TPM)"):
// it never fits, however long the caller waits, figures stated or not (decision 0064, a forty-second set).
const requestOverMinuteBudget = /\brequest too large\b[\s\S]{0,160}?\btokens per (?:minute|min)\b/i;
// max_tokens set against another parameter ("`max_tokens` must be greater than `thinking.budget_tokens`"): a smaller
// max_tokens makes it worse, so it is not a cap on the output budget.
const maxTokensBelowParameter = /max_(?:new_|completion_|output_)?tokens\W{0,3}\s*(?:must|should) be (?:greater|larger|more) than\W{0,3}[a-z][\w.]*_[\w.]*/i;
// max_tokens that must be positive ("max_tokens must be greater than zero", "must be a positive integer"): a malformed
// parameter, not an output budget over the model's cap; a negative budget the server worked out is read before this.
const maxTokensNotPositive = /max_(?:new_|completion_|output_)?tokens\W{0,3}\s*(?:must|should) be (?:greater than (?:zero|0)\b|(?:a )?positive\b|(?:a )?non-?negative\b)/i;
const outputCutByLength =
  /\b(?:response|output|completion|generation|answer)\s+(?:was\s+)?(?:cut off|truncated|stopped)\s+(?:due to|because of|by)\s+(?:the\s+)?(?:length|max(?:imum)?[_ ]?(?:output[_ ])?tokens)\b|\bLengthFinishReasonError\b|\bas the length limit was reached\b/i;
const maxTokensWords = [
  /max(?:imum)?[ _-](?:new_|completion_|output_)?tokens?\b(?:[^.]|\.(?=\w)){0,40}?(?:too large|must be|should be|exceed|>\s*\d|valid range|greater than|(?:is )?not valid|invalid|illegal|above (?:the )?maximum|out of range|非法|无效|不合法)/i,
  /maximum (?:allowed )?number of (?:output|completion) tokens/i,
  /supports at most \d+ (?:completion|output) tokens/i,
  // Claude Code's "response exceeded the 4096 output token maximum": the output cap, not the context
  /\bexceed\w*\s+(?:the\s+)?(?:\d+\s+)?(?:output|completion)\s+tokens?\s+(?:maximum|limit|max)\b/i,
  // A finish or stop reason given as the error ("truncated (finish_reason=length)", "stop_reason=max_tokens", Gemini's
  // finishReason MAX_TOKENS, the Responses API's `incomplete_details` reason `max_output_tokens`): the output ran out
  // (decision 0064, a fifty-second set).
  /\b(?:finish_?reason|stop_?reason)\W{1,4}(?:length|max_tokens)\b|\bincomplete_details\W{1,6}reason\W{1,6}max_output_tokens\b/i,
  // The same said in words: a response "cut off due to length" (the OpenAI SDK's LengthFinishReasonError, whose Python
  // message is "the length limit was reached"; decision 0064, a fifty-seventh set).
  outputCutByLength,
  // An output limit exceeded or reached, as a code or in words ("output_limit_exceeded", "output token limit reached"; decision
  // 0064, a fifty-ninth set). A tool's, a command's or a log's output limit is no model's output budget.
  /(?<!\b(?:tool|command|shell|log|stdout|stderr|file|print)[ _])\boutput[ _](?:tokens?[ _])?limit[ _](?:(?:was|has been|is) )?(?:exceeded|reached|hit)\b/i,
];
const overflowWords = [
  /context_length_exceeded|exceed_context_size_error|model_max_prompt_tokens_exceeded|context_?window_?exceeded|contextwindowexceeded|\binput_too_large\b|"code"\W{1,4}3051\b/i,
  /\b(?:context|prompt|input|sequence|conversation)(?![\s_]+deadline\b)(?:[\s_]+(?:length|window|size|limit|token count|tokens))?\W+(?:[\w'.]+\W+){0,3}?(?:exceed\w*|(?:is |are )?too (?:long|large)|(?<!(?:should|must) be )greater than|longer than|overflow)/i,
  /\b(?:exceed\w*|greater than|longer than|larger than|bigger than|more than)\s+(?:[\w'’]+\W+){0,6}?(?:context|max(?:imum)? (?:allowed )?(?:prompt |input |context |model |sequence )?length|maxlength|maximum number of tokens)/i,
  // "Request exceeds the maximum allowed input tokens" (Gemini's wording as a Go agent's test gives it)
  /\bexceed\w*\s+(?:the\s+)?max(?:imum)?\s+(?:allowed\s+)?(?:number of\s+)?(?:input|prompt)\s+tokens\b/i,
  // A server that cannot cut the input down to its window: "Cannot truncate to 89998, required 355220" (Google's AI Studio
  // backend through a proxy; decision 0064, a sixtieth set). A file or a table truncated is no prompt's overflow.
  /\bcannot truncate (?:(?:the )?(?:prompt|input|context|conversation|messages?) )?to \d+(?: tokens)?\W{1,3}required \d+/i,
  // LM Studio: "Trying to keep the first 5000 tokens when context length is 4096" (decision 0064, a thirty-fourth set)
  /\bkeep the first \d+ tokens when (?:the )?context\b/i,
  /reduce the length of (?:the |your )?(?:messages|prompt|input)|\breduce (?:the |your )?(?:input|prompt) (?:size|length)\b/i,
  /max(?:imum)? (?:allowed )?(?:prompt |input |context |model |sequence )?len(?:gth|ght) (?:is|of)\b|max(?:imum)? context len(?:gth|ght)/i,
  // The same sentence with "limit" for "length" ("This model's maximum context limit is 128000 tokens. However, you requested
  // 140000."), its figure stated (decision 0064, a fifty-ninth set): a setting's name alone ("maximum context limit must be
  // set") is not one.
  /\bmax(?:imum)? context limit (?:is|of) \d+/i,
  /number of tokens[^.]{0,60}(?:cannot|must not|may not) exceed/i,
  /expected maxlength\W+\d+\W+actual\W+\d+/i,
  /context (?:length|window|size) is only|reached (?:the )?(?:maximum )?context (?:length|window|size)/i,
  /\b(?:max(?:imum)?|context)[ _](?:[a-z]+[ _])?length[ _]exceeded/i,
  // "context window full", "the context is full"; "total length exceeds model limit"
  /\bcontext (?:window )?(?:is )?full\b|\blength exceeds? (?:the )?(?:model(?:'s)? )?(?:limit|maximum)\b/i,
  // Moonshot/Kimi "exceeded model token limit: N", "Input tokens exceed the configured limit of N"
  /\bexceed\w*\s+(?:the\s+)?(?:model(?:'s)?\s+|configured\s+)?(?:max(?:imum)?\s+)?(?:token|context)\s+limit|\btokens? exceed\w*\s+(?:the\s+)?(?:model\s+|configured\s+)?limit/i,
  // DashScope "Range of input length should be [1, N]"
  /\binput length should be\b/i,
  // Qianfan "the max input characters is N" (`characters_too_long`): a cap on the prompt in characters
  /\bmax(?:imum)? input (?:characters|chars)\b|\bcharacters_too_long\b/i,
  // Cerebras "Current length is N while limit is M"
  /current length is \d+ while limit is \d+/i,
  // "context window is 128k tokens, you requested 256k tokens"
  /context (?:window|length|size) (?:is|of) \d+k?\b[^.]{0,30}\brequested\b/i,
  // "Request too large for the model's context window", "Prompt too large for this model"
  /\b(?:request|prompt)\b[^.]{0,20}too (?:large|long) for (?:the |this )?(?:[\w.:/-]+ )?model\b/i,
  // "too many tokens" on a bad request; with "please wait", "slow down" or "per minute" it is Bedrock's throttling
  // ("Too many tokens, slow down.", a ConverseStream throttlingException; decision 0064, a forty-fifth set)
  /too many (?:input |prompt )?tokens(?! per)(?![^.]{0,40}(?:please wait|try again|wait before|slow down))/i,
  // "token count 140000 exceeds the maximum of 128000"
  /\btoken count\b[^.]{0,30}?\bexceed/i,
  // TGI "`inputs` must have less than N tokens", bare "maximum context window", "token limit exceeded"
  /\binputs?\W*(?:tokens?\W*)?must have less than \d+/i,
  /\bmax(?:imum)? context window\b/i,
  // "tokens in request more than max tokens allowed": the request's tokens over the tokens the model allows
  /\btokens? (?:in|of) (?:the |this |your )?(?:request|prompt|input|messages?)\b[^.]{0,20}?\b(?:more than|exceed\w*|greater than|over) (?:the )?max(?:imum)? (?:number of )?tokens? (?:allowed|permitted)\b/i,
  /\btoken limit (?:exceeded|reached)\b/i,
  // A size refusal that counts the prompt in tokens against a limit: "Request too large: prompt is 300000 tokens, limit
  // 200000", even under 413 (decision 0031 leaves a 413 naming no tokens `other`; decision 0064, a fifty-fifth set)
  /\bprompt (?:is|was|has) [\d,]+ tokens?\W{1,3}(?:the )?(?:limit|max(?:imum)?)(?: is)?\W{0,3}[\d,]+/i,
  // A prompt that "leaves 0 output tokens", and "N input tokens over the limit of M" (decision 0064, a twenty-fifth set)
  /\bleaves? (?:0|no|zero|too few) (?:output|completion) tokens?\b|\b\d+ (?:input |prompt )?tokens? (?:is |are )?over (?:the |its |your )?(?:context |token |input )?(?:limit|maximum)\b/i,
  // "The model has reached its context window limit"
  /\breached (?:its|the|your) (?:maximum )?(?:context (?:window|length)|conversation)(?: limit)?\b/i,
  // Out of room in the window: Codex's "ran out of room in the model's context window" (decision 0064, a forty-eighth set)
  // ... not a server's disk: "ran out of space in the context store volume", "... in the context of the upload job"; "model’s"
  // with a typographic apostrophe (decision 0100)
  /\b(?:ran|run|running|is) out of (?:room|space) in (?:the |its |your )?(?:model['’]?s? )?context(?: window| length| size)?\b(?![ _-]?(?:store|storage|volume|directory|dir|folder|files?|disk|database|db)\b|\s+of\b)/i,
  // llama.cpp-derived servers: the slot's KV cache (the context) is full or has too little room for the tokens ("KV cache
  // has insufficient capacity for the requested tokens"; decision 0064, a twenty-fourth set), or the kept prefix is longer than n_ctx
  /failed to find (?:free space in the |a )?kv cache(?: slot)?|\bkv cache is full\b|\bkv[ _-]?cache\b[^.]{0,20}?\b(?:insufficient|not enough|too little) (?:capacity|space|room)\b|\b(?:(?:insufficient|not enough|too little) |no (?:free )?)(?:capacity|space|room) (?:left )?in (?:the )?kv[ _-]?cache\b|\bn_keep\W{1,3}\d+\W{0,3}>=?\s*n_ctx\b|\bcontext shift is disabled\b/i,
  // A window loaded too small for what was sent (LM Studio through Bionic): "loaded with a context length too small for this request"
  // ... or "too small to generate a response" (node-llama-cpp, when the reply cannot fit; decision 0064, a forty-eighth set)
  /\bcontext (?:length|window|size) (?:is )?too small (?:for (?:this|the|your) (?:request|prompt|input|conversation)|to (?:generate|fit|hold) (?:a |the )?(?:response|reply|completion|prompt|input))\b/i,
  // A stated token count over a stated cap (decision 0056): "Request contains N tokens, which exceeds the
  // limit of M" (Vertex), "Current message (N tokens) exceeds budget (M tokens)" (xAI)
  /\b\d+ tokens?\)?,?\s+(?:which\s+)?exceed\w*\s+(?:the\s+)?(?:\w+\s+)?(?:limit|budget|maximum)\b/i,
  // A prompt's size set against the window: "Prompt is N tokens but the model context window is M tokens"
  /\b(?:prompt|input|request|message)\b[^.]{0,20}?\b\d+ tokens?\b[^.]{0,40}?\bcontext (?:window|length|size)\b/i,
  // A request to be cut "to fit within the context window"; the model's "maximum allowed tokens exceeded"
  /\bfits? (?:with)?in (?:the |your |its )?(?:model'?s? )?context(?: window| length| size)?\b|\bmax(?:imum)? allowed tokens\b[^.]{0,20}?\bexceed/i,
  // "length of prompt_tokens (N) must be less than max_seq_len (M)" (SiliconFlow): the prompt must fit under the model's length
  /\b(?:prompt|input)(?:[ _]tokens?)?\b[^.]{0,30}?\bmust be (?:less|smaller|fewer) than\W{0,3}(?:the )?max(?:imum)?[ _](?:seq(?:uence)?|model|context|input)[ _]?len(?:gth)?\b/i,
  // Chinese-language gateways: input or context length (or token count) over the limit
  /(?:(?:输入|上下文|提示词?|请求)的?(?:长度|token\s*数量?|令牌数)|token\s*数量?|令牌数量?)\S{0,4}?(?:超过|超出|过长)|(?:超过|超出)了?(?:模型的?)?(?:最大)?(?:上下文|输入长度|token)/,
  // An English subject before the Chinese verdict (Zhipu's "Prompt 超长"; decision 0064, a forty-seventh set); and
  // ... with the subject alone ("上下文超出限制", "令牌超出限制"), a request or input "too long" ("请求太长了", "输入超长"),
  // or the verb before the length ("超出长度限制"); a request alone over a limit may be a rate, so it needs a length word
  /\b(?:prompt|input|context)\s*(?:tokens?\s*)?(?:超长|过长|太长)|(?:输入|上下文|提示词?|令牌)\S{0,4}?(?:超过|超出|过长|超长|太长)|(?:请求|消息)\S{0,2}?(?:过长|超长|太长)|(?:超过|超出)了?(?:长度|输入)/i,
  // Japanese and Korean: context or input too long or over ("コンテキストが長すぎます", "入力が超過しました", "입력 초과")
  /(?:コンテキスト|入力|プロンプト)[^.。]{0,8}?(?:長すぎ|超過|超え)|(?:컨텍스트|입력|프롬프트)[^.。]{0,8}?(?:너무\s*[길깁]|초과)/,
  // Vertex's "the input token count is N but model only supports up to M": a stated count over what the model supports
  /\b(?:input |prompt )?token count (?:is|of) \d+,? but (?:the )?model (?:only )?supports? (?:up to|at most|a maximum of) \d+/i,
  // Volcano Ark's "Total tokens of image and text exceed max message tokens": tokens over a per-message or context token cap
  /\btokens?\b[^.]{0,40}?\bexceed\w*\s+(?:the\s+)?max(?:imum)?\s+(?:message|context|input|prompt|model)\s+tokens?\b/i,
  // Tokens over what the model takes ("total tokens 300k exceed what the model supports"), and a prompt's length "above
  // the limit" (decision 0064, a forty-fifth set) or its token count (watsonx: "input token count is above the limit"; a
  // forty-seventh set)
  /\btokens?\b[^.]{0,30}?\bexceed\w*\s+what (?:the |this )?model (?:can )?(?:supports?|handles?|accepts?|allows?)\b/i,
  /\b(?:prompt|input|context)[\s_]+(?:length|size|tokens?(?:[\s_]+count)?)\s+(?:is\s+)?above\s+(?:the\s+|its\s+|your\s+)?(?:model(?:'s)?\s+)?(?:limit|maximum|max)\b/i,
];
// vLLM failing to start because the KV cache its max_model_len needs is larger than the GPU memory left ("KV cache is
// needed, which is larger than the available KV cache memory ... decreasing `max_model_len` when initializing the
// engine"): no request was too long, though the words name a model length (decision 0064, a forty-fifth set).
const kvCacheMemoryAtStart = /\bkv cache is needed\b[^.]{0,60}?\bavailable kv cache memory\b/i;
// A file, image, audio or video over a size limit (Volcano Ark's "the size of the input image exceeds the limit"): an
// oversized attachment, not an oversized context, unless tokens are named.
const mediaTooLarge = /\b(?:size of (?:the |an? )?(?:input |uploaded )?(?:image|picture|audio|video|file)|(?:image|picture|audio|video|file) (?:file )?size)s?\b[^.]{0,20}?\bexceed/i;
// A JSON field over the length its schema allows, in characters or items (OpenAI's "Invalid 'input[3].content': array too
// long. Expected an array with maximum length 0", "Invalid 'prompt': string too long", `string_above_max_length`): a
// malformed parameter, not a window, unless tokens are named (decision 0064, a fifty-third set).
const fieldLengthCap = /\binvalid '[^']{1,80}': (?:string|array) too long\b|\b(?:string|array)_above_max_length\b/i;
// Overflow words that win over a mention of max tokens ("prompt too long: max tokens exceeded").
const promptTooLong = /\b(?:prompt|input|context) (?:is )?too long\b/i;
// A maximum token count or token limit exceeded, spelled out and naming no output parameter ("maximum tokens exceeded",
// "maximum number of tokens exceeded"): the request's tokens, not the output budget.
const maximumTokensExceeded = /\bmaximum (?:number of )?tokens? (?:limit )?(?:exceeded|reached)\b/i;
// The thinking budget set over the window or the output budget ("budget_tokens exceeds context_length"): a setting to
// correct, which compacting does not fix.
const thinkingBudgetOver = /\bbudget_tokens\b[^.]{0,30}?\b(?:exceed\w*|greater than|larger than|more than)\b/i;
// A service closed to this account or region (Workers AI's "Service unavailable for account", Gemini's "User location
// is not supported"): not busy, so no wait helps, but another provider may answer.
const unavailableToAccount =
  /\b(?:un|not )available (?:for|in|to) (?:this |your |the )?(?:account|organi[sz]ation|region|country|territory)\b|\b(?:location|region|country|territory) is not supported\b|\bnot supported (?:in|for) (?:this |your |the )?(?:location|region|country|territory)\b|\baccount\b[^.,;]{0,40}?\b(?:is |has been |was )(?:suspended|deactivated|locked|banned)\b/i;
// A machine's own disk or storage quota (a sandbox's ENOSPC) is no provider's allowance, whatever quota words it uses. In a
// 5xx it is the server's own disk (Ollama pulling a model): a server fault another provider may not have (decision 0100).
const localStorageQuota = /\bENOSPC\b|\b(?:disk|storage) quota\b/i;
// Google's quota *project*, the billing project a call is charged to ("quota project is invalid", "requires a quota
// project", quota_project_id): a credentials setting, not a quota running out, so no wait mends it.
const quotaProjectFault = /\bquota[ _-]?project(?:[ _-]?id)?\b/i;
// A model the endpoint or gateway does not serve ("model_not_found", "No available channels for model", 无可用渠道,
// "Incorrect model ID"): gateways send it as a 503, but no wait helps; another provider may serve the model.
const modelNotServed = /\bmodel_not_found\b|\bno available channels? for (?:the )?model\b|无可用渠道|\bincorrect model (?:id|name)\b/i;
// A proxy that could not reach the model (Envoy's "upstream connect error") or a model that failed to load, answered as a
// 5xx: a server fault whatever window it names; and a context length named as missing ("the maximum context length is not
// available") is a setting, not an overflow (decision 0064, a twenty-fifth set).
const serverFaultBeforeModel = /\bupstream connect error\b|\bfailed to load (?:the )?model\b/i;
const windowNotSet = /\bcontext (?:length|window|size) (?:is )?(?:not (?:available|configured|set|known)|unavailable|unset|unknown)\b/i;
// Words of a busy or overloaded service; tried after the overflow families ("too many tokens: total ... cannot exceed" is an overflow).
// A model or service that "has insufficient capacity" (Bedrock; its name may stand between: "The model gpt-4o has") is one; the KV cache's is an overflow, read before (decision 0064,
// a forty-sixth set). Capacity "temporarily" or "currently" exceeded (Workers AI's 3040) and traffic named too heavy in
// Chinese (Zhipu's "该模型当前访问量过大") are busy too (decision 0064, a forty-seventh set). So is an endpoint, upstream or backend
// "is unavailable" (the AI SDK's "Upstream request failed: Endpoint is unavailable."; decision 0064, a forty-eighth set), read
// apart: not on a 4xx (a removed endpoint's 410, a key's 403), nor "unavailable for/to/in/on/with/under" something ("on the free
// plan"; decision 0100).
const endpointUnavailable = /\b(?:endpoint|upstream|backend)s? (?:is|are) (?:currently |temporarily )?unavailable\b(?! (?:for|to|in|on|with|under)\b)/i;
// DeepSeek's code for a request its inference system had no room for (`insufficient_system_resource`, sent as an error or a
// stream's finish reason): the service is busy, as an overload is. Only the snake_case code: LM Studio says "insufficient
// system resources" of a model too large for the machine, which no wait cures (decision 0064, a fifty-sixth set).
const systemResourceCode = /\binsufficient_system_resources?\b/i;
// Too many people on the service at once, in Chinese: "当前访问人数过多，请稍后重试" (too many visitors now; Zhipu's web chat
// in its last_error frame), 使用人数, 请求人数, 排队人数 or 在线人数 named too many. A crowd, as 访问量过大 is traffic: busy,
// retryable. Only a head count of visitors, users, requests, the queue or those online: a group's or a meeting's headcount
// names no service (decision 0064, a fifty-eighth set).
const crowdedChinese = /(?:访问|使用|请求|排队|在线|并发)(?:的)?(?:人数|用户数?)(?:过多|太多|较多|过大|已满|超(?:过|出)上限)/;
const busyWords =
  /too many tokens|\btoo ?many ?requests\b|(?:engine|server|service|model) is (?:currently |temporarily |too )?busy|too busy|(?:high|heavy) load|out of capacity|overload(?:ed)?(?:\b|_)|\bslow ?down\b|unable to process (?:your|the) request|at capacity|capacity[ _](?:(?:temporarily|currently) )?(?:exceeded|exhausted)|no capacity|\b(?:model|service|server|endpoint|provider|region|deployment|cluster)s?(?: [\w./:@-]+)? (?:has|have|had) insufficient capacity\b(?![ _-]?units?\b)|(?:offline|down) for maintenance|under maintenance|\bno (?:more )?(?:available )?(?:data ?cent(?:er|re)s?|servers?|backends?|replicas) (?:available|to (?:forward|route|serve|handle))|server (?:is )?busy|high demand|temporarily unavailable|\btemporary capacity (?:issue|problem|constraint)s?\b|pending requests|service.?unavailable|scaling up|is currently loading|\bqueue (?:is )?(?:full|at capacity)\b|\bqueue[ _](?:exceeded|overflow)\b|\bno deployments? available\b|负载(?:已|过)?(?:饱和|过高|过大)|(?:访问|请求|调用)量(?:过大|过高|太大)|满载|(?:服务器|服务|系统)(?:繁忙|忙碌)/i;
// A deadline that passed before the model answered ("Request didn't generate first token before the given deadline",
// Fireworks's 429): the request took too long, whatever status it came with.
const deadlinePassed = /\b(?:before|by) the (?:given |request(?:ed)? |configured )?deadline\b/i;
// A time limit the stream, batch or session ran out of, named in words: a gateway's idle cut ("upstream stalled: no data
// received for 120s", even sent as Anthropic's `overloaded_error`), OpenAI Batch's "could not be executed before the
// completion window expired", the Realtime API's "Your session hit the maximum duration of 60 minutes" and an OpenRouter
// upstream's "exceeded the 900 second wall-clock limit": the time ran out, not the capacity (decision 0064, a fifty-second set).
const timeLimitReached =
  /\bno data received (?:for|in) \d+\s*(?:ms|s|sec(?:ond)?s?|min(?:ute)?s?)\b|\bbefore the completion window expired\b|\bsession (?:hit|reached|exceeded) the maximum duration\b|\bwall[- ]clock (?:time )?limit\b/i;
// A relay or gateway that gave up waiting for the upstream, in Chinese (one-api's 504: "服务器没有等到上游服务器的回应"; "请求超时",
// "上游响应超时"): the request took too long (decision 0064, a thirty-eighth set).
const upstreamNoAnswerChinese = /(?:没有|未)(?:等到|收到)[^。，,]{0,12}(?:回应|响应)|(?:请求|上游|响应|网关|连接)\S{0,2}超时/;
// A request the server cannot serve as it is started or built, which llama.cpp's server answers as a 500 `server_error`
// ("tools param requires --jinja flag", "Only one completion choice is allowed", "Cannot use both json_schema and
// grammar", "... Start it with `--embeddings`"): the same request fails again, though another provider may take it.
// A relay's moderation rejecting the words sent (new-api's 500 `sensitive_words_detected`): the same request is refused again,
// though another provider may take it (decision 0064, a forty-seventh set).
const contentRejected = /\bsensitive[ _]words?[ _]detected\b/i;
// Gemini 3 refuses a replayed function call whose thought signature was dropped ("Function call is missing a
// thought_signature in functionCall parts"); a relay may pass it on as a 503 (decision 0064, a fifty-fifth set).
const thoughtSignatureMissing = /\bmissing (?:a |the )?thought_?signatures?\b|\bthought_?signatures? (?:is |are )?(?:missing|required)\b/i;
const requestNotServable = /\brequires (?:the )?--[a-z][\w-]*|\bstart (?:it|the server) with `?--[a-z]|\bonly one [\w ]{1,40}? (?:is|are) (?:allowed|supported)\b|\bcannot use both\b/i;
// The error types providers give a failure on their side, read where no status came with it, and AWS's internal-fault
// wording ("The system encountered an unexpected error during processing. Try your request again.").
const serverErrorType =
  /"(?:type|code)"\s*:\s*"(?:server_error|internal_server_error|internal_error|api_error)"|\bupstream (?:is |service )?(?:unavailable|down)\b|\bencountered an unexpected error\b.{0,40}?\btry (?:your request )?again\b/i;
// Advice any server gives: says the error may pass, not that the service is busy. Alone it reads as busy only
// when no status came with it; with one, the status decides (a 404 "please wait a moment and try again" is a
// missing deployment, a 500 "try again later" a server error).
const retryLater = /try again later|please wait\b/i;

const limitPatterns = [
  /range of input length should be\s*\[\s*\d+\s*,\s*(\d+)/i,
  /must have less than (\d+)/i,
  // watsonx: "cannot exceed the total tokens limit 8192" (decision 0064, a forty-seventh set)
  /tokens? limit:?\s*(\d+)/i,
  // "lenght": a misspelling some OpenAI-compatible servers (Mistral's, through LiteLLM) send
  /context (?:length|lenght|window|size|limit)(?: is| of)?(?: only)?:?\s*\(?(\d+)/i,
  /n_ctx\W{1,3}(\d+)/i,
  /\bcannot truncate (?:(?:the )?(?:prompt|input|context|conversation|messages?) )?to (\d+)/i,
  // llama.cpp's embedding and rerank servers: an input over the physical batch, "(current batch size: 8192)" (decision 0064, a forty-eighth set)
  /\bcurrent (?:physical )?batch size\W{1,3}(\d+)/i,
  /(\d+) maximum\b/i,
  /max(?:imum)? (?:allowed )?(?:prompt |input |model |sequence )?length(?: is| of)?:?\s*\(?(\d+)/i,
  /max(?:imum)? context length of [\w.:/-]+ is (\d+)/i,
  // DeepSeek: "exceeds the model's max input limit 65536"
  /\bmax(?:imum)? (?:prompt|input) limit(?: is| of)?:?\s*\(?(\d+)/i,
  /maxlength\W{1,3}(\d+)/i,
  /(?:tokens allowed|limit of|limit is|cannot exceed|must be <=|must not exceed|window of|exceeds? (?:the )?maximum of)\s*\(?(\d+)/i,
  /\bbudget\W{0,3}(\d+)/i,
  /\b(\d+)[- ]tokens? context (?:window|length|size)\b/i,
  /\bmax(?:imum)? size\W{1,3}(\d+) tokens/i,
  /\bmax(?:imum)?[ _](?:prompt|input)[ _]tokens\W{1,3}(\d+)/i,
  /\bmax_(?:seq|model)_len(?:\W{1,3}|\s+(?:is|of)\s+)(\d+)/i,
  /\bmodel (?:only )?supports? (?:up to|at most|a maximum of)\s*(\d+)/i,
  // Z.ai: "Input token length too long. Maximum: 128000, Actual: 150000"
  /\bmaximum:\s*(\d+)/i,
  // LM Studio: "... when context length is 4096"
  /\bcontext length is (\d+)\b/i,
  // A server's own setting named as it is spelled: "prepared prompt exceeds Engine max_context 196608" (decision 0064, a thirty-ninth set)
  /\bmax[_ ]context(?:[_ ](?:length|size|window|tokens))?\W{1,3}(\d+)/i,
  // A bare comparison after an overflow code: "context_length_exceeded: 250000 > 128000"
  /\b\d+\s*>\s*(\d+)\b/,
  // The window given as a label after the overflow's words: "too many tokens. Max tokens: 200000" (decision 0064, a
  // fortieth set). Read last, and only where the text is already an overflow, so an output budget keeps its readings.
  /\bmax(?:imum)? tokens:\s*(\d+)\b/i,
  // "prompt is 300000 tokens, limit 200000" (decision 0064, a fifty-fifth set)
  /\btokens?,\s*(?:the )?limit(?: is)?\s+(\d+)\b/i,
];
const reportedPatterns = [
  /(?:request|message|prompt|input)\s*\((\d+)(?: tokens?)?\)/i,
  /\b(\d+) tokens? exceeds?\b/i,
  // vLLM's older wording: "Prompt length of 4699 is longer than the maximum model length of 4096" (decision 0064, a fiftieth set)
  /\bprompt length of (\d+)/i,
  /\bprompt_tokens\W{1,3}(\d+)/i,
  /\bgiven:\s*(\d+)/i,
  /total of (?:at least )?(\d+)/i,
  // "you request 1058357 tokens" in the present tense, as some OpenAI-compatible servers write it (decision 0064, a fifty-ninth set)
  /(?:requested tokens|requested|you request|request contains|resulted in|token count of|token count|received|actual:|current length is|input length|prompt contains|too long|too large|n_prompt_tokens|n_keep|contains)\W{0,3}(?:about |at least )?\(?(\d+)/i,
  /\b(?:prompt|input|message|request) (?:is|of|has)\W{0,3}(\d+) (?:input |prompt )?tokens/i,
  /\bnumber of (?:input |prompt )?tokens\W{0,3}(\d+)/i,
  /\bto \d+(?: tokens)?\W{1,3}required (\d+)/i,
  /\bkeep the first (\d+) tokens/i,
  /\btoken count (?:is|of)\s+(\d+)/i,
  /length\W{0,3}(\d+)/i,
  /\bprompt\s*=\s*(\d+)/i,
  /\b(\d+)\s*>\s*\d+\b/,
];
// The limit may be quoted: Groq's "`max_tokens` must be less than or equal to `16384`" (decision 0064, a thirty-third set).
const maxTokensLimitPatterns = [
  /max(?:imum)? (?:output|completion) tokens\W{0,3}(?:of |is )?\(?(\d+)/i,
  /(?:at most|limit of|<=|above|less than or equal to|valid range of max_tokens is \[\d+,\s*|should be \[\d+,\s*|maximum context length is|>)\s*[`'"]?(\d+)/i,
];
// ... or the figure before the cap: Groq's "max-tokens limit exceeded: 9000 > 8192" (decision 0064, a fifty-third set).
const maxTokensRequestedPatterns = [/(?:too large|max_tokens|you provided)\W{0,3}(\d+)/i, /\b(\d+)\s*>\s*\d+\b/];

/**
 * An input-plus-output error whose output budget alone fills the window ("Given: 30 `inputs` tokens and 999999999
 * `max_new_tokens`" against 32769) is the requested max_tokens, not the prompt (decision 0064, a thirty-fourth set).
 */
function inputPlusOutputKind(numbers: Partial<ProviderErrorClassification>): Partial<ProviderErrorClassification> & { kind: ProviderErrorKind } {
  const { requestedOutputTokens, limitTokens, inputTokens } = numbers;
  // The output budget the larger part of the overrun ("Given: 364 `inputs` tokens and 32768 `max_new_tokens`" against
  // 32769): a smaller max_tokens is the fix, not a shorter prompt (decision 0064, a forty-second set).
  const outputOverruns = requestedOutputTokens !== undefined && (inputTokens === undefined || requestedOutputTokens > inputTokens);
  if (outputOverruns && limitTokens !== undefined && (requestedOutputTokens >= limitTokens || inputTokens !== undefined))
    return { kind: 'max_tokens', limitTokens, reportedTokens: requestedOutputTokens, requestedOutputTokens, ...(inputTokens === undefined ? {} : { inputTokens }) };
  return { kind: 'context_overflow', ...numbers };
}

function overflowNumbers(text: string): Partial<ProviderErrorClassification> {
  const sum = /(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/.exec(text);
  if (sum) {
    const [input, output, limit] = [Number(sum[1]), Number(sum[2]), Number(sum[3])];
    return { reportedTokens: input + output, inputTokens: input, requestedOutputTokens: output, limitTokens: limit };
  }
  const windowLessInput = outputOverWindowLessInput.exec(text);
  if (windowLessInput) {
    const [output, limit, input] = [Number(windowLessInput[1]), Number(windowLessInput[2]), Number(windowLessInput[3])];
    return { reportedTokens: input + output, inputTokens: input, requestedOutputTokens: output, limitTokens: limit };
  }
  const split = /(\d+)\W{0,2}inputs?\W{0,2} tokens and (\d+)\W{0,2}max_new_tokens/i.exec(text) ?? /passed (\d+) input tokens and requested (\d+) output tokens/i.exec(text);
  const limitTokens = firstNumber(text, limitPatterns);
  const found: Partial<ProviderErrorClassification> = limitTokens === undefined ? {} : { limitTokens };
  if (split) {
    const [input, output] = [Number(split[1]), Number(split[2])];
    return { ...found, reportedTokens: input + output, inputTokens: input, requestedOutputTokens: output };
  }
  // vLLM names the output first: "you requested 4096 output tokens and your prompt contains [at least] 127075 input
  // tokens"; with "N characters" in place of the input tokens only the output is known (decision 0064, a forty-third set).
  const outputThenInput = outputFirst.exec(text);
  if (outputThenInput) {
    const output = Number(outputThenInput[1]);
    if (outputThenInput[3] === undefined) return { ...found, requestedOutputTokens: output };
    const input = Number(outputThenInput[2]);
    return { ...found, reportedTokens: input + output, inputTokens: input, requestedOutputTokens: output };
  }
  const outputOnly = outputAlone.exec(text);
  if (outputOnly) return { ...found, requestedOutputTokens: Number(outputOnly[1]) };
  const reportedTokens = firstNumber(text, reportedPatterns);
  const inMessages = number(/(\d+) (?:in (?:the|your) (?:messages|prompt)|of text input)/i.exec(text)?.[1]);
  const inCompletion = number(/(\d+) (?:in|for) the (?:completion|output)/i.exec(text)?.[1]);
  return {
    ...found,
    ...(reportedTokens === undefined || reportedTokens === limitTokens ? {} : { reportedTokens }),
    ...(inMessages === undefined ? {} : { inputTokens: inMessages }),
    ...(inCompletion === undefined ? {} : { requestedOutputTokens: inCompletion }),
  };
}

function rateLimitNumbers(text: string): Partial<ProviderErrorClassification> {
  const tpm = /limit:? (\d+)\W+(?:used:? \d+\W+)?requested:? (\d+)/i.exec(text);
  if (tpm) return { limitTokens: Number(tpm[1]), reportedTokens: Number(tpm[2]) };
  // xAI: "Tokens per Minute (actual/limit): 65605/16000"; the actual count may be the window's, so only the limit is read
  const actualOverLimit = /\(actual\/limit\)\W{0,3}\d+\/(\d+)/i.exec(text);
  if (actualOverLimit) return { limitTokens: Number(actualOverLimit[1]) };
  const quota = /token_count[\s\S]{0,240}?quotaValue\W+(\d+)/i.exec(text);
  return quota ? { limitTokens: Number(quota[1]) } : {};
}

// A server that is not there, in the words of Node, Go, Python and Windows (decision 0056); a connection it dropped
// mid-write ("Broken pipe", EPIPE) or a TLS record torn in transit (OpenSSL's "bad record mac") counts too.
const offlineWords =
  /\bfetch failed\b|socket hang up|\bECONNREFUSED\b|\bECONNRESET\b|connection reset|\bconnection error\b|\bENOTFOUND\b|\bEAI_AGAIN\b|\bE(?:HOST|NET)UNREACH\b|network (?:error|is unreachable)|getaddrinfo|connection refused|actively refused|no connection could be made|connect call failed|(?:cannot|can't|could not|couldn't|failed to|unable to) connect to (?:the )?(?:host|api|server)|\bnetwork request failed\b|\bfailed to fetch\b|\bfailure in name resolution\b|\bname resolution failed\b|\bname or service not known\b|\b(?:could not|couldn't|unable to|cannot|can't|failed to) resolve (?:the )?host|\bNewConnectionError\b|failed to establish a new connection|\bERR_(?:INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|CONNECTION_(?:REFUSED|RESET|CLOSED))\b|\bserver disconnected\b|\bnetwork connection (?:failed|lost|was lost)\b|\b(?:remote end|remote server|server|peer) closed (?:the )?connection|\bconnection was closed before (?:we |it )?received\b|\bbroken pipe\b|\bEPIPE\b|\bbad record mac\b/i;
// A server saying it timed out waiting for something behind it: a model runner to start, an upstream, a backend.
const serverGaveUpWaiting = /\btimed? ?out (?:while )?waiting (?:for|on)\b|\b(?:upstream|backend|runner|worker) (?:request )?timed? ?out\b/i;
// No answer in time, including exception names: ModelTimeoutException, APITimeoutError, ReadTimeout.
const timeoutWords =
  /\btimed? ?out\b|\btook too long to (?:complete|respond|finish)\b|\bE(?:SOCKET)?TIMEDOUT\b|deadline[ _]?exceeded|deadline of [\d.]+s exceeded|\btimeout\b|timeout(?:error|exception)\b|\b(?:read|connect|write|pool)timeout\b/i;

// An error status named anywhere in a wrapper's message: after a word that introduces one ("HTTP 503",
// "status=503", "Error code: 500 - {...}", `"code":413`, "returned 502") unless a unit follows ("returned 500
// tokens"), or before its reason phrase ("502 Bad Gateway").
const statusAfterCue =
  /\b(?:HTTP(?:\/[\d.]+)?|status(?:[ _]?code)?|(?:error|response)[ _]?code|code|error|returned|got|received|rejected|failed)\W{0,3}([45]\d{2})\b(?!\s*(?:tokens?|characters?|chars|bytes|words|items|messages|requests|seconds|ms|s)\b)/i;
const reasonPhrase =
  'bad request|unauthorized|payment required|forbidden|not found|request timeout|payload too large|request entity too large|too many requests|internal server error|bad gateway|service unavailable|gateway time-?out';
const statusBeforeReason = new RegExp(String.raw`\b([45]\d{2})\s+(?:${reasonPhrase})\b`, 'i');

// A status in square brackets, alone or with its reason phrase: "[503]", "[429 Too Many Requests]" (Google's SDKs, gateways).
const statusInBrackets = new RegExp(String.raw`\[([45]\d{2})(?:\s+(?:${reasonPhrase}))?\]`, 'i');
// A status sent as a quoted string in a body's code or status field (`{"error": {"message": "busy", "code": "429"}}`, as
// Azure OpenAI and OpenAI-compatible servers send it): the quote and the space put it past the cue's three characters
// (decision 0064, a fifty-ninth set). Four-digit vendor codes ("1301") are not statuses.
const statusAsQuotedCode = /"(?:code|status|status_?code|statusCode)"\s*:\s*"([45]\d{2})"/i;

// LiteLLM's exception class for a 404 (its exception-mapping table): the model or route is not there, so the busy words
// it may wrap ("No deployments available") are no rate limit (decision 0064, a fortieth set).
const litellmNotFound = /\blitellm\.NotFoundError\b/;

/**
 * A status stated in an SDK's or a wrapper's message: at its start ("400 status code (no body)", "429 Too
 * Many Requests"), after a client's name at its start ("LLM 500: ...", "Codex 429: ..."), as "status code 524"
 * anywhere, as an error status a wrapper names ("Server returned HTTP 503", "openai.InternalServerError:
 * Error code: 500 - ..."), or in square brackets ("Streaming response failed: [503] ...").
 */
function textStatus(text: string): number | undefined {
  return (
    asStatus(/^(?:HTTP\/?[\d.]*\s+|status:?\s*|(?:API )?error(?: code)?:?\s*)?(\d{3})\b/i.exec(text)?.[1]) ??
    asStatus(/\bstatus[ _]code(?: of| is)?\W{0,3}(\d{3})\b/i.exec(text)?.[1]) ??
    asStatus(/^[a-z][\w.-]{0,24} ([45]\d{2}):/i.exec(text)?.[1]) ??
    asStatus(statusAfterCue.exec(text)?.[1]) ??
    asStatus(statusBeforeReason.exec(text)?.[1]) ??
    asStatus(statusInBrackets.exec(text)?.[1]) ??
    asStatus(statusAsQuotedCode.exec(text)?.[1]) ??
    (litellmNotFound.test(text) ? 404 : undefined)
  );
}

/**
 * True when the error says nothing but its status: an empty body, an SDK's "(no body)" (with or without
 * "status code" before it: "400 (no body)" is how ports of pi's client write it, decision 0064, a forty-first set),
 * a bare reason phrase, or a proxy's HTML error page. Such a 400 or 413 is not evidence of an overflow (decision 0031).
 */
function isBare(text: string): boolean {
  const words = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\b(?:nginx|openresty|cloudflare|apache|envoy|HTTP)(?:\/[\d.]+)?/gi, ' ')
    .replace(/\b\d{3}\b|(?:status code )?\(no body\)|bad request|request entity too large|payload too large|content too large/gi, ' ')
    .replace(/[\s|:().\-/]+/g, '');
  return words === '';
}

function classifyText(found: NormalizedError): Partial<ProviderErrorClassification> & { kind: ProviderErrorKind } {
  const { text } = found;
  const status = found.status ?? textStatus(text);
  if (tokenizerLengthWarning.test(text) || databaseTimeout.test(text)) return { kind: 'other' };
  if (overflowWhateverStatus.test(text)) return { kind: 'context_overflow', ...overflowNumbers(text) };
  if ((status === 400 || status === 413) && isBare(text)) {
    // Cerebras is known to answer an overflow with a bare 400 or 413; anywhere else a bare 400 is as
    // often a passing gateway fault, and a bare 413 a proxy's body-size cap: neither is worth a compaction.
    if (found.provider && /cerebras/i.test(found.provider)) return { kind: 'context_overflow' };
    return { kind: 'other', fallback: true, retryable: status === 400 };
  }
  if (kvCacheMemoryAtStart.test(text)) return { kind: 'other', fallback: true, retryable: false };
  // A request the model cannot take as sent, whatever status a relay puts on it (decision 0064, a fifty-fifth set).
  if (thoughtSignatureMissing.test(text)) return { kind: 'other', retryable: false };
  // A closed account is closed whatever status it comes with (Z.ai answers a locked account with a 429).
  if (unavailableToAccount.test(text) && !rateLimitWords.test(text)) return { kind: 'other', fallback: true, retryable: false };
  if (timeLimitReached.test(text)) return { kind: 'timeout', retryable: true };
  if ((deadlinePassed.test(text) || upstreamNoAnswerChinese.test(text)) && !rateLimitWords.test(text)) return { kind: 'timeout', retryable: true };
  if (quotaProjectFault.test(text) && status !== 429 && !/\b(?:exceeded|exhausted)\b/i.test(text)) return { kind: 'other', retryable: false };
  if (localStorageQuota.test(text) && status !== 429) return status !== undefined && status >= 500 ? { kind: 'other', fallback: true, retryable: true } : { kind: 'other' };
  if (agentOwnBudget.test(text) && status !== 429) return { kind: 'other' };
  if (status === 429 || rateLimitWords.test(text)) {
    const numbers = rateLimitNumbers(text);
    // A request larger than the per-minute budget never fits, however long the caller waits.
    const neverFits = (numbers.reportedTokens !== undefined && numbers.limitTokens !== undefined && numbers.reportedTokens > numbers.limitTokens) || requestOverMinuteBudget.test(text);
    const quotaText = windowResetStated.test(text) ? text.replace(usageWindowLength, ' ').replace(new RegExp(usageLimitReached.source, 'gi'), ' ') : text;
    return { kind: 'rate_limit', ...numbers, retryable: !neverFits && !exhaustedQuota.test(quotaText) };
  }
  if (perRequestCap.test(text)) {
    const cap = /requested (\d+) tokens\W+max (\d+)/i.exec(text);
    return { kind: 'other', ...(cap ? { reportedTokens: Number(cap[1]), limitTokens: Number(cap[2]) } : {}) };
  }
  if (thinkingBudgetOver.test(text)) return { kind: 'other' };
  if (
    inputPlusOutput.test(text) ||
    outputOverWindowLessInput.test(text) ||
    givenInputAndOutput.test(text) ||
    promptTooLong.test(text) ||
    negativeOutputBudget.test(text) ||
    maximumTokensExceeded.test(text)
  )
    return inputPlusOutputKind(overflowNumbers(text));
  if (maxTokensWords.some((pattern) => pattern.test(text)) && !maxTokensBelowParameter.test(text) && !maxTokensNotPositive.test(text)) {
    const limitTokens = firstNumber(text, maxTokensLimitPatterns);
    const reportedTokens = firstNumber(text, maxTokensRequestedPatterns);
    return { kind: 'max_tokens', ...(limitTokens === undefined ? {} : { limitTokens }), ...(reportedTokens === undefined ? {} : { reportedTokens }) };
  }
  if ((mediaTooLarge.test(text) || fieldLengthCap.test(text)) && !/\btokens?\b/i.test(text)) return { kind: 'other' };
  if (status !== undefined && status >= 500 && serverFaultBeforeModel.test(text)) return { kind: 'other', fallback: true, retryable: true };
  if (status !== undefined && status >= 500 && temporarilyCutLimit.test(text)) return { kind: 'rate_limit', retryable: true };
  if (overflowWords.some((pattern) => pattern.test(text)) && !windowNotSet.test(text)) {
    // Where the output is named first it may be the part that overruns: "you requested 65536 output tokens and your prompt
    // contains 77409 characters" against 65536 (decision 0064, a forty-third set).
    const numbers = overflowNumbers(text);
    return outputFirst.test(text) || outputAlone.test(text) ? inputPlusOutputKind(numbers) : { kind: 'context_overflow', ...numbers };
  }
  if (modelNotServed.test(text)) return { kind: 'other', ...(status !== undefined && status >= 500 ? { fallback: true } : {}) };
  // A 408 is the server saying the request took too long, whatever cause it guesses at ("possibly due to server overload").
  if (status === 408) return { kind: 'timeout', retryable: true };
  // "Try again later" or "please wait" alone is boilerplate: with a status the status decides, without one it is a busy service.
  if (
    status === 503 ||
    status === 529 ||
    ((busyWords.test(text) || systemResourceCode.test(text) || crowdedChinese.test(text)) && status !== 404) ||
    (endpointUnavailable.test(text) && (status === undefined || status === 429 || status >= 500)) ||
    (retryLater.test(text) && status === undefined)
  )
    return { kind: 'rate_limit', retryable: true };
  if (status === 504 || status === 524) return { kind: 'timeout', retryable: true };
  // A server error whose message says the server itself gave up waiting (Ollama's 500 "timed out waiting for llama
  // runner to start"): a timeout, as a 504 is, not a fault in the request (decision 0064, a twenty-second set).
  if (status !== undefined && status >= 500 && serverGaveUpWaiting.test(text)) return { kind: 'timeout', retryable: true };
  if (status !== undefined && status >= 500 && (requestNotServable.test(text) || contentRejected.test(text))) return { kind: 'other', fallback: true, retryable: false };
  // A server error says nothing about the request: another provider may well answer it. Without a status
  // (a stream's error event), the error type says it: OpenAI's `server_error`, Anthropic's `api_error`.
  if ((status !== undefined && status >= 500) || (status === undefined && serverErrorType.test(text))) return { kind: 'other', fallback: true, retryable: true };
  // Payment required: the account is out of credit, so the next provider should take over.
  if (status === 402) return { kind: 'rate_limit', retryable: false };
  return { kind: 'other' };
}

function classifyNormalized(found: NormalizedError, rules: readonly ClassifierRule[]): ProviderErrorClassification {
  let partial: Partial<ProviderErrorClassification> & { kind: ProviderErrorKind };
  const ruled = rules.map((rule) => rule(found)).find((result) => result !== undefined);
  if (ruled) partial = ruled;
  else if (found.failure === 'aborted' || (found.name === 'AbortError' && found.failure === undefined && found.status === undefined)) {
    // The caller cancelled: nothing to retry and nowhere to fall back to.
    partial = { kind: 'other', fallback: false, retryable: false };
  } else if (found.failure === 'timeout' || found.name === 'TimeoutError' || (found.networkCode !== undefined && !isOfflineCode(found.networkCode))) {
    partial = { kind: 'timeout', retryable: true };
  } else if (found.failure === 'offline' || (found.networkCode !== undefined && isOfflineCode(found.networkCode))) {
    partial = { kind: 'offline', retryable: true };
  } else if (found.status === undefined && offlineWords.test(found.text)) {
    partial = { kind: 'offline', retryable: true };
  } else if (found.status === undefined && timeoutWords.test(found.text) && !overflowWords.some((pattern) => pattern.test(found.text)) && !databaseTimeout.test(found.text)) {
    partial = { kind: 'timeout', retryable: true };
  } else {
    partial = classifyText(found);
    // A 2xx body that is not JSON: the endpoint is broken, not the request.
    if (found.failure === 'malformed' && partial.kind === 'other') partial = { kind: 'other', fallback: true, retryable: true };
  }
  const { kind } = partial;
  const fallback = partial.fallback ?? (kind === 'rate_limit' || kind === 'timeout' || kind === 'offline');
  const retryable = partial.retryable ?? false;
  const wait = kind === 'rate_limit' || kind === 'timeout' || kind === 'other' ? retryAfterMs(found.headers, found.text) : undefined;
  const message = found.text.length > 500 ? `${found.text.slice(0, 500)}…` : found.text;
  // A wait of hours is a quota running out, not a burst: the next provider should take over now.
  const result: ProviderErrorClassification = { ...partial, kind, fallback, retryable: retryable && !(wait !== undefined && wait > longestSensibleWaitMs) };
  if (wait !== undefined && partial.retryAfterMs === undefined) result.retryAfterMs = wait;
  if (found.status !== undefined) result.status = found.status;
  if (found.provider !== undefined) result.provider = found.provider;
  if (message) result.message = message;
  return result;
}

/**
 * What a provider error means for the loop: `context_overflow`, `max_tokens`, `rate_limit`, `timeout`,
 * `offline` or `other`, with the token counts and the wait the error states, and whether the next
 * provider of a fallback chain should take the request. Accepts an Error (SDK errors included), a
 * fetch Response (status and headers only: use {@link classifyResponse} to read its body),
 * `{ status, body, headers, provider }`, a response body or stream event, or a string.
 *
 * Patterns cover families of wording, not single strings: a 413 "tokens per minute" is a rate limit,
 * "too many tokens, please wait" is throttling, an overflow wrapped in a 502 or a 200 stream is an overflow,
 * and daily quotas are `retryable: false` so the chain moves on instead of waiting. It never throws: an error
 * whose fields throw when read is `other`, with a message saying so.
 * @example
 * ```ts
 * classifyError({ status: 400, body: '{"error":{"message":"prompt is too long: 208310 tokens > 200000 maximum"}}' });
 * // { kind: 'context_overflow', reportedTokens: 208310, limitTokens: 200000, fallback: false, retryable: false, status: 400, ... }
 * ```
 */
export function classifyError(error: unknown, options: { provider?: string; rules?: readonly ClassifierRule[] } = {}): ProviderErrorClassification {
  let found: NormalizedError;
  try {
    found = normalizeError(error, options.provider);
  } catch (failure) {
    // An error whose fields throw when read (a proxy, a getter): what it means is unknown, and the classifier
    // is called from catch blocks, where throwing again would hide the error being handled (decision 0086).
    const reason = failure instanceof Error ? failure.message : String(failure);
    const label = options.provider ?? 'provider-utils';
    return { kind: 'other', retryable: false, fallback: false, ...(options.provider ? { provider: options.provider } : {}), message: `[ctxkit:${label}] the error could not be read: ${reason}` };
  }
  return classifyNormalized(found, options.rules ?? []);
}

/**
 * A classifier for one provider: its own rules first, then the shared families. What each provider
 * package exposes as `provider.classifyError`.
 */
export function createErrorClassifier(options: { provider: string; rules?: readonly ClassifierRule[] }): (error: unknown) => ProviderErrorClassification {
  return (error) => classifyError(error, options);
}

/**
 * Like {@link classifyError}, for a fetch Response whose body is unread: reads a copy of the body first.
 */
export async function classifyResponse(response: Response, options: { provider?: string; rules?: readonly ClassifierRule[] } = {}): Promise<ProviderErrorClassification> {
  let body = '';
  try {
    body = await response.clone().text();
  } catch {
    // A body that cannot be read leaves the status and headers to decide.
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return classifyError({ status: response.status, body, headers, ...(options.provider ? { provider: options.provider } : {}) }, options);
}
