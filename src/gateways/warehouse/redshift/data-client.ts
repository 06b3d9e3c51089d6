import { RedshiftDataClient } from '@aws-sdk/client-redshift-data';

/**
 * Builds the Data API client for a region. `endpoint` points it elsewhere (tests use a loopback
 * stand-in with static credentials); otherwise the SDK's default credential chain applies.
 */
export interface RedshiftDataClientOptions {
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** SDK attempts per call (1 = no retry). The SDK default is 3. */
  maxAttempts?: number;
  /** Bounds one HTTP exchange; the statement runner bounds the whole statement. */
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
}

export function createRedshiftDataClient(region: string, options: RedshiftDataClientOptions = {}): RedshiftDataClient {
  return new RedshiftDataClient({
    region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    requestHandler: {
      requestTimeout: options.requestTimeoutMs ?? 10_000,
      connectionTimeout: options.connectionTimeoutMs ?? 3_000,
    },
  });
}
