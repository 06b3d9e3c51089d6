/**
 * Pages are addressed by the URL fragment (#/incidents, #/incidents/<id>): the platform serves
 * one page at `/`, and a reload or a shared link lands on the same view.
 */
import { useEffect, useState } from 'preact/hooks';

/** The fragment's path; a page keeps its own state after `?` (the incident list's filters). */
export const currentRoute = () => location.hash.replace(/^#/, '').split('?')[0] || '/incidents';

export function useHashRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route.split('/').filter(Boolean).map(decodeURIComponent);
}
