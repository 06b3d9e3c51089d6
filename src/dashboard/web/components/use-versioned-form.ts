/**
 * The state of an editor for one resource that is read with its ETag and replaced with If-Match
 * (heartbeats, maintenance windows): the form, filled once the version being edited has loaded;
 * the last save's failure; and a 409 while editing, which means someone changed the resource after
 * it was opened, offered as "load their version" (a new read, a new ETag, the form filled again).
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type Tagged } from '../api/client';
import { errorsOf } from './FieldError';
import { useLoad } from './use-load';

export function useVersionedForm<Doc, Form>({
  id,
  load,
  formOf,
  staleMessage,
}: {
  /** The resource being edited; none: a new one. */
  id: string | undefined;
  load: (id: string) => Promise<Tagged<Doc>>;
  /** The form for a loaded version, or (no argument) for a new resource. */
  formOf: (doc?: Doc) => Form;
  /** What a 409 while editing means for this resource; the API's words and what to do follow it. */
  staleMessage: string;
}) {
  const [round, setRound] = useState(0);
  const loaded = useLoad(() => (id ? load(id) : Promise.resolve(undefined)), [id, round]);
  const [form, setForm] = useState<Form>(() => formOf());
  const [etag, setEtag] = useState<string | null>(null);
  const [filled, setFilled] = useState(id === undefined);
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!loaded.value) return;
    setForm(formOf(loaded.value.data));
    setEtag(loaded.value.etag);
    setFilled(true);
  }, [loaded.value]);

  /** A submit handler: `write` creates or replaces with the ETag read; its failure is kept for the form. */
  const save = (write: (etag: string | null) => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    setConflict(false);
    try {
      await write(etag);
    } catch (error) {
      const stale = id !== undefined && error instanceof ApiError && error.status === 409;
      setConflict(stale);
      setFailure(
        stale
          ? new Error(
              `${staleMessage}, so your edit was not saved (HTTP 409: ${(error as Error).message}). Load their version, then make your change again.`,
            )
          : (error as Error),
      );
    } finally {
      setSaving(false);
    }
  };

  const loadTheirs = () => {
    setConflict(false);
    setFailure(undefined);
    setRound((n) => n + 1);
  };

  return {
    loaded,
    form,
    set: (change: Partial<Form>) => setForm((current) => ({ ...current, ...change })),
    filled,
    failure,
    errors: errorsOf(failure),
    conflict,
    saving,
    save,
    loadTheirs,
  };
}
