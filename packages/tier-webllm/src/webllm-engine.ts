/** A chat message as WebLLM's OpenAI-style API takes it (the subset ctxkit sends). */
export interface WebllmChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The non-streaming `chat.completions.create` request ctxkit sends. */
export interface WebllmChatRequest {
  messages: WebllmChatMessage[];
  /** Upper bound of the answer in tokens. */
  max_tokens?: number;
  temperature?: number;
  stream?: false;
  /** Which loaded model answers, when the engine holds several. */
  model?: string;
}

/** The parts of WebLLM's `ChatCompletion` ctxkit reads. */
export interface WebllmChatCompletion {
  choices: { message: { content: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** What WebLLM reports while it loads a model (`InitProgressReport`): `progress` from 0 to 1. */
export interface WebllmLoadProgress {
  progress: number;
  text: string;
  timeElapsed?: number;
}

/**
 * What the tier needs from an engine: WebLLM's `MLCEngine` and `WebWorkerMLCEngine` fit as they are, and
 * so does any object with an OpenAI-style `chat.completions.create` (a test double, a remote engine).
 */
export interface WebllmEngine {
  chat: { completions: { create(request: WebllmChatRequest): Promise<WebllmChatCompletion> } };
  /** Stops the generation in progress; WebLLM then answers with `finish_reason: 'abort'`. */
  interruptGenerate?(): void | Promise<void>;
  /** Frees the model's GPU memory. */
  unload?(): Promise<void>;
}

/** Creates an engine for a model, reporting load progress; `CreateMLCEngine`'s shape. */
export type CreateWebllmEngine = (model: string, options: { onProgress(report: WebllmLoadProgress): void }) => Promise<WebllmEngine>;
