/** given(events).when(command).then(events) for pure deciders. */
import type { ExecutionContext } from 'ava';
import type { DecisionContext, Decider, DomainEvent } from '../../src/commanding/decider.js';
import { DomainRejection, type RejectionKind } from '../../src/commanding/domain-rejection.js';

export const TEST_CONTEXT: DecisionContext = {
  now: new Date('2026-03-01T12:00:00.000Z'),
  actor: '00000000-0000-4000-8000-0000000000aa',
  tenantId: '00000000-0000-4000-8000-000000000001',
};

export function deciderSpec<S, C, E extends DomainEvent>(t: ExecutionContext, decider: Decider<S, C, E>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: C, context: Partial<DecisionContext> = {}) {
          const run = () => decider.decide(command, state, { ...TEST_CONTEXT, ...context });
          return {
            then(expected: E[]) {
              t.deepEqual(run(), expected);
            },
            thenRejects(kind: RejectionKind, message?: RegExp) {
              const error = t.throws(run, { instanceOf: DomainRejection });
              t.is(error?.kind, kind);
              if (message) t.regex(error?.message ?? '', message);
            },
          };
        },
      };
    },
  };
}
