import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * One voice (issue 25.3): every sentence a person reads comes from a catalogue with codes and typed
 * parameters per language (messages/catalogue.ts), so no source picks its words by comparing the
 * reader's language to a literal (`lang === 'pt' ? … : …`, `if (lang === 'en')`, `pt ? … : …` on a
 * language flag). A language is read with messages/lang.ts's `readLang`, and words differ by
 * language only inside a catalogue's entries or a per-language table (`PerLang`).
 */

const ROOT = resolve(__dirname, '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', 'test', 'coverage', '.git']);

function sourcesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    if (SKIPPED.has(name) || name.startsWith('.')) continue;
    const path = folder === '.' ? name : `${folder}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** A language compared to a literal, or a ternary on a language flag. */
const LANGUAGE_BRANCHES = [/(lang|language)\s*[!=]==?\s*['"](pt|en)['"]/i, /\bpt\s*\?\s*[`'"(]/];

/**
 * Files that still branch on the language, each owned by another helper of the session that
 * converts it (issue 25.3): the next session removes each entry once its file speaks through a
 * catalogue. This list only shrinks: a new file never joins it.
 */
const STILL_BRANCHING = new Map<string, string>([
  ['law/mapping-messages.ts', "the law's helper (the mapping's messages)"],
  ['law/mapping-words.ts', "the law's helper (the mapping's words)"],
  ['connector/month/month-words.ts', "the month's helper (the month pack)"],
  ['connector/cli/month-command.ts', "the month's helper (the month command's --lang)"],
]);

function branches(file: string): string[] {
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && LANGUAGE_BRANCHES.some((pattern) => pattern.test(line)))
    .map(({ line, number }) => `${file}:${number}: ${line}`);
}

describe('one voice: no source picks its words by the reader\'s language outside a catalogue', () => {
  const sources = sourcesUnder('.').filter((file) => !STILL_BRANCHING.has(file));

  it('finds the sources (the scan is not empty)', () => {
    expect(sources).toEqual(expect.arrayContaining(['connector/pipeline/answers.ts', 'connector/doctor/render.ts', 'messages/lang.ts', 'platforms/registry.ts']));
  });

  it.each(sources)('%s has no `lang === \'pt\' ? … : …`-style branch', (file) => {
    expect(branches(file)).toEqual([]);
  });

  it('the rule sees a branch where there is one (the patterns are not blind)', () => {
    const caught = ["return lang === 'pt' ? 'olá' : 'hello';", "if (lang === 'en') return text;", 'return pt ? `olá ${name}` : `hello ${name}`;', "values.language !== 'pt'"];
    for (const line of caught) expect(LANGUAGE_BRANCHES.some((pattern) => pattern.test(line))).toBe(true);
    const fine = ['const draft = known ?? 1;', "const attempt = entry.draftAttempt ?? 1;", "return LOCALES[lang];", "CONSOLE.say(lang, 'attached', { documentId })"];
    for (const line of fine) expect(LANGUAGE_BRANCHES.some((pattern) => pattern.test(line))).toBe(false);
  });

  it.each([...STILL_BRANCHING])('%s is allowed for now, owned by %s', (file) => {
    expect(sources).not.toContain(file);
  });
});
