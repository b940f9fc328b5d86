import { describe, expect, it } from 'vitest';
import holdout from './__fixtures__/holdout-errors.json' with { type: 'json' };
import { classifyError, classifyResponse, createErrorClassifier, normalizeError } from './classify-error.ts';
import { ProviderCallError } from './provider-call-error.ts';

interface HoldoutEntry {
  provider: string;
  status: number | null;
  kind: string;
  body: string;
  reported_tokens?: number;
  limit_tokens?: number;
  retryable?: boolean;
}

describe('classifyError on held-out bodies (phrasings that are not in the corpus)', () => {
  it.each((holdout as HoldoutEntry[]).map((entry) => [entry.provider, entry] as const))('%s', (_name, entry) => {
    const result = classifyError(entry.status === null ? entry.body : { status: entry.status, body: entry.body });
    expect(result.kind).toBe(entry.kind);
    if (entry.limit_tokens !== undefined) expect(result.limitTokens).toBe(entry.limit_tokens);
    if (entry.reported_tokens !== undefined) expect(result.reportedTokens).toBe(entry.reported_tokens);
    if (entry.retryable !== undefined) expect(result.retryable).toBe(entry.retryable);
  });
});

describe('classifyError input shapes', () => {
  it('reads a fetch failure with ECONNREFUSED in its cause as offline', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), { code: 'ECONNREFUSED' }) });
    expect(classifyError(error)).toMatchObject({ kind: 'offline', fallback: true, retryable: true });
    expect(classifyError(new TypeError('fetch failed'))).toMatchObject({ kind: 'offline' });
  });

  it('reads an abort by timeout as timeout and an abort by the caller as other, without fallback', () => {
    expect(classifyError(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toMatchObject({ kind: 'timeout', fallback: true });
    expect(classifyError(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }))).toMatchObject({ kind: 'timeout' });
    expect(classifyError(new DOMException('This operation was aborted', 'AbortError'))).toMatchObject({ kind: 'other', fallback: false });
  });

  it('reads SDK errors: status and a parsed error body on the error object', () => {
    const sdkError = Object.assign(new Error('400 status code (no body)'), {
      status: 400,
      error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130001 tokens.", code: 'context_length_exceeded' },
      headers: { 'x-request-id': 'req_1' },
    });
    expect(classifyError(sdkError)).toMatchObject({ kind: 'context_overflow', reportedTokens: 130001, limitTokens: 128000, status: 400 });
    const aiSdkError = Object.assign(new Error('Too Many Requests'), { statusCode: 429, responseHeaders: { 'retry-after': '3' }, responseBody: '{}' });
    expect(classifyError(aiSdkError)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 3000 });
    // AWS SDK v3 (Bedrock): the status is in $metadata, and a 500 says nothing of the request.
    const awsError = Object.assign(new Error('An internal error occurred.'), { name: 'InternalServerException', $fault: 'server', $metadata: { httpStatusCode: 500 } });
    expect(classifyError(awsError)).toMatchObject({ kind: 'other', status: 500, fallback: true, retryable: true });
  });

  it('reads a server-side error type in a stream event, which comes with no status, as a server error', () => {
    for (const event of [
      { error: { message: 'The server had an error processing your request.', type: 'server_error' } },
      { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
    ]) {
      expect(classifyError(event)).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    }
    expect(classifyError({ error: { message: 'Invalid value for temperature', type: 'invalid_request_error' } })).toMatchObject({ kind: 'other', fallback: false, retryable: false });
  });

  it('reads the provider words kept in a wrapper error cause', () => {
    const inner = new ProviderCallError({
      provider: 'anthropic',
      failure: 'http',
      status: 400,
      body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
      message: 'answered 400',
    });
    const wrapper = new Error('request failed after retries', { cause: inner });
    expect(classifyError(wrapper)).toMatchObject({ kind: 'context_overflow', limitTokens: 200000, reportedTokens: 210000 });
  });

  it('reads a fetch Response by status and headers, and classifyResponse reads its body too', async () => {
    const limited = new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after': '2' } });
    expect(classifyError(limited)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 2000, status: 429 });
    const overflow = new Response('{"error":{"message":"Input is too long for requested model."}}', { status: 400 });
    expect(await classifyResponse(overflow, { provider: 'bedrock' })).toMatchObject({ kind: 'context_overflow', provider: 'bedrock' });
    expect(await overflow.text()).toContain('too long');
  });

  it('splits input and requested output where the error states both', () => {
    const result = classifyError('input length and `max_tokens` exceed context limit: 184915 + 20000 > 204648, decrease input length or `max_tokens` and try again');
    expect(result).toMatchObject({ kind: 'context_overflow', reportedTokens: 204915, inputTokens: 184915, requestedOutputTokens: 20000, limitTokens: 204648 });
  });

  it('keeps a retry-after from a header over the one in the text, and parses durations', () => {
    expect(classifyError({ status: 429, headers: { 'Retry-After': '7' }, body: 'Please try again in 644ms.' }).retryAfterMs).toBe(7000);
    expect(classifyError({ status: 429, body: 'Please try again in 1m30s.' }).retryAfterMs).toBe(90_000);
    expect(classifyError({ status: 429, body: '{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"26s"}]}' }).retryAfterMs).toBe(26_000);
  });

  it('marks a rate limit whose wait is hours as not retryable', () => {
    const result = classifyError({ status: 429, body: 'Requests have exceeded token rate limit of your current pricing tier. Please retry after 86400 seconds.' });
    expect(result).toMatchObject({ kind: 'rate_limit', retryAfterMs: 86_400_000, retryable: false, fallback: true });
  });

  it('sends server errors to the next provider but not bad requests', () => {
    expect(classifyError({ status: 500, body: '{"error":{"message":"Internal server error"}}' })).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 400, body: '{"error":{"message":"Invalid value for tool_choice"}}' })).toMatchObject({ kind: 'other', fallback: false });
    expect(classifyError({ status: 401, body: '{"error":{"message":"Incorrect API key provided"}}' })).toMatchObject({ kind: 'other', fallback: false });
  });

  it('reads an error status a wrapper names inside its message, but not a count of tokens', () => {
    expect(classifyError('Server returned HTTP 503')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('upstream returned 502 Bad Gateway')).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    expect(classifyError("openai.InternalServerError: Error code: 500 - {'error': {'message': 'The server had an error'}}")).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError('Failed to call model: status=504 body=')).toMatchObject({ kind: 'timeout', retryable: true });
    expect(classifyError('The model returned 500 tokens before stopping')).toMatchObject({ kind: 'other', fallback: false, retryable: false });
  });
  it('runs provider rules before the shared families', () => {
    const classify = createErrorClassifier({
      provider: 'custom',
      rules: [(error) => (error.text.includes('E_CTX') ? { kind: 'context_overflow', limitTokens: 4096 } : undefined)],
    });
    expect(classify({ status: 400, body: 'E_CTX' })).toMatchObject({ kind: 'context_overflow', limitTokens: 4096, provider: 'custom', fallback: false });
    expect(classify({ status: 429, body: '' })).toMatchObject({ kind: 'rate_limit', provider: 'custom' });
  });

  it('flattens JSON-in-JSON and Python reprs into one line', () => {
    const normalized = normalizeError({ status: 502, body: { error: { metadata: { raw: '{\\"error\\":{\\"message\\":\\"prompt is\\ntoo long\\"}}' } } } });
    expect(normalized.text).toContain('"message":"prompt is too long"');
    expect(normalized.status).toBe(502);
  });
});

