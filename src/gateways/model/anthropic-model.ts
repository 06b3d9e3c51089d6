/**
 * The model port over Anthropic's Messages API through `@anthropic-ai/sdk`. `ANTHROPIC_BASE_URL`
 * points it at a gateway (or, in tests, at the local stand-in that speaks the same API).
 *
 * Temperature: the SDK 1.x request type has no `temperature` field, and the API version it sends
 * by default (2026-10-21) refuses one. The adapter pins the version through the client's
 * `defaultHeaders` (`apiVersion`, see ./api-version.ts), and the loop's request carries a
 * temperature only where that version takes it (the SDK passes the body field through).
 *
 * Authentication: SDK 1.x sends the key as `Authorization: Bearer <key>` (client.js `apiKeyAuth`),
 * not `x-api-key`; a gateway behind ANTHROPIC_BASE_URL that reads only `x-api-key` refuses it.
 */
import Anthropic, { APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { PINNED_API_VERSION } from './api-version.js';
import { ModelCallError, type ModelPort } from './port.js';

export interface AnthropicModelOptions {
  apiKey: string;
  baseUrl?: string;
  /** Retries of failed calls (429, 5xx, connection errors), with the SDK's back-off. */
  maxRetries?: number;
  /** The `anthropic-version` every request sends (the SDK's own default is 2026-10-21). */
  apiVersion?: string;
}

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

export function anthropicModel(options: AnthropicModelOptions): ModelPort {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl ?? null,
    maxRetries: options.maxRetries ?? 2,
    defaultHeaders: { 'anthropic-version': options.apiVersion ?? PINNED_API_VERSION },
  });
  return {
    async createMessage(request, { signal, timeoutMs }) {
      try {
        return await client.messages.create(request as MessageCreateParamsNonStreaming, {
          signal,
          timeout: Math.max(1, Math.ceil(timeoutMs)),
        });
      } catch (error) {
        throw classify(error);
      }
    },
  };
}

function classify(error: unknown): unknown {
  if (error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError)
    return new ModelCallError('timeout', 'the model did not answer in time');
  if (error instanceof APIError) {
    const status = error.status;
    const type = (error.error as { error?: { type?: unknown } } | undefined)?.error?.type;
    const detail =
      status === undefined
        ? 'the model provider could not be reached'
        : `the model provider answered ${status}${typeof type === 'string' ? ` (${type})` : ''}`;
    const failure = status === undefined || status >= 500 || RETRYABLE_STATUSES.has(status) ? 'unavailable' : 'refused';
    return new ModelCallError(failure, detail, error.message);
  }
  return error;
}
