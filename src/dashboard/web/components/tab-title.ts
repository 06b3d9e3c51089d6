/** The tab's title: the open incidents' count, then the page, then the product ("(3) Alert rules · warehouse-watch"). */
export const PRODUCT = 'warehouse-watch';

export function tabTitle(page: string | undefined, openIncidents: number | undefined): string {
  const count = openIncidents ? `(${openIncidents}) ` : '';
  return `${count}${page ? `${page} · ` : ''}${PRODUCT}`;
}
