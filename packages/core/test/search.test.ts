import { describe, expect, it } from 'vitest';
import { boundedSearch, matchesSearch, MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, searchTerms } from '../src/index.js';

const words = (terms: ReturnType<typeof searchTerms>) => terms.map((t) => (t.exclude ? `-${t.text}` : t.text));

/** WordPress 7.0, WP_Query::parse_search and parse_search_terms, as a caller sees them. */
describe('search terms (WP_Query::parse_search)', () => {
  it('splits on spaces, tabs, commas and plus signs, keeps "quoted phrases", lower-cases', () => {
    expect(words(searchTerms('Jazz  night'))).toEqual(['jazz', 'night']);
    expect(words(searchTerms('jazz,blues+soul\tfunk'))).toEqual(['jazz', 'blues', 'soul', 'funk']);
    expect(words(searchTerms('"Open air" concert'))).toEqual(['open air', 'concert']);
    expect(words(searchTerms('"unclosed phrase'))).toEqual(['unclosed phrase']);
  });

  it('leaves out single letters, single dashes, "0" and stopwords', () => {
    expect(words(searchTerms('a jazz - x 0 7 night'))).toEqual(['jazz', '7', 'night']);
    expect(words(searchTerms('The night of the jazz'))).toEqual(['night', 'jazz']);
  });

  it('matches the whole text as one phrase when only stopwords and single letters remain', () => {
    expect(words(searchTerms('the a of'))).toEqual(['the a of']);
  });

  it('excludes terms written -word', () => {
    expect(searchTerms('jazz -blues')).toEqual([
      { text: 'jazz', exclude: false },
      { text: 'blues', exclude: true },
    ]);
  });

  it(`keeps up to ${MAX_SEARCH_TERMS} terms; more are matched as one phrase`, () => {
    const nine = 'one two three four five six seven eight nine';
    expect(searchTerms(nine)).toHaveLength(9);
    expect(words(searchTerms(`${nine} ten`))).toEqual([`${nine} ten`]);
    // A 4,000-word search is one condition, not 4,000.
    const huge = Array.from({ length: 4_000 }, (_, i) => `word${i}`).join(' ');
    expect(searchTerms(huge)).toHaveLength(1);
  });

  it(`reads only the first ${MAX_SEARCH_LENGTH} characters, never half a character`, () => {
    const long = `${'x'.repeat(MAX_SEARCH_LENGTH - 1)}😀tail`;
    expect(boundedSearch(long)).toBe('x'.repeat(MAX_SEARCH_LENGTH - 1));
    expect(searchTerms('y'.repeat(100_000))[0]!.text).toHaveLength(MAX_SEARCH_LENGTH);
    expect(boundedSearch('short')).toBe('short');
  });

  it('matches every term in some field and no excluded term in any', () => {
    const texts = ['Jazz night', 'at the Blue Note'];
    expect(matchesSearch(searchTerms('jazz note'), texts)).toBe(true);
    expect(matchesSearch(searchTerms('jazz -note'), texts)).toBe(false);
    expect(matchesSearch(searchTerms('jazz -blues'), texts)).toBe(true);
    expect(matchesSearch(searchTerms('jazz rock'), texts)).toBe(false);
  });
});