describe('classifyError on wordings with no status', () => {
  it('reads a dropped or unreachable connection in the words of an SDK or a runtime as offline', () => {
    for (const text of [
      'litellm.APIError: APIError: OpenAIException - Connection error.',
      'read ECONNRESET',
      'getaddrinfo ENOTFOUND api.example.com',
      'connect EHOSTUNREACH 10.0.0.2:443',
      // A browser's and React Native's fetch, Python's resolver, curl, urllib3, Chromium, httpx
      'TypeError: Failed to fetch',
      'TypeError: Network request failed',
      '[Errno -3] Temporary failure in name resolution',
      'curl: (6) Could not resolve host: llm.internal',
      "HTTPSConnectionPool(host='llm.internal', port=443): Max retries exceeded (Caused by NewConnectionError('Failed to establish a new connection'))",
      'net::ERR_NAME_NOT_RESOLVED',
      'httpx.RemoteProtocolError: Server disconnected without sending a response.',
      'Remote end closed connection without response',
    ]) {
      expect(classifyError(text), text).toMatchObject({ kind: 'offline', fallback: true, retryable: true });
    }
    // A timing breakdown that mentions name resolution is not a resolver failure.
    expect(classifyError('Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 30.000s,name resolution: 0.270s')).toMatchObject({ kind: 'timeout' });
    expect(classifyError('Error: connect ETIMEDOUT 10.0.0.2:443')).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('reads an account out of money, a busy service and an oversized input in their general wordings', () => {
    for (const text of [
      'Billing hard limit has been reached',
      'Arrearage: Access denied, please make sure your account is in good standing.',
      'Payment Required',
      'You have exceeded the free tier limit',
    ]) {
      expect(classifyError(text), text).toMatchObject({ kind: 'rate_limit', retryable: false, fallback: true });
    }
    for (const text of [
      'Engine is busy',
      'The server is experiencing high load',
      'Service is too busy',
      '{"error":{"code":"TooManyRequests"}}',
      '{"type":"error","error":{"type":"overloaded_error"}}',
      'SlowDown: Please reduce your request rate.',
    ]) {
      expect(classifyError(text), text).toMatchObject({ kind: 'rate_limit', retryable: true });
    }
    for (const text of [
      'Too many input tokens',
      'messages total token count 140000 exceeds the maximum of 128000',
      // Six words between the verb and "context", one of them with a typographic apostrophe.
      'This request would exceed this model’s 8192 token context window.',
      'context window full',
      'messages: total length exceeds model limit',
    ]) {
      expect(classifyError(text), text).toMatchObject({ kind: 'context_overflow' });
    }
    // Pydantic's lower bound on a field ("Input should be greater than or equal to 1024") is a bad
    // parameter, not an input over the window.
    expect(classifyError({ status: 400, body: 'thinking.budget_tokens: Input should be greater than or equal to 1024' })).toMatchObject({ kind: 'other' });
    // Gemini says "exceeded your current quota" of a per-minute quota too: still worth a retry.
    expect(classifyError('You exceeded your current quota, please check your plan and billing details.')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });
});

describe('classifyError on errors that are none of the loop’s kinds', () => {
  // Parameter and validation errors name tokens, models, limits and maximums without being an overflow,
  // a rate limit or a max-tokens error: every widening of a family must leave them `other`.
  it.each([
    [400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."],
    [400, "Invalid 'messages[1].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 64 instead."],
    [400, "Invalid type for 'max_tokens': expected an integer, but got a string instead."],
    [400, 'messages.1.content.0.image.source.base64: image exceeds 5 MB maximum: 6291456 bytes > 5242880 bytes'],
    [422, 'Input should be a valid string'],
    [400, '`temperature` and `top_p` cannot both be specified for this model.'],
    [400, 'Invalid request: stop sequences must be at most 4'],
    [400, 'Context caching is not supported for this model'],
    [400, 'A maximum of 4 blocks with cache_control may be provided. Found 5.'],
    [400, 'Invalid value for temperature: must be between 0 and 2'],
    [400, 'tool_use ids were found without tool_result blocks immediately after: toolu_01'],
    [400, 'The number of tools exceeds the maximum of 128'],
    [400, 'Too many images in request. Max is 20.'],
    [403, 'Your API key does not have access to this model'],
  ])('%i %s', (status, body) => {
    expect(classifyError({ status, body })).toMatchObject({ kind: 'other' });
  });
});

describe('classifyError on an error that cannot be read', () => {
  it('answers other, saying why, instead of throwing from the catch block that called it', () => {
    const getter = {
      get status(): number {
        throw new Error('getter boom');
      },
    };
    const proxy = new Proxy(
      {},
      {
        get: () => {
          throw new Error('proxy boom');
        },
      },
    );
    expect(classifyError(getter, { provider: 'vllm' })).toEqual({
      kind: 'other',
      retryable: false,
      fallback: false,
      provider: 'vllm',
      message: '[ctxkit:vllm] the error could not be read: getter boom',
    });
    expect(classifyError(proxy)).toEqual({ kind: 'other', retryable: false, fallback: false, message: '[ctxkit:provider-utils] the error could not be read: proxy boom' });
    expect(createErrorClassifier({ provider: 'groq' })(proxy)).toMatchObject({ kind: 'other', provider: 'groq' });
  });
});

describe('classifyError on ctxkit errors', () => {
  it('reads code TIMEOUT as a timeout and ABORTED as a cancel', async () => {
    const { CtxkitError } = await import('@ctxkit/core');
    expect(classifyError(new CtxkitError({ code: 'TIMEOUT', message: 'summary took longer than 100 ms' }))).toMatchObject({ kind: 'timeout', fallback: true });
    expect(classifyError(new CtxkitError({ code: 'ABORTED', message: 'stopped' }))).toMatchObject({ kind: 'other', fallback: false });
  });
});

describe('classifyError on the thirtieth held-out set’s families (decision 0064)', () => {
  it('does not retry a quota whose metric name is per day, spelt with underscores', () => {
    const body =
      '{"error":{"code":429,"message":"You exceeded your current quota...","status":"RESOURCE_EXHAUSTED","details":[{"quota":"example.googleapis.com/requests_per_project_per_day","limit":0}]}}';
    expect(classifyError({ status: 429, body })).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('reads the prompt size from "your request has N input tokens"', () => {
    const result = classifyError("This model's maximum context length is 2048 tokens. However, your request has 3000 input tokens.");
    expect(result).toMatchObject({ kind: 'context_overflow', limitTokens: 2048, reportedTokens: 3000 });
  });

  it('reads the input part of "(N of text input, M in the output)", so a caller can see a smaller output budget fits', () => {
    const body = "This endpoint's maximum context length is 8192 tokens. However, you requested about 9000 tokens (500 of text input, 8500 in the output).";
    expect(classifyError({ status: 400, body })).toMatchObject({ kind: 'context_overflow', limitTokens: 8192, inputTokens: 500, requestedOutputTokens: 8500 });
  });
});

describe('classifyError on the forty-fourth held-out set’s families (decision 0064)', () => {
  it('does not retry a free plan’s usage limit that names the product in between', () => {
    const result = classifyError({ status: 429, body: '{"error":"You have reached your free Code Assist usage limit. Upgrade to keep going."}' });
    expect(result).toMatchObject({ kind: 'rate_limit', retryable: false });
  });
});

describe('classifyError on the forty-fifth held-out set’s families (decision 0064)', () => {
  it('reads "too many tokens" with "slow down" after it as throttling, not an overflow', () => {
    expect(classifyError('Too many tokens in flight, slow down and retry')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads tokens over what the model takes, and a prompt length above the limit, as an overflow', () => {
    expect(classifyError({ status: 400, body: 'request rejected: 250000 tokens exceed what this model can handle' })).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError({ status: 400, body: "input length is above the model's maximum" })).toMatchObject({ kind: 'context_overflow' });
  });

  it('does not read vLLM failing to start for want of KV-cache memory as an overflow', () => {
    const log =
      "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.10 GiB). Based on the available memory, the estimated maximum model length is 74448.";
    expect(classifyError(log)).toMatchObject({ kind: 'other', fallback: true, retryable: false });
  });
});

describe('classifyError: input and output stated apart, for the engine to size the output budget', () => {
  it('keeps the input beside the requested output on an overflow the output budget causes', () => {
    const tgi = classifyError({ status: 422, body: '`inputs` tokens + `max_new_tokens` must be <= 32769. Given: 364 `inputs` tokens and 32768 `max_new_tokens`' });
    expect(tgi).toMatchObject({ kind: 'max_tokens', limitTokens: 32_769, inputTokens: 364, requestedOutputTokens: 32_768 });
    const vllm = classifyError({
      status: 400,
      body: "This model's maximum context length is 32769 tokens. However, you requested 33132 tokens (364 in the messages, 32768 in the completion). Please reduce the length of the messages or completion.",
    });
    expect(vllm).toMatchObject({ kind: 'context_overflow', limitTokens: 32_769, inputTokens: 364, requestedOutputTokens: 32_768 });
  });
});

describe('classifyError on the forty-sixth held-out set’s families (decision 0064)', () => {
  it('reads a cap on requests in flight reached as a rate limit to wait out', () => {
    expect(classifyError({ status: 429, body: 'request reached the maximum concurrency limit of your project' })).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('Concurrency limit exceeded for this key')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads a model or service with insufficient capacity as busy, and the KV cache’s as an overflow', () => {
    expect(classifyError('The service has insufficient capacity right now')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 400, body: 'The model claude-3-5-sonnet has insufficient capacity, please retry' })).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 500, body: 'the KV cache has insufficient capacity for the requested tokens' })).toMatchObject({ kind: 'context_overflow' });
  });
});

describe('classifyError on the forty-seventh held-out set’s families (decision 0064)', () => {
  it('reads capacity "temporarily" or "currently" exceeded, and traffic named too heavy in Chinese, as busy', () => {
    expect(classifyError({ status: 500, body: 'model capacity currently exceeded' })).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('请求量过大，请稍后重试')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads a free allocation or allowance used up, and a relay’s failed pre-deduction, as credit spent', () => {
    expect(classifyError('Your free monthly allowance was used up')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 403, body: '{"error":{"message":"预扣费失败, 用户剩余额度: ¥0.02","type":"new_api_error"}}' })).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('reads a token quota reached, and no quota left, as a quota waiting does not restore', () => {
    expect(classifyError({ status: 403, body: '{"errors":[{"code":"token_quota_reached","message":"quota rejected"}]}' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 429, body: 'No credits left on this key' })).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('reads a free tier’s limits stated as applying as a rate limit to wait out, and Chinese "频率过高" as one', () => {
    expect(classifyError({ status: 429, body: 'Rate limit: 10 requests per minute. Free tier limits apply.' })).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('调用频率过高，请稍后再试')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads a relay’s sensitive-words rejection as a 500 not worth retrying', () => {
    expect(classifyError({ status: 500, body: '{"error":{"code":"sensitive_words_detected","message":"blocked"}}' })).toMatchObject({ kind: 'other', retryable: false });
  });

  it('reads a token count above the limit, and "prompt 过长", as an overflow, and the total tokens limit as the window', () => {
    expect(classifyError({ status: 400, body: 'prompt token count is above the limit' })).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError('prompt 过长')).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError({ status: 400, body: 'the number of input tokens 33000 cannot exceed the total tokens limit 32768 for this model' })).toMatchObject({
      kind: 'context_overflow',
      limitTokens: 32_768,
      reportedTokens: 33_000,
    });
  });
});

describe('classifyError near the forty-sixth to forty-ninth sets’ families, on errors that are not theirs (decision 0100, re-checked after BM25F)', () => {
  it('reads a server’s own disk full (ENOSPC in a 5xx) as a server fault, and a machine’s disk quota without a status as neither', () => {
    const ollama = classifyError({ status: 503, body: '{"error":"write /root/.ollama/models/blobs/sha256-7a1b: no space left on device (ENOSPC)"}' });
    expect(ollama).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 500, body: 'failed to write KV cache checkpoint: ENOSPC: no space left on device' })).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError('ENOSPC: Disk quota exceeded')).toMatchObject({ kind: 'other', fallback: false, retryable: false });
  });

  it('reads an endpoint unavailable to a key, a model type or because it was removed as no busy service', () => {
    expect(classifyError({ status: 410, body: 'This endpoint is unavailable: /v1/engines/{id}/completions was removed, use /v1/chat/completions' })).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError({ status: 403, body: 'The endpoint is unavailable to keys without the "inference" scope' }).kind).not.toBe('rate_limit');
    expect(classifyError('Backend is unavailable for model type "embedding"; call /v1/embeddings instead')).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError('AI_APICallError: Upstream request failed: Endpoint is unavailable.')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads an audio sampling frequency too high (采样频率过高) as a bad parameter, not a request rate', () => {
    expect(classifyError({ status: 400, body: '音频采样频率过高，请使用 16kHz 的音频' })).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError('您当前使用该 API 的频率过高,请降低频率')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads a server out of space in a context store (a volume, a folder) as no overflow', () => {
    expect(classifyError({ status: 500, body: 'Failed to persist the conversation: ran out of space in the context store volume /data/ctx' })).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 400, body: 'Codex ran out of room in the model’s context window. Start a new thread.' }).kind).toBe('context_overflow');
  });

  it('reads a deployment short of provisioned capacity units as a setting to change, not a busy service', () => {
    const ptu = classifyError({ status: 400, body: 'The deployment has insufficient capacity units provisioned: requested 100 PTU, provisioned 50. Increase the provisioned throughput.' });
    expect(ptu).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError('The deployment has insufficient capacity, please retry')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });
});

