import { describe, expect, it } from 'vitest';
import { memoryStore } from '../src/index.js';

describe('memory store: feedback rate-limit counts', () => {
  it('forget earlier windows at once, and the sender counted longest ago once 100,000 are counted in one window', async () => {
    const forms = memoryStore().contactForms;
    expect(await forms.countHit('feedback:first', 600)).toBe(1);
    expect(await forms.countHit('feedback:first', 600)).toBe(2);
    for (let i = 0; i < 100_000; i++) await forms.countHit(`feedback:${i}`, 600);
    // 100,001 senders: the first, counted longest ago, is forgotten; the others keep their counts.
    expect(await forms.countHit('feedback:99999', 600)).toBe(2);
    expect(await forms.countHit('feedback:first', 600)).toBe(1);
    // A later window starts every sender again.
    expect(await forms.countHit('feedback:99999', 1200)).toBe(1);
    expect(await forms.countHit('feedback:first', 1200)).toBe(1);
  });
});
