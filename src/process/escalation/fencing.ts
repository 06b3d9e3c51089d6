/**
 * Fencing of a reconcile: the member that began it may append and send only while its tenure (its
 * hold on the cluster from the moment the reconcile began) is unbroken. A member stalled past its
 * lease (SIGSTOP, a frozen VM, a long GC pause) wakes up in the middle of a reconcile whose reads
 * are stale: a survivor has owned the incident since the lease lapsed and may have fired, delivered
 * and recorded what this one was about to. So the check runs immediately before every append and
 * every send, and a broken tenure ends the reconcile with nothing more done; the member looks at
 * the incident again only once it has rejoined (its change of members lists its incidents anew).
 */
import type { EventStore } from '../../eventstore/port.js';
import type { NotifyPort } from '../../gateways/notify/port.js';
import type { ReconcilerDeps } from './incident-reconciler.js';

export interface ReconcileTenure {
  unbroken(): boolean;
}

export class FencedOut extends Error {
  override readonly name = 'FencedOut';
  constructor() {
    super("this instance's lease lapsed or was given up since the work began");
  }
}

/** `deps` whose appends and sends throw FencedOut once `tenure` is broken (reads go through). */
export function fencedDeps(deps: ReconcilerDeps, tenure: ReconcileTenure): ReconcilerDeps {
  const check = () => {
    if (!tenure.unbroken()) throw new FencedOut();
  };
  // Delegating objects: every other method is the store's or the port's own, with its own `this`.
  const eventStore: EventStore = Object.create(deps.eventStore);
  eventStore.append = async (stream, events, options) => {
    check();
    return deps.eventStore.append(stream, events, options);
  };
  const notify: NotifyPort = Object.create(deps.notify);
  notify.deliver = async (target, message, key) => {
    check();
    return deps.notify.deliver(target, message, key);
  };
  return { ...deps, eventStore, notify };
}
