import { describe, expect, it } from 'vitest';
import {
  costDetails,
  costValues,
  formatCost,
  jsonLdPrice,
  parseCostInput,
  parseCostRange,
  parseCurrencyPosition,
  parseCurrencySymbol,
  parseSeparators,
} from '../../src/namespaces/calendar/format/cost.js';
import { DEFAULT_SETTINGS } from '../../src/settings.js';
import { captureJson, captureRequestBody, captureText } from './captures.js';

const SITE = DEFAULT_SETTINGS; // "$", USD, prefix: as on the capture site.

/** Store what a request sent, then render it: the full round trip the serializer will do. */
function roundTrip(cost: unknown) {
  const stored = parseCostInput(cost)!;
  return {
    stored,
    cost: formatCost(stored.rows, stored, SITE),
    details: costDetails(stored.rows, stored),
  };
}

describe('cost: captured creates and updates', () => {
  it.each([
    '021-event-create-full',
    '022-event-create-all-day',
    '023-event-create-multiday',
    '024-event-create-past',
    '025-event-create-inline-venue-organizer',
    '026-event-create-draft',
    '079-event-update',
  ])('%s', (name) => {
    const body = captureRequestBody(name)!;
    const wire = captureJson(name);
    const { cost, details } = roundTrip(body.cost ?? '');
    expect(cost).toBe(wire.cost);
    // Key order exactly as on the wire.
    expect(JSON.stringify(details)).toBe(JSON.stringify(wire.cost_details));
  });

  it('keeps the captured cost_details key order in the raw JSON', () => {
    expect(captureText('021-event-create-full')).toContain(
      `"cost_details":${JSON.stringify(roundTrip('15').details)}`,
    );
  });
});

describe('cost: storing what was sent', () => {
  it.each([
    ['15', '', ''],
    ['$120', '$', 'prefix'],
    ['20$', '$', 'postfix'],
    ['€ 15', '€', 'prefix'],
    ['15 EUR', 'EUR', 'postfix'],
    ['Free', '', ''],
    ['10 - 20', '', ''],
    ['', '', ''],
    ['0', '', ''],
  ])('%j → symbol %j, position %j', (input, symbol, position) => {
    const stored = parseCostInput(input)!;
    expect(stored.currencySymbol).toBe(symbol);
    expect(stored.currencyPosition).toBe(position);
    expect(stored.currencyCode).toBe('');
    expect(stored.cost).toBe(input);
  });

  it('a list becomes one row per value; the symbol must agree everywhere', () => {
    const stored = parseCostInput(['0$', '20$', '30$'])!;
    expect(stored).toEqual({ rows: ['0$', '20$', '30$'], cost: '0$, 20$, 30$', currencySymbol: '$', currencyCode: '', currencyPosition: 'postfix' });
    expect(parseCurrencySymbol(['$5', '6€'])).toBeNull();
    expect(parseCurrencyPosition(['$5', '6$'])).toBeNull();
  });

  it('a comma-separated string is split for currency detection', () => {
    expect(parseCurrencySymbol('$5, $10')).toBe('$');
    expect(parseCurrencyPosition('$5, $10')).toBe('prefix');
  });

  it('stores what TEC stores for numbers, objects, booleans and lists of numbers', () => {
    expect(parseCostInput({ amount: 5 })).toEqual({ rows: ['5'], cost: '5', currencySymbol: '', currencyCode: '', currencyPosition: '' });
    expect(parseCostInput(15)!.rows).toEqual(['15']);
    expect(parseCostInput(12.5)!.rows).toEqual(['12.5']);
    expect(parseCostInput(1e21)!.rows).toEqual(['1.0E+21']);
    expect(parseCostInput([5, 10])!.rows).toEqual(['5', '10']);
    expect(parseCostInput(true)!.rows).toEqual(['1']);
    // An object's values keep their symbol only where PHP finds them by position (keys "0", "1", …).
    expect(parseCostInput({ 0: '$5' })).toMatchObject({ rows: ['$5'], currencySymbol: '$', currencyPosition: 'prefix' });
    expect(parseCostInput({ a: '$5' })).toMatchObject({ rows: ['$5'], currencySymbol: '', currencyPosition: '' });
    for (const falsy of [null, false, 0, [], {}]) expect(parseCostInput(falsy)!.rows).toEqual([]);
  });

  it('rejects values that are themselves lists or objects', () => {
    expect(parseCostInput({ a: [1] })).toBeNull();
    expect(parseCostInput([[5]])).toBeNull();
    expect(parseCostInput([{ amount: 5 }])).toBeNull();
  });
});