describe('classifyError: this session’s families on errors just outside them (decision 0100, review at the end of the session)', () => {
  it('reads an audio or video rate over a maximum as a bad request, not a rate limit, and AWS’s "Rate exceeded" still as one', () => {
    expect(classifyError({ status: 400, body: 'Audio sample rate exceeded the maximum of 48000 Hz' })).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError({ status: 400, body: 'Invalid request: bit rate exceeded for this video' })).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError('ThrottlingException: Rate exceeded')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads a disk out of space "in the context of" a job as no overflow, and Codex’s room in the context window as one', () => {
    expect(classifyError({ status: 500, body: 'The build ran out of space in the context of the upload job' })).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 400, body: 'Disk ran out of space in the context of this request' }).kind).not.toBe('context_overflow');
    expect(classifyError({ status: 400, body: 'Codex ran out of room in the model’s context window. Start a new thread.' })).toMatchObject({ kind: 'context_overflow' });
  });

  it('reads a free memory or buffer allocation failing as no spent credit, and Workers AI’s free allocation used up as one', () => {
    expect(classifyError({ status: 500, body: 'free memory allocation failed: pool exhausted' })).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    expect(classifyError({ status: 500, body: 'free GPU buffer allocation: arena exhausted' })).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    expect(classifyError({ status: 429, body: 'Free AI allocation of 10,000 neurons exhausted' })).toMatchObject({ kind: 'rate_limit', retryable: false });
  });
});

