import { z } from 'zod';

/** The claims the platform reads from every token (SPEC.md, Authentication). */
export const tokenClaimsSchema = z.object({
  sub: z.string().min(1),
  user_id: z.uuid(),
  tenant_id: z.uuid(),
  env_id: z.uuid(),
  roles: z.array(z.string()).default([]),
  email: z.string().optional(),
  iat: z.number().optional(),
  exp: z.number(),
});

/** Who is calling, as established from a verified token. */
export interface Principal {
  subject: string;
  userId: string;
  tenantId: string;
  envId: string;
  roles: string[];
  email?: string;
  /** Issued-at (seconds), used to record one login per token. */
  issuedAt?: number;
  /** The token's expiry (seconds): long-lived answers (event streams) end then. */
  expiresAt?: number;
}

export function principalFromClaims(claims: z.infer<typeof tokenClaimsSchema>): Principal {
  return {
    subject: claims.sub,
    userId: claims.user_id,
    tenantId: claims.tenant_id,
    envId: claims.env_id,
    roles: claims.roles,
    email: claims.email,
    issuedAt: claims.iat,
    expiresAt: claims.exp,
  };
}
