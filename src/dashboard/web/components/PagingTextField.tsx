/**
 * A labelled form control with its hint and the API's errors for its path beside it. The label
 * names the control by `for` (not by wrapping it: a wrapped select would add its chosen option to
 * its name), and the hint and error are its description.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import type { FieldProblem } from '../api/client';
import { fieldErrorId, FieldError, problemsAt } from './FieldError';

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  label: string;
  path: string;
  errors: FieldProblem[];
  hint?: string;
  control: (props: ControlProps) => ComponentChildren;
}

export function PagingField({ label, path, errors, hint, control }: FieldProps) {
  const id = useId();
  const invalid = problemsAt(errors, path).length > 0;
  const described = [hint ? `${id}-hint` : '', invalid ? fieldErrorId(path) : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {control({
        id,
        ...(described ? { 'aria-describedby': described } : {}),
        ...(invalid ? { 'aria-invalid': true as const } : {}),
      })}
      <FieldError errors={errors} path={path} />
    </div>
  );
}

interface TextProps {
  label: string;
  path: string;
  value: string;
  onInput: (value: string) => void;
  errors: FieldProblem[];
  hint?: string;
  multiline?: boolean;
  type?: 'text' | 'number';
}

export function PagingTextField({
  label,
  path,
  value,
  onInput,
  errors,
  hint,
  multiline = false,
  type = 'text',
}: TextProps) {
  return (
    <PagingField
      label={label}
      path={path}
      errors={errors}
      hint={hint}
      control={(props) =>
        multiline ? (
          <textarea rows={3} {...props} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
        ) : (
          <input type={type as 'text'} {...props} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
        )
      }
    />
  );
}
