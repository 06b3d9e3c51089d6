/**
 * The tab's title (tab-title.ts), live on every page for a principal with incidents:read
 * (a tab left on any page still says something is burning); without it, the page and the product.
 */
import { useEffect, useState } from 'preact/hooks';
import { watchOpenIncidents } from '../api/open-incidents';
import { useSession } from './session-context';
import { tabTitle } from './tab-title';

export function useTabTitle(page: string | undefined): void {
  const { api, calls, can } = useSession();
  const counts = can('incidents:read');
  const [open, setOpen] = useState<number | undefined>(undefined);
  useEffect(() => (counts ? watchOpenIncidents(api, calls, setOpen) : undefined), [api, counts]);
  useEffect(() => {
    document.title = tabTitle(page, counts ? open : undefined);
  }, [page, open, counts]);
}
