/** PHP's notion of empty, as TEC's array_filter of venue and organizer data uses it. */
export function isFalsy(value: unknown): boolean {
  return (
    value === false ||
    value === null ||
    value === undefined ||
    value === '' ||
    value === '0' ||
    value === 0 ||
    (Array.isArray(value) && value.length === 0)
  );
}
