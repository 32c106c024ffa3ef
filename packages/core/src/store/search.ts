/**
 * How `search` is understood by every store (WordPress parse_search): words and "quoted phrases", each of
 * which must appear, case-insensitively, in one of the searched fields.
 */
export function searchTerms(search: string): string[] {
  const terms: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(search); m; m = re.exec(search)) {
    const term = (m[1] ?? m[2] ?? '').trim();
    if (term) terms.push(term.toLowerCase());
  }
  return terms;
}

/** Every term is found in at least one of the texts. */
export function matchesSearch(terms: readonly string[], texts: readonly string[]): boolean {
  const lowered = texts.map((t) => t.toLowerCase());
  return terms.every((term) => lowered.some((text) => text.includes(term)));
}

/** Great-circle distance in kilometres (venue `geoloc` filters). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 6371 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/** Statuses `'any'` stands for: everything but trash and auto-draft. */
export function statusMatches(filter: readonly string[] | 'any', status: string): boolean {
  return filter === 'any' ? status !== 'trash' && status !== 'auto-draft' : filter.includes(status);
}
