/** Collects bind values while a statement is assembled, so every value travels as a parameter. */
export class Params {
  readonly values: unknown[] = [];

  /** The placeholder for `value`, with an explicit type so both drivers bind it the same way. */
  add(value: unknown, type?: string): string {
    this.values.push(value);
    return type ? `$${this.values.length}::${type}` : `$${this.values.length}`;
  }
}
