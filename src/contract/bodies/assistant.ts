/** What clients send to POST /ask (src/assistant/routes.ts parses with it; the console's call is typed from it). */
import { z } from 'zod';

export const MAX_PROMPT_CHARS = 8_000;

export const askBodySchema = z
  .object({
    prompt: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`)
      .refine((prompt) => prompt.trim().length > 0, 'must not be blank'),
  })
  .strict();
