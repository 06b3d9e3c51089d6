/**
 * The Messages API version the adapter asks for, and whether that version lets a request carry a
 * temperature.
 *
 * "Versions" (https://platform.claude.com/docs/en/api/versioning): every request names its
 * `anthropic-version`; within one version input parameters are kept, breaking changes come only
 * with a new version. API version 2026-10-21 (its migration guide, and the SDK 1.0.0 release notes:
 * "add support for new API version 2026-10-21") removed `temperature`, `top_p` and `top_k`: a
 * request carrying one is a 400 "even at their default values". `@anthropic-ai/sdk` 1.x sends
 * `anthropic-version: 2026-10-21` on every request (node_modules/@anthropic-ai/sdk/client.js,
 * `buildHeaders`) unless the client's `defaultHeaders` name another, which is how the adapter
 * pins 2023-06-01: the version in which the spec's "temperature 0" is still a valid request.
 */

/** The version pinned by default (ANTHROPIC_API_VERSION): the last one that takes a temperature. */
export const PINNED_API_VERSION = '2023-06-01';
/** The first version without sampling parameters. */
export const SAMPLING_REMOVED_IN = '2026-10-21';

/** Versions are dates (YYYY-MM-DD), so they order as strings. */
export const acceptsTemperature = (apiVersion: string): boolean => apiVersion < SAMPLING_REMOVED_IN;

export interface SentTemperature {
  /** What each request carries; null: no `temperature` field at all. */
  temperature: number | null;
  /** Why none is sent, for /health and the operator. */
  detail?: string;
}

/** The temperature the requests carry, given the operator's choice (null: `omit`) and the API version. */
export function sentTemperature(configured: number | null, apiVersion: string): SentTemperature {
  if (configured === null)
    return { temperature: null, detail: 'ASSISTANT_TEMPERATURE=omit: the model samples at its own default' };
  if (!acceptsTemperature(apiVersion)) {
    return {
      temperature: null,
      detail: `anthropic-version ${apiVersion} has no temperature (removed in ${SAMPLING_REMOVED_IN}): the model samples at its own default, not at ${configured}`,
    };
  }
  return { temperature: configured };
}
