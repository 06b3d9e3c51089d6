/**
 * The `lookup` handed to http.request: it resolves the host name and refuses the answer when any
 * address is not allowed, so the address that was checked is the address the socket connects to.
 * Checking a name first and connecting later would let a DNS answer change in between (rebinding).
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describeRefusal, guardAddress, type RefusalReason } from './address-guard.js';

/** Every address of a host name; injectable so tests can make names point anywhere. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Raised through the socket when the guard refuses an address; never retried. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  readonly code = 'EREFUSEDADDRESS';
  constructor(
    readonly reason: RefusalReason,
    /** The refused address (an IP address, not a secret). */
    readonly address: string,
  ) {
    super(`${address} is ${describeRefusal(reason)}`);
  }
}

const wantedFamily = (family: unknown) =>
  family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : undefined;

export function guardedLookup(resolve: HostResolver, policy: { allowPrivateNetworks: boolean }): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const family = wantedFamily(options.family);
        const addresses = family ? answers.filter((a) => a.family === family) : answers;
        if (addresses.length === 0) {
          callback(Object.assign(new Error('no address of the wanted family'), { code: 'ENOTFOUND' }), [], 0);
          return;
        }
        // All or nothing: one refused address means the name points somewhere it must not.
        for (const { address } of addresses) {
          const verdict = guardAddress(address, policy);
          if (!verdict.allowed) {
            callback(new RefusedAddressError(verdict.reason, address), [], 0);
            return;
          }
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, [], 0),
    );
  };
}