describe('classifyError: words of this session’s families that mean something else (decision 0100, the review’s leftovers)', () => {
  it('reads a plan usage limit stated as a rate per minute as a limit to wait out, and a spent one as a quota', () => {
    expect(classifyError({ status: 429, body: 'Your plan usage limit is 60 requests per minute' })).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 429, body: 'Token Plan usage limit reached' })).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('does not read an endpoint unavailable on a plan as a busy service, nor a write conflict’s concurrency retries as a rate limit', () => {
    expect(classifyError('This endpoint is unavailable on the free plan')).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError({ status: 409, body: 'write conflict exceeded concurrency retries' })).toMatchObject({ kind: 'other' });
    expect(classifyError({ status: 503, body: 'The endpoint is unavailable' })).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 429, body: 'request reached max organization concurrency: 1' })).toMatchObject({ kind: 'rate_limit', retryable: true });
  });
});

describe('classifyError on the fifty-seventh held-out set’s families (decision 0064)', () => {
  it('reads extra usage required for a window named by its size as an overflow, whatever the status, and extra usage alone as none', () => {
    expect(classifyError('Extra usage is required for 1M context')).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError({ status: 429, body: '{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for 200k context"}}' })).toMatchObject({
      kind: 'context_overflow',
    });
    expect(classifyError('Extra usage is required to continue using Claude').kind).not.toBe('context_overflow');
  });

  it('reads a token, coding or subscription plan used up as a quota the chain moves past, and other plans exceeded as no rate limit', () => {
    expect(classifyError('{"error":{"error":{"type":"invalid_request_error","code":"2056","message":"Token Plan exceeded"}}}')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 429, body: '{"error":{"message":"Coding plan usage exhausted, resets next month"}}' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError('execution plan exceeded the time limit').kind).not.toBe('rate_limit');
    expect(classifyError('query plan exceeded memory budget').kind).not.toBe('rate_limit');
  });

  it('reads a response cut off by its length as the output budget, and a prompt truncated by length as not', () => {
    expect(classifyError({ name: 'LengthFinishReasonError', message: 'The response was cut off due to length' })).toMatchObject({ kind: 'max_tokens' });
    expect(classifyError('Could not parse response content as the length limit was reached - CompletionUsage(completion_tokens=4096)')).toMatchObject({ kind: 'max_tokens' });
    expect(classifyError('The prompt was truncated due to length').kind).not.toBe('max_tokens');
    expect(classifyError('The response was truncated by the proxy').kind).not.toBe('max_tokens');
  });

  it('reads an upstream HTTP 402 inside a wrapper’s 5xx as a spent allowance, and 402 as a byte count as not', () => {
    expect(classifyError('proxy error (500): HTTP/1.1 402 from upstream')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 500, body: 'response of HTTP 402 bytes truncated' })).toMatchObject({ kind: 'other', retryable: true });
  });

  it('reads an output budget named alone against the window: max_tokens when it fills the window, an overflow when it does not', () => {
    expect(classifyError({ status: 400, body: 'maximum context length is 32768 tokens. However, you requested 40000 output tokens' })).toMatchObject({
      kind: 'max_tokens',
      limitTokens: 32768,
      requestedOutputTokens: 40000,
    });
    expect(classifyError({ status: 400, body: "This model's maximum context length is 8192 tokens. However, you requested 4096 output tokens" })).toMatchObject({
      kind: 'context_overflow',
      limitTokens: 8192,
    });
  });
});
