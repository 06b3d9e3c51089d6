/**
 * The API's field errors (problem+json `errors`, JSON-pointer paths) beside the field they name:
 * a field claims the errors at its path and below it (`/config/recipients` shows
 * `/config/recipients/1` too); whatever no field claims is listed above the form.
 */
import type { FieldProblem } from '../api/client';
import { ApiError } from '../api/client';

export const fieldErrorId = (path: string) => `field-error${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

export function problemsAt(errors: FieldProblem[], path: string): FieldProblem[] {
  return errors.filter((error) => error.path === path || error.path.startsWith(`${path}/`));
}

/** The attributes that tie an input to its error (screen readers read it with the field). */
export function invalidProps(errors: FieldProblem[], path: string) {
  return problemsAt(errors, path).length > 0 ? { 'aria-invalid': true as const, 'aria-describedby': fieldErrorId(path) } : {};
}

export function PagingFieldError({ errors, path }: { errors: FieldProblem[]; path: string }) {
  const mine = problemsAt(errors, path);
  if (mine.length === 0) return null;
  return (
    <span class="field-error" id={fieldErrorId(path)} data-path={path}>
      {mine.map((error) => error.message).join('; ')}
    </span>
  );
}

/** The refusal of a save: its detail, and the field errors no field of the form shows. */
export function FormProblem({ failure, claimed }: { failure: ApiError | Error | undefined; claimed: (path: string) => boolean }) {
  if (!failure) return null;
  const unclaimed = failure instanceof ApiError ? failure.errors.filter((error) => !claimed(error.path)) : [];
  return (
    <div class="error" role="alert">
      <p>{failure.message}</p>
      {unclaimed.length > 0 ? <ul>{unclaimed.map((error) => <li key={error.path}><code>{error.path || '/'}</code> {error.message}</li>)}</ul> : null}
    </div>
  );
}

export const errorsOf = (failure: unknown): FieldProblem[] => (failure instanceof ApiError ? failure.errors : []);