describe('cost: formatting (tribe_get_cost with currency)', () => {
  it.each<[unknown, string, string[]]>([
    ['15', '$15', ['15']],
    ['$120', '$120', ['120']],
    ['20$', '20$', ['20']],
    ['Free', 'Free', ['free']],
    [['0$', '20$', '30$'], 'Free – 30$', ['0', '20', '30']],
    ['10 - 20', '$10 – $20', ['10', '20']],
    ['0', 'Free', ['0']],
    ['', '', []],
    ['15.50', '$15.50', ['15.50']],
    ['1,000', '$1,000', ['1000']],
    ['12,5', '$12,5', ['12.5']],
    [['Free', '20'], '$20', ['free', '20']],
    ['Donation', 'Donation', ['donation']],
  ])('%j → %j, values %j', (input, wireCost, values) => {
    const { cost, details } = roundTrip(input);
    expect(cost).toBe(wireCost);
    expect(details.values).toEqual(values);
  });

  it('falls back to the site currency and position for a bare number', () => {
    const euroSuffix = { ...SITE, currency_symbol: '€', currency_position: 'postfix' as const };
    expect(formatCost('15', { currencySymbol: '', currencyPosition: '' }, euroSuffix)).toBe('15€');
    expect(formatCost('15', { currencySymbol: '£', currencyPosition: 'prefix' }, euroSuffix)).toBe('£15');
  });

  it('can format without a currency symbol', () => {
    expect(formatCost(['0$', '20$', '30$'], { currencySymbol: '$', currencyPosition: 'postfix' }, SITE, false)).toBe('Free – 30');
  });

  it('escapes HTML in non-numeric costs', () => {
    expect(formatCost('Fish & Chips', { currencySymbol: '', currencyPosition: '' }, SITE)).toBe('Fish &amp; Chips');
  });
});

describe('cost: JSON-LD price', () => {
  it('matches captures 048 (15) and 049 (Free → 0)', () => {
    const price048 = captureJson('048-event-single').json_ld.offers.price;
    const price049 = captureJson('049-event-single-all-day').json_ld.offers.price;
    expect(jsonLdPrice('15', { currencySymbol: '', currencyPosition: '' }, SITE)).toBe(price048);
    expect(jsonLdPrice('Free', { currencySymbol: '', currencyPosition: '' }, SITE)).toBe(price049);
  });
  it('is empty without a cost and keeps ranges as text', () => {
    expect(jsonLdPrice('', { currencySymbol: '', currencyPosition: '' }, SITE)).toBe('');
    expect(jsonLdPrice('$120', { currencySymbol: '$', currencyPosition: 'prefix' }, SITE)).toBe('120');
    expect(jsonLdPrice(['0$', '20$'], { currencySymbol: '$', currencyPosition: 'postfix' }, SITE)).toBe('Free – 20');
  });
});

describe('cost: internals', () => {
  it('parseCostRange keys numbers by a sortable index and words by slug', () => {
    expect(parseCostRange('10 - 5.5')).toEqual([['55', '5.5'], ['100', '10']]);
    expect(parseCostRange(['Free', '3'])).toEqual([['3', '3'], ['free', 'Free']]);
    expect(parseCostRange('5, 1', null, false)).toEqual([['5', '5,'], ['1', '1']]);
  });
  it('parseSeparators guesses decimal and thousands separators', () => {
    expect(parseSeparators('1,000')).toEqual(['.', ',']);
    expect(parseSeparators('12,5')).toEqual([',', '.']);
    expect(parseSeparators('1.000,50')).toEqual([',', '.']);
    expect(parseSeparators('15')).toEqual(['.', ',']);
  });
  it('costValues sorts numerically, stable', () => {
    expect(costValues(['30', '4', 'Free'])).toEqual(['free', '4', '30']);
  });
});
