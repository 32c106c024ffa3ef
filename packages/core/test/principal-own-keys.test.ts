import { describe, expect, it } from 'vitest';
import { hasCap, type Principal } from '../src/auth/principal.js';

describe('capability checks read own keys only', () => {
  it('ignores grants inherited through a prototype, in the caps map and in the roles', () => {
    const inherited = Object.create({ edit_cal_events: true, manage_options: true }) as Record<string, boolean>;
    const principal: Principal = { id: 7, login: 'sub', roles: ['subscriber'], caps: inherited };
    expect([hasCap(principal, 'edit_cal_events'), hasCap(principal, 'manage_options'), hasCap(principal, 'read')]).toEqual([false, false, true]);
    const oddRoles: Principal = { id: 8, login: 'odd', roles: ['constructor', '__proto__', 'toString'] };
    expect([hasCap(oddRoles, 'read'), hasCap(oddRoles, 'constructor')]).toEqual([false, false]);
    const own: Principal = { id: 9, login: 'own', roles: ['subscriber'], caps: { edit_cal_events: true, read: false } };
    expect([hasCap(own, 'edit_cal_events'), hasCap(own, 'read')]).toEqual([true, false]);
  });
});
