/**
 * Create, replace and delete a role or a group with its name reserved (commands/grant-holder-names.ts):
 * the name is reserved before the role or group takes it and released after it gives it up, so two
 * of them never share a name. Shared by commands/role-routes.ts and commands/group-routes.ts.
 */
import type { Logger } from 'pino';
import {
  handleCommand,
  loadStream,
  type CommandDeps,
  type CommandEnvelope,
} from '../src/commanding/command-handler.js';
import type { DomainEvent } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import type { GrantHolderFields } from '../src/events/grant-holder.js';
import { grantHolderNameKey } from '../src/events/grant-holder-names.js';
import type { GrantHolderDecider } from './grant-holder.js';
import { nameReservations, type NamedResource } from './grant-holder-names.js';

export interface NamedGrantHolderDeps extends CommandDeps {
  logger: Pick<Logger, 'warn'>;
}

export function namedGrantHolderCommands<E extends DomainEvent>(
  deps: NamedGrantHolderDeps,
  decider: GrantHolderDecider<E>,
  resource: NamedResource<E>,
) {
  const names = nameReservations(resource);
  const what = resource.kind;
  /** Releasing is tidying up: if it fails, the reservation is taken over later (see grant-holder-names.ts). */
  const releaseQuietly = (envelope: CommandEnvelope, name: string, id: string) =>
    names
      .release(deps, envelope, name, id)
      .catch((error) => deps.logger.warn({ err: error, id }, `could not release a ${what} name reservation`));

  return {
    async create(envelope: CommandEnvelope, id: string, fields: GrantHolderFields) {
      decider.assertNameFree(fields);
      await names.reserve(deps, envelope, fields.name, id);
      try {
        return await handleCommand(deps, decider, {
          stream: resource.stream(id),
          resourceName: what,
          command: { kind: 'Create', id, fields },
          envelope,
          newStream: true,
        });
      } catch (error) {
        await releaseQuietly(envelope, fields.name, id);
        throw error;
      }
    },

    async replace(envelope: CommandEnvelope, id: string, fields: GrantHolderFields, ifMatch?: bigint) {
      const loaded = await loadStream(deps.eventStore, decider, resource.stream(id), envelope.tenantId, what);
      const current = loaded.state.fields;
      if (loaded.state.status !== 'active' || !current) throw rejectNotFound(what);
      // Refusals come before the reservation, so a refused request changes nothing.
      if (ifMatch !== undefined && ifMatch !== loaded.revision) {
        throw rejectConflict(
          `${what} was changed by someone else (revision ${String(loaded.revision)}, not ${ifMatch})`,
          { current_revision: String(loaded.revision) },
        );
      }
      decider.assertNameFree(fields);
      const renamed = grantHolderNameKey(fields.name) !== grantHolderNameKey(current.name);
      if (renamed) await names.reserve(deps, envelope, fields.name, id);
      let outcome;
      try {
        // A rename must apply to the name it was reserved against: expect the revision read above.
        outcome = await handleCommand(deps, decider, {
          stream: resource.stream(id),
          resourceName: what,
          command: { kind: 'Update', id, fields },
          envelope,
          expectedRevision: ifMatch ?? (renamed ? loaded.revision! : undefined),
          loaded,
        });
      } catch (error) {
        if (renamed) await releaseQuietly(envelope, fields.name, id);
        throw error;
      }
      if (renamed) await releaseQuietly(envelope, current.name, id);
      return outcome;
    },

    /** `users`: how many users hold the role or belong to the group (from the read model). */
    async delete(envelope: CommandEnvelope, id: string, users: number, ifMatch?: bigint) {
      const outcome = await handleCommand(deps, decider, {
        stream: resource.stream(id),
        resourceName: what,
        command: { kind: 'Delete', id, users },
        envelope,
        expectedRevision: ifMatch,
      });
      if (outcome.state.fields) await releaseQuietly(envelope, outcome.state.fields.name, id);
      return outcome;
    },
  };
}
