/** Sorting shared by the memory repositories: a key, then the id in the same direction (a stable, total order). */
export function sortBy<R extends { id: number }>(rows: R[], key: (row: R) => string | number, direction: 'asc' | 'desc'): R[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -sign;
    if (ka > kb) return sign;
    return (a.id - b.id) * sign;
  });
}

export function page<R>(rows: R[], offset: number, limit: number): { items: R[]; total: number } {
  return { items: rows.slice(offset, offset + limit), total: rows.length };
}

export const contains = (haystack: string | null, needle: string) => (haystack ?? '').toLowerCase().includes(needle.toLowerCase());
