/**
 * The API's refusal of one form field, shown beside it. A problem+json answer names each field it
 * refused by JSON pointer (`/threshold`, `/config/recipients/0`; docs/http-conventions.md): this
 * shows the messages whose pointer is the field or lies under it. Give the input
 * `aria-describedby={fieldErrorId(field)}` so a screen reader reads the message with the field.
 */
import type { FieldProblem } from '../api/client';

export const fieldErrorId = (field: string) => `field-error-${field.replace(/[^a-z0-9_-]/gi, '-')}`;

/** The problems no field of the form shows (they go in the form's general error line). */
export const unplacedProblems = (errors: readonly FieldProblem[] | undefined, fields: readonly string[]) =>
  (errors ?? []).filter((error) => !fields.some((field) => matches(error.path, field)));

const matches = (path: string, field: string) => path === `/${field}` || path.startsWith(`/${field}/`);

export function FieldError({ errors, field }: { errors: readonly FieldProblem[] | undefined; field: string }) {
  const mine = (errors ?? []).filter((error) => matches(error.path, field));
  if (mine.length === 0) return null;
  return (
    <span class="field-error error" id={fieldErrorId(field)} data-field={field}>
      {mine.map((error) => error.message).join('; ')}
    </span>
  );
}
