/** A part of a message's content: text, or an image given inline (`data`, base64) or by `url`. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; data?: string; url?: string };

/** A tool call as the model sent it. `arguments` is the JSON text, unparsed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What ctxkit wrote into a transcript, so later steps and tools can tell it from what the run wrote. */
export interface MessageMeta {
  /** The ctxkit part that wrote or rewrote this message. */
  ctxkit?: {
    kind: 'summary' | 'note' | 'stub' | 'placeholder' | 'reinjected';
    /** The tier or source that wrote it: `summary`, `microcompact`, `task`. */
    by: string;
    /** Ids (or `#index` for messages without an id) of the messages this one replaces. */
    replaces?: string[];
    /** The restore handle of an archived original, for stubs. */
    handle?: string;
  };
  [key: string]: unknown;
}

interface MessageBase {
  id?: string;
  meta?: MessageMeta;
}

/** The system prompt: first, at most once, never rewritten (it is the prompt-cache prefix). */
export interface SystemMessage extends MessageBase {
  role: 'system';
  content: string;
}
/** A user message: the task, a follow-up, or anything the host adds as the user. */
export interface UserMessage extends MessageBase {
  role: 'user';
  content: string | ContentPart[];
}
/** A model reply, with the tool calls it made. */
export interface AssistantMessage extends MessageBase {
  role: 'assistant';
  content: string | ContentPart[];
  toolCalls?: ToolCall[];
}
/** The result of one tool call; follows the assistant message that made the call. */
export interface ToolMessage extends MessageBase {
  role: 'tool';
  toolCallId: string;
  toolName?: string;
  content: string | ContentPart[];
}

/** A provider-neutral transcript message, close to OpenAI chat with content parts (DESIGN.md §3). */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message. */
export type Role = Message['role'];

/**
 * The text of a message's content: a string as it is, text parts joined with a newline, images left out.
 * @example textOf([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]) // 'a\nb'
 */
export function textOf(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text = text.length === 0 ? part.text : `${text}\n${part.text}`;
  }
  return text;
}
