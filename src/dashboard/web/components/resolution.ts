/**
 * Who resolved an incident and why, in words: the evaluator's automatic resolution (with the
 * value that cleared the condition), a person's (by name, "you"), or the rule's deletion or
 * disabling by someone; then the resolution note, if any.
 */
import type { Incident } from '../api/types.js'; // .js: the node tests import this file too

type Who = (id: string | null | undefined) => string;

export function describeResolution(incident: Incident, who: Who): string {
  const by = who(incident.resolved_by);
  const how = (() => {
    switch (incident.resolution_reason) {
      case 'auto': {
        const value = incident.resolution_value;
        return `auto-resolved by the evaluator${value === null || value === undefined ? '' : ` (value ${value.toLocaleString(undefined, { maximumFractionDigits: 2 })})`}`;
      }
      case 'rule_deleted':
        return `rule deleted by ${by}`;
      case 'rule_disabled':
        return `rule disabled by ${by}`;
      default:
        return `by ${by}`;
    }
  })();
  return incident.resolution_note ? `${how}: “${incident.resolution_note}”` : how;
}
