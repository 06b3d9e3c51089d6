/**
 * The API's field errors (problem+json `errors`, JSON-pointer paths; docs/http-conventions.md)
 * beside the field they name: a field claims the errors at its path and below it
 * (`/config/recipients` shows `/config/recipients/1` too); whatever no field claims is listed above
 * the form. Tie the input to its message with `invalidProps` (screen readers read them together).
 */
import { ApiError, type FieldProblem } from '../api/client';

export const fieldErrorId = (path: string) => `field-error${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

export function problemsAt(errors: readonly FieldProblem[], path: string): FieldProblem[] {
  return errors.filter((error) => error.path === path || error.path.startsWith(`${path}/`));
}

/** The problems none of `paths` claims (they go in the form's general error line). */
export const unplacedProblems = (errors: readonly FieldProblem[], paths: readonly string[]) =>
  errors.filter((error) => !paths.some((path) => problemsAt([error], path).length > 0));

/** The attributes that tie an input to its error. */
export function invalidProps(errors: readonly FieldProblem[], path: string) {
  return problemsAt(errors, path).length > 0
    ? { 'aria-invalid': true as const, 'aria-describedby': fieldErrorId(path) }
    : {};
}

export function FieldError({ errors, path }: { errors: readonly FieldProblem[]; path: string }) {
  const mine = problemsAt(errors, path);
  if (mine.length === 0) return null;
  return (
    <span class="field-error" id={fieldErrorId(path)} data-path={path}>
      {mine.map((error) => error.message).join('; ')}
    </span>
  );
}

/** The refusal of a save: its detail, and the field errors no field of the form shows. */
export function FormProblem({
  failure,
  claimed,
}: {
  failure: ApiError | Error | undefined;
  claimed: (path: string) => boolean;
}) {
  if (!failure) return null;
  const unclaimed = failure instanceof ApiError ? failure.errors.filter((error) => !claimed(error.path)) : [];
  return (
    <div class="error" role="alert">
      <p>{failure.message}</p>
      {unclaimed.length > 0 ? (
        <ul>
          {unclaimed.map((error) => (
            <li key={error.path}>
              <code>{error.path || '/'}</code> {error.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export const errorsOf = (failure: unknown): FieldProblem[] => (failure instanceof ApiError ? failure.errors : []);
