import { describe, expect, it } from 'vitest';
import { scanFormTags } from '../../src/namespaces/contact-forms/form-tags/scanner.js';
import { isEmail, isTel, isUrl, isDate, canonicalize } from '../../src/namespaces/contact-forms/validators.js';
import { antiscriptFileName, acceptableFiletypes } from '../../src/namespaces/contact-forms/files.js';
import { settingsForApi } from '../../src/namespaces/contact-forms/settings.js';
import { replaceMailTags, type MailTagContext } from '../../src/namespaces/contact-forms/mail-tags.js';
import { FixedOffsetZone } from 'luxon';

const summary = (form: string) => scanFormTags(form).map((t) => [t.type, t.name, t.options, t.values]);

describe('form-tag scanner', () => {
  it('reads types, required marks, names, options and quoted values', () => {
    expect(summary('[text* your-name size:40 placeholder "Your name"] [checkbox c use_label_element "A" \'B\']')).toEqual([
      ['text*', 'your-name', ['size:40', 'placeholder'], ['Your name']],
      ['checkbox', 'c', ['use_label_element'], ['A', 'B']],
    ]);
  });

  it('keeps the content of enclosing tags and pipes of values', () => {
    const [acceptance, select] = scanFormTags('[acceptance ok optional] I agree<br />\n to it <br/>[/acceptance][select s "Label|value" " Two "]');
    expect(acceptance).toMatchObject({ name: 'ok', options: ['optional'], content: 'I agree\n to it ' });
    expect(select).toMatchObject({ rawValues: ['Label|value', ' Two '], values: ['Label', 'Two'], pipes: [['Label', 'value'], ['Two', 'Two']] });
  });

  it('skips escaped tags, unknown types and invalid names; keeps unparsable attributes as text', () => {
    expect(summary('[[text escaped]] [unknown x] [text 9bad] [text ok] [textarea]')).toEqual([
      ['text', 'ok', [], []],
      ['textarea', '', [], []],
    ]);
    const [odd] = scanFormTags('[submit "unclosed]');
    expect(odd).toMatchObject({ type: 'submit', attr: '"unclosed', pipes: null, values: [] });
    expect(summary('[[text half] [text dotted.name]')).toEqual([
      ['text', 'half', [], []],
      ['text', 'dotted_name', [], []],
    ]);
  });

  it('treats the option "0" as none, as PHP’s empty() does', () => {
    expect(summary('[submit 0 "Go"]')).toEqual([['submit', '', [], ['Go']]]);
  });

  it('stays linear on hostile templates', () => {
    const hostile = [
      '[text '.repeat(200_000),
      '['.repeat(500_000),
      `[text a "${'['.repeat(300_000)}`,
      `[select s ${'"x" '.repeat(100_000)}`,
      '[text x]'.repeat(50_000) + '[/text]',
    ];
    for (const form of hostile) expect(() => scanFormTags(form)).not.toThrow();
    expect(scanFormTags('[text x]'.repeat(50_000))).toHaveLength(50_000);
  });
});

describe('validators', () => {
  it('checks e-mail addresses as WordPress is_email does', () => {
    expect(isEmail('ada@example.org')).toBe(true);
    expect(isEmail('a@b.c')).toBe(false);
    expect(isEmail('ada@example')).toBe(false);
    expect(isEmail('ada@-example.org')).toBe(false);
    expect(isEmail('ada lovelace@example.org')).toBe(false);
  });

  it('checks telephone numbers in one pass, hostile input included', () => {
    for (const ok of ['+44 (20) 7946-0000', '0123456', '(030)/123-45', '+1 555 0100']) expect(isTel(ok)).toBe(true);
    for (const bad of ['', '+', '12-', '(12', '12a', '-12', '1 2 3 -']) expect(isTel(bad)).toBe(false);
    expect(isTel(`${'1 '.repeat(100_000)}x`)).toBe(false);
  });

  it('checks URLs and dates', () => {
    expect(isUrl('https://example.org/a?b#c')).toBe(true);
    expect(isUrl('mailto:ada@example.org')).toBe(true);
    expect(isUrl('example.org')).toBe(false);
    expect(isUrl('http://exa mple.org')).toBe(false);
    expect(isUrl('https://ünïcode.example')).toBe(false);
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2023-02-29')).toBe(false);
    expect(isDate('2023-2-1')).toBe(false);
  });

  it('canonicalizes answers and defuses file names', () => {
    expect(canonicalize('  Ｆｕｌｌ&amp;Width\n Answer ')).toBe('full&width answer');
    expect(antiscriptFileName('../../evil.php')).toBe('evil.php_.txt');
    expect(antiscriptFileName('my cv.tar.php.pdf')).toBe('my-cv.tar.php_.pdf');
    expect(acceptableFiletypes(['pdf|.TXT', 'image/png', 'text/*'])).toEqual(['.pdf', '.txt', 'image/png']);
  });

  it('lists additional settings as an object when a line in between does not match', () => {
    expect(settingsForApi('a: on\nb: off')).toEqual([['a', true], ['b', false]]);
    expect(settingsForApi('a: x\n# note\nb: y')).toEqual({ 0: ['a', 'x'], 2: ['b', 'y'] });
    expect(settingsForApi('')).toEqual([]);
  });
});

describe('mail-tags', () => {
  const ctx: MailTagContext = {
    posted: new Map<string, string | string[]>([
      ['your-name', 'Ada'],
      ['topics', ['a', 'b']],
      ['empty', ''],
      ['day', '2026-12-24'],
    ]),
    raw: new Map(),
    tags: [],
    uploads: new Map(),
    site: { title: 'Site & Co', description: '', url: 'https://www.example.org', adminEmail: 'admin@example.org', dateFormat: 'F j, Y', timeFormat: 'g:i a', zone: FixedOffsetZone.utcInstance },
    submission: { remoteIp: '192.0.2.7', userAgent: 'UA', url: 'https://example.org/contact', timestamp: 1_798_000_000, invalidFields: 0, formTitle: 'Contact' },
    post: null,
    user: null,
  };

  it('replaces field, special and formatted tags; keeps unknown ones and escapes', () => {
    expect(replaceMailTags('[your-name] <[topics]> [_site_title] [_site_domain] [_remote_ip] [unknown] [[your-name]]', ctx)).toBe(
      'Ada <a, b> Site & Co example.org 192.0.2.7 [unknown] [your-name]',
    );
    expect(replaceMailTags('[_format_day "D, d M Y"] at [_time]', ctx)).toBe('Thu, 24 Dec 2026 at 4:26 am');
  });

  it('drops lines whose tags are all empty when asked', () => {
    expect(replaceMailTags('Name: [your-name]\nEmpty: [empty]\nPlain', ctx, { excludeBlank: true })).toBe('Name: Ada\nPlain');
  });
});
